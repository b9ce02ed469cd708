package qmpi

import (
	"fmt"

	"github.com/mpits/mpits/harness"
	. "github.com/onsi/gomega"
)

// The first stacking check: seed 000 ("Registration", "Calling Additional
// QMPI Tools") and seed 001 ("multiple concurrent tools").
var twoInstances = harness.Define(harness.Check{
	ID:        "QMPI-STACK-001",
	Clause:    "seed:000",
	Needs:     "qmpi",
	Title:     "two instances of one tool (t:t) get distinct ids and their own storage, and both see each MPI_Send exactly once, one nested inside the other",
	Injectors: []string{"inject_qmpi_skip_next"},
	Run:       runTwoInstances,
})

const sends = 3 // fixtures/c/qmpi/app_send.c: SENDS

type initRec struct {
	Tool       int    `json:"tool"`
	Storage    string `json:"storage"`
	Order      int    `json:"order"`
	StorageRC  int    `json:"storage_rc"`
	FunctionRC int    `json:"function_rc"`
}

type hookRec struct {
	Tool    int    `json:"tool"`
	Storage string `json:"storage"`
	Seq     int    `json:"seq"`
}

func runTwoInstances(x *harness.X) harness.Verdict {
	if !x.Caps.QMPI.Works {
		x.Unsupported("%s", x.Caps.QMPI.Reason)
	}
	_, recs := x.Job(harness.Job{
		Name: "qmpi_app_send", Ranks: 2, Program: x.Fixture("qmpi_app_send"),
		RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_send")},
		Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "t:t"},
	})
	var ids []int
	initFirst := false
	for rank := 0; rank < 2; rank++ {
		var inits []initRec
		for _, r := range recs.Kind("init", rank) {
			var in initRec
			x.Expect(r.Decode(&in)).To(Succeed())
			inits = append(inits, in)
		}
		x.Expect(inits).To(HaveLen(2), "rank %d: init callbacks for t:t", rank)
		x.Expect(inits[0].Tool).NotTo(Equal(inits[1].Tool), "rank %d: the two instances got the same id", rank)
		x.Expect(inits[0].Storage).NotTo(Equal(inits[1].Storage), "rank %d: storages", rank)
		for _, in := range inits {
			x.Expect(in.StorageRC).To(BeZero(), "rank %d: QMPI_Register_tool_storage of tool %d", rank, in.Tool)
			x.Expect(in.FunctionRC).To(BeZero(), "rank %d: QMPI_Register_function of tool %d", rank, in.Tool)
		}
		// Which instance is first-listed is not observable: ids carry no
		// order and the proposal does not fix the order of the init callbacks
		// (seed 000), so the outer one is the one whose pre-call work comes
		// first; the rule is that the two nest, each seeing every send once.
		outer, inner := inits[0], inits[1]
		for _, r := range recs.All {
			var h hookRec
			if r.Rank == rank && r.Kind == "pre" && r.Decode(&h) == nil {
				if h.Tool == inner.Tool {
					outer, inner = inner, outer
				}
				break
			}
		}
		if rank == 0 {
			ids = []int{outer.Tool, inner.Tool}
			initFirst = outer.Order < inner.Order
		}
		var got []string
		storage := map[int]string{outer.Tool: outer.Storage, inner.Tool: inner.Storage}
		for _, r := range recs.All {
			if r.Rank != rank || (r.Kind != "pre" && r.Kind != "post") {
				continue
			}
			var h hookRec
			x.Expect(r.Decode(&h)).To(Succeed())
			if r.Kind == "pre" {
				x.Expect(h.Storage).To(Equal(storage[h.Tool]), "rank %d: QMPI_Get_tool_storage for tool %d", rank, h.Tool)
			}
			got = append(got, fmt.Sprintf("%s:%d", r.Kind, h.Tool))
		}
		var want []string
		if rank == 0 {
			for i := 0; i < sends; i++ {
				want = append(want, fmt.Sprintf("pre:%d", outer.Tool), fmt.Sprintf("pre:%d", inner.Tool),
					fmt.Sprintf("post:%d", inner.Tool), fmt.Sprintf("post:%d", outer.Tool))
			}
		}
		x.Expect(got).To(Equal(want), "rank %d: pre/post work of tools %d (outer) and %d nested around %d sends", rank, outer.Tool, inner.Tool, map[bool]int{true: sends}[rank == 0])
	}
	order := "the outer one was initialized second"
	if initFirst {
		order = "the outer one was initialized first"
	}
	return harness.Verdict{Reason: fmt.Sprintf("tool ids %d (outer) and %d (inner), own storage, nested around %d sends, each seen once; %s", ids[0], ids[1], sends, order)}
}
