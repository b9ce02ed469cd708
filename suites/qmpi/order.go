package qmpi

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 001, "Step 3: Magic": the listed tools "are nested": Tool 1/top,
// Tool 2/top, PMPI routine, Tool 2/bottom, Tool 1/bottom; seed 000: the
// list gives "the tool order". Both rules judge the same 12 runs: the 6
// orders of L0:L1:L2 and stacks of 1 to 32 instances.
var stackOrder = rulebook.Define(rulebook.Check{
	ID:    "QMPI-ORDER",
	Needs: "qmpi",
	Title: "tools nest in list order (A-pre, B-pre, C-pre, MPI, C-post, B-post, A-post) for all 6 orders of three tools and for stacks of 1, 2, 4, 8, 16 and 32 instances; the order of the init callbacks is reported",
	Rules: []rulebook.Rule{
		// seed 000: "The tool_name provided needs to match the one provided
		// in the environment variable describing the tool order"; seed 001,
		// "Step 3: Magic": "These tools are nested: Tool 1 / top, Tool 2 /
		// top, PMPI Routine, Tool 2 / bottom, Tool 1 / bottom".
		{ID: "QMPI-ORDER-01", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "instances nest in tool-list order: the first listed does its pre-call work first and its post-call work last (A-pre, B-pre, C-pre, MPI, C-post, B-post, A-post)",
			Injectors: []string{"inject_qmpi_reverse", "inject_qmpi_skip_next"},
			Exposure:  order1Exposure.Declared(), Judge: judgeStackOrder},
		// seed 001, "Step 2: Tool Initialization": "MPI calls
		// initialization routines - Arbitrary order"; "Step 4": "Each tool
		// gets initialized in reverse order". Seed 000 fixes no order.
		{ID: "QMPI-ORDER-02", Source: "seed 001", Basis: rulebook.Interpretation,
			Text:     "the order of the init callbacks is not fixed (arbitrary in step 2, reverse in step 4 of seed 001): which order the library uses, never taken as the stack order",
			Exposure: order2Exposure.Declared(), Judge: judgeInitOrder},
	},
})

const orderSends = 2 // plus app_layer's end marker

var (
	// Each sequence could have come in another order (for one instance:
	// its post-call work before MPI, or none).
	order1Exposure = rulebook.Exposure[callCount]{Items: "call sequences (per stack and rank)"}
	// An interpretation is reported, never failed: what it exercised is
	// the runs whose init order could have shown any of the readings (two
	// or more instances), the only ones judged.
	order2Exposure = rulebook.Exposure[initOrderRun]{Items: "runs of two or more instances"}
)

// initOrderRun is one rank of one stack's run, as its init order was read.
type initOrderRun string

func orderLists() []string {
	lists := []string{"L0:L1:L2", "L0:L2:L1", "L1:L0:L2", "L1:L2:L0", "L2:L0:L1", "L2:L1:L0"}
	for _, n := range []int{1, 2, 4, 8, 16, 32} {
		lists = append(lists, stackList(n))
	}
	return lists
}

func orderRun(x *rulebook.X, list string) []*layerRank {
	return runLayer(x, layerRun{List: list, Trace: "send,recv", Args: []string{"init", fmt.Sprint(orderSends)}})
}

func judgeStackOrder(x *rulebook.X) verdict.Verdict {
	lists := orderLists()
	var f rulebook.Problems
	var judged []callCount // call sequences compared, one per stack and rank
	for _, list := range lists {
		names := listNames(list)
		for _, r := range orderRun(x, list) {
			fn := map[int]string{0: "send", 1: "recv"}[r.Rank]
			judged = append(judged, callCount{rank: r.Rank, counter: list + " sequence", fn: fn, made: r.Calls.Calls[fn]})
			got, want := sequence(r, fn), nested(names, orderSends+1)
			if d := firstDiff(got, want); d != "" {
				f.Add(r.evidence(), "%s, rank %d, MPI_%s: %s (first call: got %s; want %s)", summarizeList(list), r.Rank, fnTitle(fn), d,
					strings.Join(head(got, 2*len(names)+1), " "), strings.Join(head(want, 2*len(names)+1), " "))
			}
		}
	}
	f.FailOn(x)
	return order1Exposure.Pass(judged, "pre/MPI/post work nested in list order for %d stacks (6 orders of L0:L1:L2; 1 to 32 instances), MPI_Send and MPI_Recv", len(lists))
}

// judgeInitOrder reports the order of the init callbacks against the list.
func judgeInitOrder(x *rulebook.X) verdict.Verdict {
	seen := map[string][]initOrderRun{}
	for _, list := range orderLists() {
		names := listNames(list)
		if len(names) < 2 {
			continue
		}
		for _, r := range orderRun(x, list) {
			inits := append([]layerInit{}, r.Inits...)
			sort.SliceStable(inits, func(i, j int) bool { return inits[i].Order < inits[j].Order })
			var got []string
			for _, in := range inits {
				got = append(got, in.Name)
			}
			rev := append([]string{}, names...)
			slices.Reverse(rev)
			reading := "neither list nor reverse list order"
			switch {
			case slices.Equal(got, names):
				reading = "list order"
			case slices.Equal(got, rev):
				reading = "reverse list order"
			}
			seen[reading] = append(seen[reading], initOrderRun(fmt.Sprintf("%s rank %d", summarizeList(list), r.Rank)))
		}
	}
	if len(seen) == 0 {
		x.Unsupported("not measurable here: no stack of two or more instances ran")
	}
	var parts []string
	var runs []initOrderRun
	for _, reading := range []string{"list order", "reverse list order", "neither list nor reverse list order"} {
		if r := seen[reading]; len(r) > 0 {
			parts = append(parts, fmt.Sprintf("%s in %d runs (e.g. %s)", reading, len(r), r[0]))
			runs = append(runs, r...)
		}
	}
	return order2Exposure.Pass(runs, "init callbacks came in %s; the stack order is judged from the calls only (QMPI-ORDER-01)", strings.Join(parts, "; "))
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
