package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// Seed 001, "Step 3: Magic": the listed tools "are nested": Tool 1/top,
// Tool 2/top, PMPI routine, Tool 2/bottom, Tool 1/bottom; seed 000: the
// list gives "the tool order". So A:B:C runs A-pre, B-pre, C-pre, MPI,
// C-post, B-post, A-post.
var stackOrder = harness.Define(harness.Check{
	ID:        "QMPI-ORDER-001",
	Clause:    "seed:001",
	Needs:     "qmpi",
	Title:     "tools nest in list order (A-pre, B-pre, C-pre, MPI, C-post, B-post, A-post) for all 6 orders of three tools and for stacks of 1, 2, 4, 8, 16 and 32 instances",
	Injectors: []string{"inject_qmpi_reverse", "inject_qmpi_skip_next"},
	Run:       runStackOrder,
})

const orderSends = 2 // plus app_layer's end marker

func orderLists() []string {
	lists := []string{"L0:L1:L2", "L0:L2:L1", "L1:L0:L2", "L1:L2:L0", "L2:L0:L1", "L2:L1:L0"}
	for _, n := range []int{1, 2, 4, 8, 16, 32} {
		lists = append(lists, stackList(n))
	}
	return lists
}

func runStackOrder(x *harness.X) harness.Verdict {
	requireQMPI(x)
	lists := orderLists()
	for _, list := range lists {
		names := listNames(list)
		ranks := runLayer(x, layerRun{List: list, Trace: "send,recv", Args: []string{"init", fmt.Sprint(orderSends)}})
		for _, r := range ranks {
			fn := map[int]string{0: "send", 1: "recv"}[r.Rank]
			got, want := sequence(r, fn), nested(names, orderSends+1)
			if d := firstDiff(got, want); d != "" {
				x.Failf(r.evidence(), "%s, rank %d, MPI_%s: %s (first call: got %s; want %s)", list, r.Rank, fnTitle(fn), d,
					strings.Join(head(got, 2*len(names)+1), " "), strings.Join(head(want, 2*len(names)+1), " "))
			}
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("pre/MPI/post work nested in list order for %d stacks (6 orders of L0:L1:L2; 1 to 32 instances), MPI_Send and MPI_Recv", len(lists))}
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
