package qmpi

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 001, "Requirements": "Low to no overhead when no tool is attached -
// Possibility for zero overhead when disabled"; seed 000: registering a name
// "does not insert a tool into the QMPI call stack". With QMPI compiled in
// and no tool listed, app_layer runs twice: alone, and with a tool preloaded
// that registers itself but is not listed (tool_send.c). Where QMPI is
// compiled out but its symbols remain, every QMPI_* call is made once
// (app_stub_calls.c).
var noTools = rulebook.Define(rulebook.Check{
	ID:    "QMPI-NOTOOLS",
	Needs: "qmpi",
	Title: "with QMPI compiled in and no tool listed MPI works as without QMPI and no tool is initialized; where QMPI is compiled out every QMPI_* call returns an error code",
	Rules: []rulebook.Rule{
		// seed 001, "Requirements": "Low to no overhead when no tool is
		// attached"; "No loss of functionality compared to existing PMPI".
		{ID: "QMPI-NOTOOL-01", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "with QMPI compiled in and no tool listed, the application gets MPI's results (3 messages, the in-place sum), the same with and without a tool library loaded",
			Injectors: []string{"inject_qmpi_idle_twice"},
			Exposure:  noTool1Exposure.Declared(), Judge: judgeNoTools("results")},
		// seed 000, QMPI_Register_tool_name: "This function allows a tool to
		// 'announce' itself to MPICH, but does not insert a tool into the
		// QMPI call stack."
		{ID: "QMPI-REG-04", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "a tool that registers its name but is not in the tool list is never initialized and intercepts nothing",
			Injectors: []string{"inject_qmpi_not_idle"},
			Exposure:  reg4Exposure.Declared(), Judge: judgeNoTools("inert")},
		// seed 000: the environment variable specifies "the order and
		// quantity of tools": an empty list asks for none.
		{ID: "QMPI-NOTOOL-02", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "with the tool list set but empty, a loaded tool library that registers its names is never initialized and intercepts nothing, and the application gets MPI's results",
			Injectors: []string{"inject_qmpi_not_idle"},
			Exposure:  noTool2Exposure.Declared(), Judge: judgeEmptyList},
		// Where QMPI is compiled out the proposal says nothing; a library
		// that keeps the QMPI_* symbols should refuse every call with an
		// error code rather than accept a tool it will never run.
		{ID: "QMPI-NOTOOL-X1", Source: "seed 001", Basis: rulebook.Quality,
			Text:      "where QMPI is compiled out but its QMPI_* symbols remain, every QMPI_* call, before and after MPI_Init, returns an error code and no init callback runs",
			Injectors: []string{"inject_qmpi_not_idle"}, Needs: "mpi",
			Exposure: noToolX1Exposure.Declared(), Judge: judgeCompiledOut},
	},
})

var (
	// Each rank's results could have been wrong, or differed.
	noTool1Exposure = rulebook.Exposure[*layerRank]{Items: "ranks"}
	// A rank whose tool never called QMPI_Register_tool_name gave QMPI no
	// callback to run.
	reg4Exposure = rulebook.Exposure[*layerRank]{Items: "ranks with the unlisted tool loaded",
		When:  "when the loaded tool registered its name there (else QMPI had no callback to run)",
		Could: registeredName}
	// Each rank's results could have been wrong, its tool initialized.
	noTool2Exposure = rulebook.Exposure[*layerRank]{Items: "ranks"}
	// Each QMPI_* call could have returned MPI_SUCCESS.
	noToolX1Exposure = rulebook.Exposure[stubCall]{Items: "QMPI_* calls"}
)

// registeredName is whether the rank's loaded tool recorded its
// QMPI_Register_tool_name call.
func registeredName(r *layerRank) bool {
	for _, line := range r.Raw {
		if registerRCRe.MatchString(line) {
			return true
		}
	}
	return false
}

// judgeNoTools compares app_layer alone with app_layer under a preloaded
// but unlisted tool.
func judgeNoTools(what string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		bare := runLayer(x, layerRun{Name: "qmpi_app_layer without tools", NoTool: true, NoList: true, Args: []string{"init", "3"}})
		loaded := runLayer(x, layerRun{Name: "qmpi_app_layer with an unlisted tool", NoTool: true, NoList: true, Args: []string{"init", "3"},
			Preload: []string{x.Fixture("qmpi_tool_send")}})
		registerRC := "no answer recorded"
		var f rulebook.Problems
		for i, r := range loaded {
			ev := r.evidence()
			b := bare[i]
			if what == "results" {
				if why := wrongResults(b); why != "" {
					f.Add(b.evidence(), "rank %d without tools: %s", r.Rank, why)
				}
				if !reflect.DeepEqual(r.Result, b.Result) || !reflect.DeepEqual(r.Calls, b.Calls) || r.Init != b.Init {
					f.Add(ev+"\n"+b.evidence(), "rank %d: with an unlisted tool loaded the application saw %+v %+v, without it %+v %+v", r.Rank, r.Result, r.Calls, b.Result, b.Calls)
				}
				continue
			}
			for _, line := range actedLines(r) {
				f.Add(ev, "rank %d: no tool is listed, yet the loaded tool was initialized or intercepted a call: %s", r.Rank, line)
			}
			for _, line := range r.Raw {
				if m := registerRCRe.FindStringSubmatch(line); m != nil {
					registerRC = "QMPI_Register_tool_name returned " + m[1]
					break
				}
			}
		}
		f.FailOn(x)
		if what == "results" {
			return noTool1Exposure.Pass(loaded, "no tool listed: 3 messages and the in-place sum right, results and call counts identical with and without a loaded tool; the other suites list no tool, so their verdicts here are those of QMPI compiled in and idle")
		}
		registered := 0
		for _, r := range loaded {
			if registeredName(r) {
				registered++
			}
		}
		return reg4Exposure.Pass(loaded, "no tool listed: the loaded tool registered its name (%s) on %d of %d ranks and was never initialized nor called", registerRC, registered, len(loaded))
	}
}

// judgeEmptyList runs app_layer with MPIR_CVAR_QMPI_TOOL_LIST set to ""
// and a tool preloaded that registers its name unconditionally
// (tool_send.c).
func judgeEmptyList(x *rulebook.X) verdict.Verdict {
	ranks := runLayer(x, layerRun{Name: "qmpi_app_layer with an empty tool list", NoTool: true, List: "", Args: []string{"init", "3"},
		Preload: []string{x.Fixture("qmpi_tool_send")}})
	var f rulebook.Problems
	for _, r := range ranks {
		ev := r.evidence()
		for _, line := range actedLines(r) {
			f.Add(ev, "rank %d: the tool list is empty, yet the loaded tool was initialized or intercepted a call: %s", r.Rank, line)
		}
		if why := wrongResults(r); why != "" {
			f.Add(ev, "rank %d: %s", r.Rank, why)
		}
	}
	f.FailOn(x)
	return noTool2Exposure.Pass(ranks, "MPIR_CVAR_QMPI_TOOL_LIST=\"\": the loaded tool was never initialized nor called; 3 messages and the in-place sum right")
}

// actedLines are the rank's records that show a tool initialized or
// intercepting a call.
func actedLines(r *layerRank) []string {
	var out []string
	for _, line := range r.Raw {
		for _, k := range []string{`"kind":"init"`, `"kind":"pre"`, `"kind":"post"`} {
			if strings.Contains(line, k) {
				out = append(out, line)
			}
		}
	}
	return out
}

// wrongResults says how app_layer's 3 messages and in-place sum came out
// wrong on the rank, "" when they did not.
func wrongResults(r *layerRank) string {
	if r.Result.Sum != r.Result.WantSum || r.Result.ExtraMessages != 0 || (r.Rank == 1 && r.Result.Received != 3) {
		return fmt.Sprintf("sum %d (want %d), %d of 3 messages, %d extra", r.Result.Sum, r.Result.WantSum, r.Result.Received, r.Result.ExtraMessages)
	}
	return ""
}

var registerRCRe = regexp.MustCompile(`"kind":"register","rc":(-?\d+)`)

type stubCall struct {
	When string `json:"when"`
	Call string `json:"call"`
	RC   int    `json:"rc"`
}

type errString struct {
	Code   int    `json:"code"`
	Class  int    `json:"class"`
	String string `json:"string"`
}

// judgeCompiledOut calls every QMPI entry point where the probe found the
// symbols but registration refused.
func judgeCompiledOut(x *rulebook.X) verdict.Verdict {
	switch {
	case x.Caps.QMPI.Works:
		x.Unsupported("not measurable here: QMPI is compiled in (QMPI_Register_tool_name returned 0)")
	case x.Caps.QMPI.RC <= 0:
		x.Unsupported("not measurable here: %s", x.Caps.QMPI.Reason)
	}
	_, recs := x.Job(mpi.Job{Name: "qmpi_app_stub_calls", Ranks: 1, Program: x.Fixture("qmpi_app_stub_calls")})
	ev := recordsText(recs)
	calls := mpi.Decode[stubCall](recs, "stub_call")
	if len(calls) != 12 {
		x.Errorf(ev, "want 12 QMPI calls recorded (6 before and 6 after MPI_Init), got %d", len(calls))
	}
	var f rulebook.Problems
	if len(recs.Kind("stub_init_called", -1)) > 0 {
		f.Add(ev, "QMPI is compiled out, yet a registered init callback was called")
	}
	codes := map[int][]string{}
	for _, c := range calls {
		if c.RC == 0 {
			f.Add(ev, "QMPI is compiled out (QMPI_Register_tool_name answered %d to the capability probe), yet %s %s returned MPI_SUCCESS", x.Caps.QMPI.RC, c.Call, c.When)
		}
		codes[c.RC] = append(codes[c.RC], c.Call)
	}
	f.FailOn(x)
	words := map[int]string{}
	for _, e := range mpi.Decode[errString](recs, "error_string") {
		words[e.Code] = strings.TrimSpace(e.String)
	}
	var parts []string
	for code := range codes {
		parts = append(parts, fmt.Sprintf("%d (%q)", code, words[code]))
	}
	sort.Strings(parts)
	return noToolX1Exposure.Pass(calls, "QMPI compiled out: all 6 QMPI_* entry points, before and after MPI_Init, return error code %s", strings.Join(parts, ", "))
}
