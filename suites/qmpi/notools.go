package qmpi

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
)

// Seed 001, "Requirements": "Low to no overhead when no tool is attached -
// Possibility for zero overhead when disabled"; seed 000: a tool is
// inserted only when listed. So with QMPI compiled in and no tool listed,
// MPI behaves as without QMPI and a loaded tool is never initialized (the
// other suites run this way: they list no tool). Where QMPI is compiled out
// but its symbols remain, every QMPI_* call must answer an error code
// (MPI-4.1 §2.8), never act; the reason states the code.
var noTools = harness.Define(harness.Check{
	ID:        "QMPI-NOTOOLS-001",
	Clause:    "seed:001",
	Needs:     "qmpi",
	Title:     "with QMPI compiled in and no tool listed MPI works as without QMPI and no tool is initialized; where QMPI is compiled out every QMPI_* call returns an error code",
	Injectors: []string{"inject_qmpi_not_idle"},
	Run:       runNoTools,
})

func runNoTools(x *harness.X) harness.Verdict {
	switch {
	case x.Caps.QMPI.Works:
		return noToolsListed(x)
	case x.Caps.QMPI.RC > 0:
		return compiledOut(x)
	}
	x.Unsupported("%s", x.Caps.QMPI.Reason)
	return harness.Verdict{}
}

// noToolsListed compares app_layer alone with app_layer under a preloaded
// but unlisted tool (tool_send.c, which registers "t" unconditionally).
func noToolsListed(x *harness.X) harness.Verdict {
	bare := runLayer(x, layerRun{Name: "qmpi_app_layer without tools", NoTool: true, NoList: true, Args: []string{"init", "3"}})
	loaded := runLayer(x, layerRun{Name: "qmpi_app_layer with an unlisted tool", NoTool: true, NoList: true, Args: []string{"init", "3"},
		Preload: []string{x.Fixture("qmpi_tool_send")}})
	registerRC := "no answer recorded"
	for i, r := range loaded {
		ev := r.evidence()
		b := bare[i]
		if b.Result.Sum != b.Result.WantSum || b.Result.ExtraMessages != 0 || (r.Rank == 1 && b.Result.Received != 3) {
			x.Failf(b.evidence(), "rank %d without tools: sum %d (want %d), %d of 3 messages, %d extra", r.Rank, b.Result.Sum, b.Result.WantSum, b.Result.Received, b.Result.ExtraMessages)
		}
		if !reflect.DeepEqual(r.Result, b.Result) || !reflect.DeepEqual(r.Calls, b.Calls) || r.Init != b.Init {
			x.Failf(ev+"\n"+b.evidence(), "rank %d: with an unlisted tool loaded the application saw %+v %+v, without it %+v %+v", r.Rank, r.Result, r.Calls, b.Result, b.Calls)
		}
		var acted []string
		for _, line := range r.Raw {
			for _, k := range []string{`"kind":"init"`, `"kind":"pre"`, `"kind":"post"`} {
				if strings.Contains(line, k) {
					acted = append(acted, line)
				}
			}
			if m := registerRCRe.FindStringSubmatch(line); m != nil {
				registerRC = "QMPI_Register_tool_name returned " + m[1]
			}
		}
		if len(acted) > 0 {
			x.Failf(ev, "rank %d: no tool is listed, yet the loaded tool was initialized or intercepted calls: %s", r.Rank, acted[0])
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("no tool listed: results and call counts identical with and without a loaded tool, which was never initialized (%s); the other suites list no tool, so their verdicts here are those of QMPI compiled in and idle", registerRC)}
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

// compiledOut calls every QMPI entry point where the probe found the
// symbols but registration refused.
func compiledOut(x *harness.X) harness.Verdict {
	_, recs := x.Job(harness.Job{Name: "qmpi_app_stub_calls", Ranks: 1, Program: x.Fixture("qmpi_app_stub_calls")})
	ev := recordsText(recs)
	calls := decodeAll[stubCall](x, recs, "stub_call")
	if len(calls) != 12 {
		x.Failf(ev, "want 12 QMPI calls recorded (6 before and 6 after MPI_Init), got %d", len(calls))
	}
	if len(recs.Kind("stub_init_called", -1)) > 0 {
		x.Failf(ev, "QMPI is compiled out, yet a registered init callback was called")
	}
	codes := map[int][]string{}
	for _, c := range calls {
		if c.RC == 0 {
			x.Failf(ev, "QMPI is compiled out (QMPI_Register_tool_name answered %d to the capability probe), yet %s %s returned MPI_SUCCESS", x.Caps.QMPI.RC, c.Call, c.When)
		}
		codes[c.RC] = append(codes[c.RC], c.Call)
	}
	words := map[int]string{}
	for _, e := range decodeAll[errString](x, recs, "error_string") {
		words[e.Code] = strings.TrimSpace(e.String)
	}
	var parts []string
	for code := range codes {
		parts = append(parts, fmt.Sprintf("%d (%q)", code, words[code]))
	}
	sort.Strings(parts)
	return harness.Verdict{Reason: fmt.Sprintf("QMPI compiled out: all 6 QMPI_* entry points, before and after MPI_Init, return error code %s", strings.Join(parts, ", "))}
}
