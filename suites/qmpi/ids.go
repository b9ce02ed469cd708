package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// Seed 000, "Registration": "Each instance of the tool receives a unique
// tool_id. These tool IDs are not necessarily monotonically increasing and
// cannot be assumed to do so." The check compares ids only for equality.
var instanceIDs = harness.Define(harness.Check{
	ID:        "QMPI-IDS-001",
	Clause:    "seed:000",
	Needs:     "qmpi",
	Title:     "every listed instance gets one id, all distinct, and its intercepted calls arrive with that id (ids are not assumed to increase)",
	Injectors: []string{"inject_qmpi_same_id"},
	Run:       runInstanceIDs,
})

func runInstanceIDs(x *harness.X) harness.Verdict {
	requireQMPI(x)
	var shown []string
	for _, list := range []string{"L0:L0:L1:L0:L2", stackList(32)} {
		names := listNames(list)
		ranks := runLayer(x, layerRun{List: list, Trace: "none", Args: []string{"init", "1"}})
		for _, r := range ranks {
			ev := r.evidence()
			if len(r.Inits) != len(names) {
				x.Failf(ev, "rank %d: %d init callbacks for %d listed instances (%s)", r.Rank, len(r.Inits), len(names), list)
			}
			owner := map[int]string{}
			for _, in := range r.Inits {
				if prev, dup := owner[in.Tool]; dup {
					x.Failf(ev, "rank %d: id %d was handed to two instances (%s and %s) of %s", r.Rank, in.Tool, prev, in.Name, list)
				}
				owner[in.Tool] = in.Name
			}
			for _, in := range r.Inits {
				s := r.summaryOf(in.Tool)
				if s == nil {
					x.Failf(ev, "rank %d: no summary for instance %d", r.Rank, in.Tool)
				}
				if s.UnknownIDs != 0 {
					x.Failf(ev, "rank %d: %d intercepted calls arrived with an id no init callback was given", r.Rank, s.UnknownIDs)
				}
				if s.Calls["comm_rank"] != r.Calls.Calls["comm_rank"] || s.Calls["init"] != 1 {
					x.Failf(ev, "rank %d: instance %d (%s) saw %d MPI_Comm_rank and %d MPI_Init calls under its id; the application made %d and 1", r.Rank, in.Tool, in.Name, s.Calls["comm_rank"], s.Calls["init"], r.Calls.Calls["comm_rank"])
				}
			}
			if r.Rank == 0 {
				shown = append(shown, fmt.Sprintf("%d instances (%s): ids %s", len(names), summarizeList(list), summarizeIDs(idsInListOrder(r))))
			}
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("distinct ids, each instance's calls carry its own id: %s", strings.Join(shown, "; "))}
}

// idsInListOrder lists the ids in the order the init callbacks came.
func idsInListOrder(r *layerRank) []int {
	var ids []int
	for _, in := range r.Inits {
		ids = append(ids, in.Tool)
	}
	return ids
}

// summarizeIDs shows a few ids as they are, many as their range.
func summarizeIDs(ids []int) string {
	if len(ids) <= 8 {
		return fmt.Sprint(ids)
	}
	lo, hi := ids[0], ids[0]
	for _, id := range ids {
		lo, hi = min(lo, id), max(hi, id)
	}
	return fmt.Sprintf("%d distinct, from %d to %d", len(ids), lo, hi)
}

func summarizeList(list string) string {
	if len(list) > 20 {
		return list[:8] + "…" + list[len(list)-8:]
	}
	return list
}
