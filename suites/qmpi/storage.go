package qmpi

import (
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 000, "Registration" and "Interception": the storage of each
// instance. Both rules judge one run of L0:L1:L2:L3 under
// MPI_THREAD_MULTIPLE (4 threads × 1000 MPI_Comm_rank per rank).
var instanceStorage = rulebook.Define(rulebook.Check{
	ID:    "QMPI-STORAGE",
	Needs: "qmpi",
	Title: "for every instance and every intercepted call, from 4 threads too, QMPI_Get_tool_storage returns exactly the pointer that instance registered",
	Rules: []rulebook.Rule{
		// seed 000: QMPI_Context_get_storage: "Get the back storage object
		// the tool provided to QMPI_Register_tool_storage that matches
		// tool_id."
		{ID: "QMPI-STOR-01", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "on every intercepted call of every instance, QMPI_Get_tool_storage succeeds and returns exactly the pointer that instance registered",
			Injectors: []string{"inject_qmpi_swap_storage"},
			Exposure:  storage1Exposure.Declared(), Judge: judgeStorage(false)},
		// seed 000: the storage lets the tool "store information specific to
		// its instance of itself"; seed 001: "Instances have their own
		// context - Instances don't share context".
		{ID: "QMPI-STOR-02", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "with 4 threads calling concurrently, each instance's calls reach it with its own storage: every instance counts exactly the application's calls of every thread, with the right storage on each",
			Injectors: []string{"inject_qmpi_swap_storage", "inject_qmpi_call_twice"},
			Exposure:  storage2Exposure.Declared(), Judge: judgeStorage(true)},
	},
})

const storageList = "L0:L1:L2:L3"

// On each intercepted call the instance's storage could have been
// another's (four instances, four pointers); with threads, the call could
// also have been missed or counted twice.
var (
	storage1Exposure = rulebook.Exposure[interceptedCall]{Items: "intercepted calls"}
	storage2Exposure = rulebook.Exposure[interceptedCall]{Items: "intercepted calls"}
)

func judgeStorage(threads bool) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		ranks := runLayer(x, layerRun{List: storageList, Trace: "none", Args: []string{"thread", "3", "4", "1000"}})
		var f rulebook.Problems
		var checked []interceptedCall
		for _, r := range ranks {
			ev := r.evidence()
			if threads {
				requireMultiple(x, r)
			}
			if len(r.Inits) != len(listNames(storageList)) {
				f.Add(ev, "rank %d: %d init callbacks for %s", r.Rank, len(r.Inits), storageList)
			}
			seen := map[string]int{}
			for _, in := range r.Inits {
				if other, dup := seen[in.Storage]; dup {
					x.Errorf(ev, "rank %d: instances %d and %d registered the same storage %s (fixture fault)", r.Rank, other, in.Tool, in.Storage)
				}
				seen[in.Storage] = in.Tool
				s := r.summaryOf(in.Tool)
				if s == nil {
					f.Add(ev, "rank %d: no summary for instance %d", r.Rank, in.Tool)
					continue
				}
				if s.BadStorage != 0 {
					f.Add(ev, "rank %d: instance %d (%s, storage %s): QMPI_Get_tool_storage gave another pointer (or an error) on %d calls", r.Rank, in.Tool, in.Name, in.Storage, s.BadStorage)
				}
				for _, fn := range layerFns {
					if threads && s.Calls[fn] != r.Calls.Calls[fn] {
						f.Add(ev, "rank %d: instance %d saw %d MPI_%s calls, the application made %d", r.Rank, in.Tool, s.Calls[fn], fnTitle(fn), r.Calls.Calls[fn])
					}
					checked = append(checked, interceptedCalls(r.Rank, in.Tool, fn, s.Calls[fn])...)
				}
			}
		}
		f.FailOn(x)
		if threads {
			return storage2Exposure.Pass(checked, "%s on 2 ranks, 4 threads × 1000 MPI_Comm_rank: every instance counted every call, with its own storage on all %d", storageList, len(checked))
		}
		return storage1Exposure.Pass(checked, "%s on 2 ranks: QMPI_Get_tool_storage gave each instance its own pointer on all %d intercepted calls", storageList, len(checked))
	}
}

// requireMultiple ends the rule unsupported when MPI_THREAD_MULTIPLE was
// not provided (the threads are then not started).
func requireMultiple(x *rulebook.X, r *layerRank) {
	if r.Init.Provided != r.Init.Multiple {
		x.Unsupported("not measurable here: MPI_Init_thread(MPI_THREAD_MULTIPLE) provided %d (rank %d)", r.Init.Provided, r.Rank)
	}
}
