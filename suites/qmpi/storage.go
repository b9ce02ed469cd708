package qmpi

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// Seed 000, "Registration" and "Interception": QMPI_Register_tool_storage
// stores "information specific to its instance"; the storage query gives
// "the back storage object the tool provided ... that matches tool_id".
var instanceStorage = harness.Define(harness.Check{
	ID:        "QMPI-STORAGE-001",
	Clause:    "seed:000",
	Needs:     "qmpi",
	Title:     "for every instance and every intercepted call, from 4 threads too, QMPI_Get_tool_storage returns exactly the pointer that instance registered",
	Injectors: []string{"inject_qmpi_swap_storage"},
	Run:       runInstanceStorage,
})

const storageList = "L0:L1:L2:L3"

func runInstanceStorage(x *harness.X) harness.Verdict {
	requireQMPI(x)
	ranks := runLayer(x, layerRun{List: storageList, Trace: "none", Args: []string{"thread", "3", "4", "1000"}})
	var checked int64
	for _, r := range ranks {
		ev := r.evidence()
		requireMultiple(x, r)
		if len(r.Inits) != len(listNames(storageList)) {
			x.Failf(ev, "rank %d: %d init callbacks for %s", r.Rank, len(r.Inits), storageList)
		}
		seen := map[string]int{}
		for _, in := range r.Inits {
			if other, dup := seen[in.Storage]; dup {
				x.Failf(ev, "rank %d: instances %d and %d registered the same storage %s (fixture fault)", r.Rank, other, in.Tool, in.Storage)
			}
			seen[in.Storage] = in.Tool
			s := r.summaryOf(in.Tool)
			if s == nil {
				x.Failf(ev, "rank %d: no summary for instance %d", r.Rank, in.Tool)
			}
			if s.BadStorage != 0 {
				x.Failf(ev, "rank %d: instance %d (%s, storage %s): QMPI_Get_tool_storage gave another pointer (or an error) on %d calls", r.Rank, in.Tool, in.Name, in.Storage, s.BadStorage)
			}
			for _, fn := range layerFns {
				if s.Calls[fn] != r.Calls.Calls[fn] {
					x.Failf(ev, "rank %d: instance %d saw %d MPI_%s calls, the application made %d", r.Rank, in.Tool, s.Calls[fn], fnTitle(fn), r.Calls.Calls[fn])
				}
				checked += s.Calls[fn]
			}
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("%s on 2 ranks, 4 threads: QMPI_Get_tool_storage gave each instance its own pointer on all %d intercepted calls", storageList, checked)}
}

// requireMultiple ends the check unsupported when MPI_THREAD_MULTIPLE was
// not provided (the threads are then not started).
func requireMultiple(x *harness.X, r *layerRank) {
	if r.Init.Provided != r.Init.Multiple {
		x.Unsupported("MPI_Init_thread(MPI_THREAD_MULTIPLE) provided %d (rank %d)", r.Init.Provided, r.Rank)
	}
}
