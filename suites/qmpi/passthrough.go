package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// Seed 001, "Tools Responsibilities": "Routines not implemented are handled
// by MPI - Automatically set to a 'follow-on' routine"; seed 000: a tool
// registers only "any MPI functions it plans to intercept" and
// QMPI_Get_function gives "the next tool in the QMPI stack". So a function a
// tool does not register goes on to the next tool that does, and MPI runs it
// exactly once.
var passThrough = harness.Define(harness.Check{
	ID:        "QMPI-PASS-001",
	Clause:    "seed:001",
	Needs:     "qmpi",
	Title:     "a function a tool does not register reaches the next tool that does, and MPI, exactly once (stacks where each tool registers a different subset)",
	Injectors: []string{"inject_qmpi_call_twice"},
	Run:       runPassThrough,
})

// passStack is a stack and the functions each name registers.
type passStack struct {
	list  string
	funcs map[string][]string // name → functions ("none": nothing)
}

var passStacks = []passStack{
	{"L0:L1:L2:L3", map[string][]string{
		"L0": {"send", "barrier", "init", "finalize"},
		"L1": {},
		"L2": {"allreduce", "comm_rank", "barrier"},
		"L3": {"send", "recv", "comm_rank"},
	}},
	{"L0:L1:L2", map[string][]string{"L0": {}, "L1": {"send", "recv"}, "L2": {}}},
	{"L0:L1", map[string][]string{"L0": {}, "L1": {}}},
}

func (p passStack) spec() string {
	var parts []string
	for _, n := range listNames(p.list) {
		fs := strings.Join(p.funcs[n], ",")
		if fs == "" {
			fs = "none"
		}
		parts = append(parts, n+"="+fs)
	}
	return strings.Join(parts, ";")
}

// registrants are the names, in list order, that register fn.
func (p passStack) registrants(fn string) []string {
	var out []string
	for _, n := range listNames(p.list) {
		for _, f := range p.funcs[n] {
			if f == fn {
				out = append(out, n)
			}
		}
	}
	return out
}

func runPassThrough(x *harness.X) harness.Verdict {
	requireQMPI(x)
	const sends = 3
	for _, p := range passStacks {
		ranks := runLayer(x, layerRun{List: p.list, Funcs: p.spec(), Trace: "send,recv,allreduce,comm_rank", Args: []string{"init", fmt.Sprint(sends)}})
		for _, r := range ranks {
			ev := r.evidence()
			// MPI did the work once: no duplicate message, the sum not doubled.
			if r.Result.ExtraMessages != 0 || (r.Rank == 1 && r.Result.Received != sends) {
				x.Failf(ev, "%s (%s): rank %d received %d messages for %d sends: MPI_Send did not reach MPI exactly once", p.list, p.spec(), r.Rank, r.Result.Received, sends)
			}
			if r.Result.Sum != r.Result.WantSum {
				x.Failf(ev, "%s (%s): rank %d: in-place MPI_Allreduce gave %d, want %d: it did not reach MPI exactly once", p.list, p.spec(), r.Rank, r.Result.Sum, r.Result.WantSum)
			}
			for _, in := range r.Inits {
				s := r.summaryOf(in.Tool)
				if s == nil {
					x.Failf(ev, "rank %d: no summary for instance %d", r.Rank, in.Tool)
				}
				for _, fn := range layerFns {
					want := int64(0)
					for _, f := range p.funcs[in.Name] {
						if f == fn {
							want = r.Calls.Calls[fn]
						}
					}
					if s.Calls[fn] != want {
						x.Failf(ev, "%s (%s): rank %d: %s saw %d MPI_%s calls, want %d (the application made %d)", p.list, p.spec(), r.Rank, in.Name, s.Calls[fn], fnTitle(fn), want, r.Calls.Calls[fn])
					}
				}
			}
			for _, fn := range []string{"send", "recv", "allreduce", "comm_rank"} {
				got := sequence(r, fn)
				want := nested(p.registrants(fn), int(r.Calls.Calls[fn]))
				if len(p.registrants(fn)) == 0 {
					want = nil // no tool traces it: MPI is reached unseen
				}
				if d := firstDiff(got, want); d != "" {
					x.Failf(ev, "%s (%s): rank %d, MPI_%s: %s (got %s)", p.list, p.spec(), r.Rank, fnTitle(fn), d, strings.Join(head(got, 12), " "))
				}
			}
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("3 stacks (%s): every registering tool saw each call once, the others none, and MPI did each once", passStacks[0].spec())}
}
