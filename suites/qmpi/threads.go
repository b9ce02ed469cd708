package qmpi

import (
	"fmt"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 001, "Requirements": "Integration with MPI thread support". One run
// of L0:L1 under MPI_THREAD_MULTIPLE, 4 threads × 10,000 MPI_Comm_rank.
var threadedStack = rulebook.Define(rulebook.Check{
	ID:    "QMPI-THREADS",
	Needs: "qmpi",
	Title: "under MPI_THREAD_MULTIPLE, 4 threads × 10,000 MPI_Comm_rank calls through a 2-tool stack: exact counts, right storage, right results, no crash",
	Rules: []rulebook.Rule{
		// seed 001, "Requirements": "Integration with MPI thread support".
		{ID: "QMPI-THR-01", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "under MPI_THREAD_MULTIPLE, with 4 threads calling MPI_Comm_rank through L0:L1, every call gives the right rank and is seen exactly once by each instance, with its own storage and id",
			Injectors: []string{"inject_qmpi_call_twice", "inject_qmpi_swap_storage"},
			Exposure:  threadsExposure.Declared(), Judge: judgeThreads},
	},
})

const (
	threadCount = 4
	threadCalls = 10000
)

// threadsExposure: every call an instance intercepted was counted and
// storage-checked, and could have been missed, doubled or given another's
// storage.
var threadsExposure = rulebook.Exposure[interceptedCall]{Items: "intercepted calls"}

// interceptedCall is one call an instance intercepted (its summary counts
// them per function).
type interceptedCall struct {
	rank, tool int
	fn         string
}

// interceptedCalls is one item per call a summary counted of fn (none for
// a count below zero, which only a broken summary gives).
func interceptedCalls(rank, tool int, fn string, n int64) []interceptedCall {
	calls := make([]interceptedCall, max(n, 0))
	for i := range calls {
		calls[i] = interceptedCall{rank, tool, fn}
	}
	return calls
}

func judgeThreads(x *rulebook.X) verdict.Verdict {
	ranks := runLayer(x, layerRun{List: "L0:L1", Trace: "none", Args: []string{"thread", "3", fmt.Sprint(threadCount), fmt.Sprint(threadCalls)}})
	var f rulebook.Problems
	var seen []interceptedCall // the calls the instances intercepted, counted and storage-checked
	for _, r := range ranks {
		ev := r.evidence()
		requireMultiple(x, r)
		if want := int64(threadCount*threadCalls + 1); r.Result.Threads == threadCount && r.Calls.Calls["comm_rank"] != want {
			x.Errorf(ev, "rank %d: the application counted %d MPI_Comm_rank calls, want %d (fixture fault)", r.Rank, r.Calls.Calls["comm_rank"], want)
		}
		if r.Result.Threads != threadCount || r.Result.WrongRank != 0 {
			f.Add(ev, "rank %d: %d threads ran, %d MPI_Comm_rank calls gave a wrong rank or an error", r.Rank, r.Result.Threads, r.Result.WrongRank)
		}
		if len(r.Inits) != 2 {
			f.Add(ev, "rank %d: %d init callbacks for L0:L1", r.Rank, len(r.Inits))
		}
		for _, in := range r.Inits {
			s := r.summaryOf(in.Tool)
			if s == nil {
				f.Add(ev, "rank %d: no summary for instance %d", r.Rank, in.Tool)
				continue
			}
			for _, fn := range layerFns {
				seen = append(seen, interceptedCalls(r.Rank, in.Tool, fn, s.Calls[fn])...)
				if s.Calls[fn] != r.Calls.Calls[fn] {
					f.Add(ev, "rank %d: %s saw %d MPI_%s calls, the application made %d", r.Rank, in.Name, s.Calls[fn], fnTitle(fn), r.Calls.Calls[fn])
				}
			}
			if s.BadStorage != 0 || s.UnknownIDs != 0 {
				f.Add(ev, "rank %d: %s: %d calls with the wrong storage, %d with an unknown id", r.Rank, in.Name, s.BadStorage, s.UnknownIDs)
			}
		}
	}
	f.FailOn(x)
	return threadsExposure.Pass(seen, "L0:L1, %d threads × %d MPI_Comm_rank per rank: both instances counted exactly %d, storage right on every call", threadCount, threadCalls, threadCount*threadCalls+1)
}
