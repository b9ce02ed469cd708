package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 000 defines the inputs: a tool_name that "needs to match the one
// provided in the environment variable", tool ids handed out by the init
// callbacks, and function_enum values of QMPI_Functions_enum (up to
// MPI_LAST_FUNC). What QMPI does with other inputs it does not say: these
// are quality rules (an error code, no crash, QMPI's tables intact), one per
// kind of input, each case in a job of its own. An empty tool list is not
// bad input (it initializes no tool: QMPI-REG-04, QMPI-NOTOOL-01), nor is a Finalize
// hook's own post-call work with its context after the inner MPI_Finalize
// returned (QMPI_Get_tool_storage, QMPI_Get_function, QMPI_Get_calling_address
// there are not judged).
var badInput = rulebook.Define(rulebook.Check{
	ID:    "QMPI-BADINPUT",
	Needs: "qmpi",
	Title: "inputs the proposal does not define (enum values out of range, ids never handed out, unlisted or listed-but-absent tools, odd list shapes, registration after MPI_Finalize) give error codes, no crash, no corrupted tables",
	Rules: []rulebook.Rule{
		// seed 000: QMPI_Register_function and QMPI_Get_function take "enum
		// QMPI_Functions_enum function_enum"; -1 and MPI_LAST_FUNC_T are none.
		{ID: "QMPI-BAD-01", Source: "seed 000", Basis: rulebook.Quality,
			Text:      "QMPI_Register_function and QMPI_Get_function with an enum value out of range (-1, MPI_LAST_FUNC_T) return an error code, write nothing and do not crash",
			Injectors: []string{"inject_qmpi_drop_error"},
			Exposure:  bad1Exposure.Declared(), Judge: judgeBad(bad1Exposure, "enum_below", "enum_last")},
		// seed 000: tool_id is the identifier handed to the init callback.
		{ID: "QMPI-BAD-02", Source: "seed 000", Basis: rulebook.Quality,
			Text:      "every QMPI routine that takes a tool id refuses ids never handed out (0, 12345, -1) with an error code, without a crash or a change to another tool's or MPI's entries",
			Injectors: []string{"inject_qmpi_drop_error"},
			Exposure:  bad2Exposure.Declared(), Judge: judgeBad(bad2Exposure, "id_zero", "id_unknown", "id_negative")},
		// seed 000: tool_name "needs to match the one provided in the
		// environment variable".
		{ID: "QMPI-BAD-03", Source: "seed 000", Basis: rulebook.Quality,
			Text:      "QMPI_Register_tool_name with a name not in the tool list returns an error code (or registers nothing and says so), never a silent success",
			Injectors: []string{"inject_qmpi_drop_error"},
			Exposure:  bad3Exposure.Declared(), Judge: judgeBad(bad3Exposure, "unlisted")},
		{ID: "QMPI-BAD-04", Source: "seed 000", Basis: rulebook.Quality,
			Text: "a tool named in the tool list that is never loaded (it never registers) does not crash MPI initialization",

			Exposure: bad4Exposure.Declared(), Judge: judgeBad(bad4Exposure, "listed_not_loaded")},
		{ID: "QMPI-BAD-05", Source: "seed 000", Basis: rulebook.Quality,
			Text:      "QMPI registration calls made after MPI_Finalize returned (name, storage, function) return an error code and do not crash",
			Injectors: []string{"inject_qmpi_drop_error"},
			Exposure:  bad5Exposure.Declared(), Judge: judgeBad(bad5Exposure, "after_finalize")},
		{ID: "QMPI-BAD-X1", Source: "seed 000", Basis: rulebook.Quality,
			Text: "odd tool lists (a trailing ':', a 300-character name) give a working stack or an error code, never a success followed by a crash",

			Exposure: badX1Exposure.Declared(), Judge: judgeBad(badX1Exposure, "trailing_colon", "long_name")},
	},
})

// Each case is a job of its own that could have crashed; the calls with
// bad input that returned could each have said MPI_SUCCESS.
var (
	bad1Exposure  = rulebook.Exposure[badCase]{Items: "bad-input cases (a job each)"}
	bad2Exposure  = rulebook.Exposure[badCase]{Items: "bad-input cases (a job each)"}
	bad3Exposure  = rulebook.Exposure[badCase]{Items: "bad-input cases (a job each)"}
	bad4Exposure  = rulebook.Exposure[badCase]{Items: "bad-input cases (a job each)"}
	bad5Exposure  = rulebook.Exposure[badCase]{Items: "bad-input cases (a job each)"}
	badX1Exposure = rulebook.Exposure[badCase]{Items: "bad-input cases (a job each)"}
)

type badCase struct {
	name    string
	list    string
	toolAs  string // the name the tool registers (default "bad")
	explain string
}

func badCases() []badCase {
	long := strings.Repeat("n", 300)
	return []badCase{
		{name: "unlisted", list: "bad", explain: "registering a name not in the tool list"},
		{name: "enum_below", list: "bad", explain: "QMPI_Register_function / QMPI_Get_function with enum value -1"},
		{name: "enum_last", list: "bad", explain: "QMPI_Register_function / QMPI_Get_function with MPI_LAST_FUNC_T"},
		{name: "id_zero", list: "bad", explain: "tool id 0 (never handed out)"},
		{name: "id_unknown", list: "bad", explain: "tool id 12345 (never handed out)"},
		{name: "id_negative", list: "bad", explain: "tool id -1"},
		{name: "listed_not_loaded", list: "bad:ghost", explain: "a tool listed (ghost) but never loaded"},
		{name: "trailing_colon", list: "bad:", explain: "a tool list with a trailing ':'"},
		{name: "long_name", list: long, toolAs: long, explain: "a 300-character tool name (listed and registered)"},
		{name: "after_finalize", list: "bad", explain: "QMPI calls after MPI_Finalize"},
	}
}

type badCall struct {
	Call string `json:"call"`
	RC   int    `json:"rc"`
}

type badCheck struct {
	What   string `json:"what"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// postCallWork are calls a Finalize hook may make with its own context
// after the inner MPI_Finalize returned: not bad input.
var postCallWork = map[string]bool{
	"QMPI_Get_function(id, MPI_BARRIER_T)": true,
	"QMPI_Get_tool_storage(context, id)":   true,
	"QMPI_Get_calling_address(context)":    true,
}

// judgeBad runs the named cases, each in a job of its own, and passes
// through the rule's exposure e.
func judgeBad(e rulebook.Exposure[badCase], names ...string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		want := map[string]bool{}
		for _, n := range names {
			want[n] = true
		}
		var problems, evidence, fine []string
		var cases []badCase
		calls := 0
		for _, c := range badCases() {
			if !want[c.name] {
				continue
			}
			mine, ev, n := runBadCase(x, c)
			cases = append(cases, c)
			calls += n
			problems = append(problems, mine...)
			if ev != "" {
				evidence = append(evidence, ev)
			}
			if len(mine) == 0 {
				fine = append(fine, c.explain)
			}
		}
		x.FailOn(problems, strings.Join(evidence, "\n"))
		return e.Pass(cases, "error codes (%d calls with bad input refused; for list shapes, a working stack), no crash: %s", calls, strings.Join(fine, "; "))
	}
}

// calls is how many calls with bad input returned and were judged.
func runBadCase(x *rulebook.X, c badCase) (mine []string, evidence string, calls int) {
	env := map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": c.list, "MPITS_QMPI_BAD_CASE": c.name}
	if c.toolAs != "" {
		env["MPITS_QMPI_BAD_NAME"] = c.toolAs
	}
	res, recs, recErr := x.LaunchOnce(mpi.Job{
		Name: "qmpi_app_layer bad input " + c.name, Ranks: 1, Program: x.Fixture("qmpi_app_layer"), Args: []string{"init", "1"},
		RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_bad")}, Env: env,
	})
	add := func(format string, args ...any) {
		mine = append(mine, fmt.Sprintf("%s (%s): ", c.explain, c.name)+fmt.Sprintf(format, args...))
	}
	text := ""
	if recs != nil {
		text = recordsText(recs)
	}
	if !res.OK() {
		at := ""
		if recs != nil {
			at = crashPoint(recs)
		}
		add("%s%s", res.Problem(), at)
		evidence = fmt.Sprintf("== %s\n%s\n%s", c.name, text, res.Evidence())
	} else if recErr != nil {
		x.Errorf(res.Evidence(), "%v", recErr)
	}
	if recs != nil {
		for _, b := range mpi.Decode[badCall](recs, "bad_call") {
			if c.name == "after_finalize" && postCallWork[b.Call] {
				continue
			}
			calls++
			if b.RC == 0 {
				add("%s returned MPI_SUCCESS", b.Call)
			}
		}
		for _, b := range mpi.Decode[badCheck](recs, "bad_check") {
			if !b.OK {
				add("%s: no (%s)", b.What, b.Detail)
			}
		}
		if len(recs.Kind("marker_called", -1)) > 0 {
			add("a function registered under a bad id or enum value was called")
		}
		if len(recs.Kind("unlisted_init", -1)) > 0 || len(recs.Kind("late_init", -1)) > 0 {
			add("an init callback ran for a name that was not listed")
		}
		if res.OK() {
			judgeListShape(x, c, recs, add)
		}
	}
	if len(mine) > 0 && res.OK() {
		evidence = fmt.Sprintf("== %s\n%s", c.name, text)
	}
	return mine, evidence, calls
}

// judgeListShape checks the cases made by the tool list itself.
func judgeListShape(x *rulebook.X, c badCase, recs *mpi.Records, add func(string, ...any)) {
	type reg struct {
		RC int `json:"rc"`
	}
	regs := mpi.Decode[reg](recs, "bad_register")
	inits := len(recs.Kind("bad_init", -1))
	hooks := len(recs.Kind("bad_hook", -1))
	apps := mpi.Decode[appInit](recs, "app_init_returned")
	regRC, initRC := -1, -1
	if len(regs) > 0 {
		regRC = regs[0].RC
	}
	if len(apps) > 0 {
		initRC = apps[0].RC
	}
	works := inits == 1 && hooks == 1
	switch c.name {
	case "long_name":
		if regRC == 0 && !works {
			add("QMPI_Register_tool_name returned MPI_SUCCESS, yet the tool got %d init callbacks and saw %d of 1 MPI_Barrier", inits, hooks)
		}
	case "trailing_colon", "listed_not_loaded":
		if regRC == 0 && initRC == 0 && !works {
			add("MPI_Init returned MPI_SUCCESS, yet the loaded tool got %d init callbacks and saw %d of 1 MPI_Barrier", inits, hooks)
		}
	}
}

// crashPoint names where a job died: in the bad call under way (recorded
// before it was made and not after), or in MPI_Init.
func crashPoint(recs *mpi.Records) string {
	pending := ""
	for _, r := range recs.All {
		var b badCall
		switch r.Kind {
		case "bad_calling":
			if r.Decode(&b) == nil {
				pending = b.Call
			}
		case "bad_call":
			pending = ""
		}
	}
	switch {
	case pending != "":
		return " inside " + pending
	case len(recs.Kind("app_init_returned", -1)) == 0:
		return " inside MPI_Init"
	}
	return ""
}
