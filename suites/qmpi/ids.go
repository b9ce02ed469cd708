package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 000, "Registration": ids are handed to the init callbacks and
// compared here only for equality (they "are not necessarily monotonically
// increasing"). Both rules judge the same two runs: L0:L0:L1:L0:L2 and 32
// instances.
var instanceIDs = rulebook.Define(rulebook.Check{
	ID:    "QMPI-IDS",
	Needs: "qmpi",
	Title: "every listed instance gets one id, all distinct, and its intercepted calls arrive with that id (ids are not assumed to increase)",
	Rules: []rulebook.Rule{
		// seed 000: "Each instance of the tool receives a unique tool_id.
		// These tool IDs are not necessarily monotonically increasing and
		// cannot be assumed to do so."
		{ID: "QMPI-REG-03", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "every listed instance (5, with one name thrice; and 32) gets an id, and no two get the same (ids are compared only for equality)",
			Injectors: []string{"inject_qmpi_same_id"},
			Exposure:  reg3Exposure.Declared(), Judge: judgeIDs(false)},
		// seed 000: "This function accepts the parameter tool_id as the
		// specific instance of a tool and should be matched with the one
		// returned by the callback function that the tool registered with MPI."
		{ID: "QMPI-IDS-X1", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "every intercepted call reaches each instance with the id its init callback was given: no call arrives with another id, and each instance sees all of the application's MPI_Comm_rank calls and its one MPI_Init",
			Injectors: []string{"inject_qmpi_same_id"},
			Exposure:  idsX1Exposure.Declared(), Judge: judgeIDs(true)},
	},
})

var idLists = []string{"L0:L0:L1:L0:L2", stackList(32)}

var (
	// Each id handed out could have been another instance's.
	reg3Exposure = rulebook.Exposure[toolInstance]{Items: "ids handed out (all ranks)"}
	// Each instance that reported could have seen calls under another id,
	// or missed some.
	idsX1Exposure = rulebook.Exposure[toolInstance]{Items: "tool instances (all ranks)"}
)

// toolInstance is one instance of a tool list on a rank, by its id.
type toolInstance struct {
	list       string
	rank, tool int
}

func judgeIDs(calls bool) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		var f rulebook.Problems
		var shown []string
		var judged []toolInstance // ids handed out (calls false), instances that reported (true)
		for _, list := range idLists {
			names := listNames(list)
			ranks := runLayer(x, layerRun{List: list, Trace: "none", Args: []string{"init", "1"}})
			for _, r := range ranks {
				ev := r.evidence()
				if !calls {
					if len(r.Inits) != len(names) {
						f.Add(ev, "rank %d: %d init callbacks for %d listed instances (%s)", r.Rank, len(r.Inits), len(names), summarizeList(list))
					}
					owner := map[int]string{}
					for _, in := range r.Inits {
						judged = append(judged, toolInstance{list, r.Rank, in.Tool})
						if prev, dup := owner[in.Tool]; dup {
							f.Add(ev, "rank %d: id %d was handed to two instances (%s and %s) of %s", r.Rank, in.Tool, prev, in.Name, summarizeList(list))
						}
						owner[in.Tool] = in.Name
					}
				} else {
					if len(r.Summaries) != len(names) {
						f.Add(ev, "rank %d: %d of the %d listed instances of %s reported their calls", r.Rank, len(r.Summaries), len(names), summarizeList(list))
					}
					// Each instance counts the calls that arrive with its own
					// id (tool_layer.c): per instance, not per id, so that two
					// instances given one id are told apart.
					if len(r.Summaries) > 0 && r.Summaries[0].UnknownIDs != 0 { // one count per process
						f.Add(ev, "rank %d: %d intercepted calls arrived with an id no init callback was given", r.Rank, r.Summaries[0].UnknownIDs)
					}
					for _, s := range r.Summaries {
						judged = append(judged, toolInstance{list, r.Rank, s.Tool})
						if s.Calls["comm_rank"] != r.Calls.Calls["comm_rank"] || s.Calls["init"] != 1 {
							f.Add(ev, "rank %d: instance %s (id %d) saw %d MPI_Comm_rank and %d MPI_Init calls under its id; the application made %d and 1", r.Rank, s.Name, s.Tool, s.Calls["comm_rank"], s.Calls["init"], r.Calls.Calls["comm_rank"])
						}
					}
				}
				if r.Rank == 0 {
					shown = append(shown, fmt.Sprintf("%d instances (%s): ids %s", len(names), summarizeList(list), summarizeIDs(idsInListOrder(r))))
				}
			}
		}
		f.FailOn(x)
		if calls {
			return idsX1Exposure.Pass(judged, "each instance's calls carry its own id: %s", strings.Join(shown, "; "))
		}
		return reg3Exposure.Pass(judged, "distinct ids: %s", strings.Join(shown, "; "))
	}
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
