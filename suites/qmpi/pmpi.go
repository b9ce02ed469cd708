package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 001, "Issues": "Transition between PMPI and QMPI ... For a while
// this needs to be interoperable - PMPI is likely on top of the new
// infrastructure - In intercepts the actual MPI calls from the app"; seed
// 000 speaks of "both a PMPI and QMPI tool ... registered and active at the
// same time". Each must see every call exactly once; where the PMPI tool
// sits is reported, not judged.
var pmpiWithQMPI = rulebook.Define(rulebook.Check{
	ID:    "QMPI-PMPI",
	Needs: "qmpi",
	Title: "a classic PMPI tool and a 2-instance QMPI stack in one job each see every call exactly once, properly nested (the reason says where the PMPI tool sits)",
	Rules: []rulebook.Rule{
		// seed 001, "Requirements": "No loss of functionality compared to
		// existing PMPI"; "Issues": PMPI and QMPI "need to be interoperable".
		{ID: "QMPI-PMPI-01", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "a PMPI tool and a QMPI stack (L0:L1) in one job each see every MPI call exactly once, the PMPI tool nested at one fixed place in the stack (reported)",
			Injectors: []string{"inject_qmpi_skip_next"},
			Exposure:  pmpi1Exposure.Declared(), Judge: judgePMPIWithQMPI},
	},
})

// pmpi1Exposure: call counts per tool and function, and call sequences
// per function: those of a function the application called could have
// shown a missed, doubled or misplaced call.
var pmpi1Exposure = rulebook.Exposure[callCount]{Items: "call counts (per rank, tool and function) and call sequences (per rank and function)",
	When:  "when the application called the function (a count of zero calls may be right by doing nothing)",
	Could: func(c callCount) bool { return c.made > 0 }}

// callCount is one count (or sequence) a counter kept of a function's
// calls on a rank, beside the calls the application made.
type callCount struct {
	rank        int
	counter, fn string
	made        int64
}

func judgePMPIWithQMPI(x *rulebook.X) verdict.Verdict {
	const sends = 3
	qmpiNames := []string{"L0", "L1"}
	ranks := runLayer(x, layerRun{
		Name: "qmpi_app_layer with a PMPI tool", List: strings.Join(qmpiNames, ":"), Trace: "send,recv,allreduce",
		Args: []string{"init", fmt.Sprint(sends)}, Preload: []string{x.Fixture("qmpi_pmpi_tool")},
	})
	position := -1
	var f rulebook.Problems
	var judged []callCount
	for _, r := range ranks {
		ev := r.evidence()
		counters := r.Summaries
		if r.PMPI == nil {
			f.Add(ev, "rank %d: the PMPI tool wrote no summary", r.Rank)
		} else {
			counters = append([]layerSummary{*r.PMPI}, counters...)
		}
		if len(r.Summaries) != len(qmpiNames) {
			f.Add(ev, "rank %d: %d QMPI instances summarized, want %d", r.Rank, len(r.Summaries), len(qmpiNames))
		}
		for _, s := range counters {
			for _, fn := range layerFns {
				judged = append(judged, callCount{rank: r.Rank, counter: s.Name, fn: fn, made: r.Calls.Calls[fn]})
				if s.Calls[fn] != r.Calls.Calls[fn] {
					f.Add(ev, "rank %d: %s saw %d MPI_%s calls, the application made %d", r.Rank, s.Name, s.Calls[fn], fnTitle(fn), r.Calls.Calls[fn])
				}
			}
		}
		for _, fn := range []string{"send", "recv", "allreduce"} {
			calls := int(r.Calls.Calls[fn])
			got := sequence(r, fn)
			judged = append(judged, callCount{rank: r.Rank, counter: "sequence", fn: fn, made: r.Calls.Calls[fn]})
			if calls == 0 {
				if len(got) > 0 {
					f.Add(ev, "rank %d made no MPI_%s call, yet tools recorded %s", r.Rank, fnTitle(fn), strings.Join(head(got, 8), " "))
				}
				continue
			}
			found := -1
			for p := 0; p <= len(qmpiNames); p++ {
				names := append(append(append([]string{}, qmpiNames[:p]...), "PMPI"), qmpiNames[p:]...)
				if firstDiff(got, nested(names, calls)) == "" {
					found = p
				}
			}
			if found < 0 {
				f.Add(ev, "rank %d, MPI_%s: the PMPI tool and L0:L1 are not properly nested: %s", r.Rank, fnTitle(fn), strings.Join(head(got, 14), " "))
				continue
			}
			if position >= 0 && found != position {
				f.Add(ev, "rank %d, MPI_%s: the PMPI tool sits at position %d here, %d elsewhere", r.Rank, fnTitle(fn), found, position)
			}
			position = found
		}
	}
	f.FailOn(x)
	where := map[int]string{0: "outermost, above every QMPI tool (it intercepts the application's calls and its PMPI_ calls enter the QMPI stack)", 1: "between L0 and L1", 2: "innermost, below every QMPI tool"}[position]
	return pmpi1Exposure.Pass(judged, "PMPI tool and L0:L1 each saw every call once; the PMPI tool sits %s", where)
}
