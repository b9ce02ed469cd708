package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The first stacking check: one tool listed twice (t:t), seed 000
// ("Registration", "Calling Additional QMPI Tools") and seed 001 ("multiple
// concurrent tools"). Both rules judge the records of one run of app_send.
var twoInstances = rulebook.Define(rulebook.Check{
	ID:    "QMPI-STACK",
	Needs: "qmpi",
	Title: "two instances of one tool (t:t) get distinct ids and their own storage, and both see each MPI_Send exactly once, one nested inside the other",
	Rules: []rulebook.Rule{
		// seed 000: QMPI_Register_tool_storage "lets the tool store
		// information specific to its instance of itself (in case there are
		// multiple copies of a tool)"; "Each instance of the tool receives a
		// unique tool_id."
		{ID: "QMPI-REG-05", Source: "seed 000", Basis: rulebook.SeedBasis,
			Text:      "a tool listed twice (t:t) gets two instances, each with its own id and its own storage, which QMPI_Get_tool_storage returns in each instance's calls",
			Injectors: []string{"inject_qmpi_same_id", "inject_qmpi_swap_storage"},
			Exposure:  reg5Exposure.Declared(), Judge: judgeTwoCopies},
		// seed 001, "Requirements": "Support multiple concurrent tools in a
		// single process"; "Step 3: Magic": "These tools are nested".
		{ID: "QMPI-STACK-X1", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "the two instances of t:t both see each MPI_Send exactly once, one nested inside the other",
			Injectors: []string{"inject_qmpi_skip_next"},
			Exposure:  stackX1Exposure.Declared(), Judge: judgeTwoNested},
	},
})

const sends = 3 // fixtures/c/qmpi/app_send.c: SENDS

var (
	// Each pair could have shared an id, each reading given the other
	// instance's storage.
	reg5Exposure = rulebook.Exposure[copyCheck]{Items: "id pairs and storage readings"}
	// Each send made had to be seen by both instances, nested.
	stackX1Exposure = rulebook.Exposure[sendCall]{Items: "MPI_Send calls"}
)

// copyCheck is one thing judged of t:t on a rank: its id pair (tool 0), or
// a storage reading in instance tool's MPI_Send.
type copyCheck struct{ rank, tool int }

// sendCall is the i-th MPI_Send of a rank.
type sendCall struct{ rank, i int }

type initRec struct {
	Tool       int    `json:"tool"`
	Storage    string `json:"storage"`
	Order      int    `json:"order"`
	StorageRC  int    `json:"storage_rc"`
	FunctionRC int    `json:"function_rc"`
}

type hookRec struct {
	Tool      int    `json:"tool"`
	Storage   string `json:"storage"`
	StorageRC int    `json:"storage_rc"`
	Seq       int    `json:"seq"`
	kind      string
}

// sendRank is what one rank of the t:t run recorded.
type sendRank struct {
	rank  int
	inits []initRec
	hooks []hookRec // pre and post, in record order
}

// runTwoInstances runs app_send under t:t once and decodes both ranks.
func runTwoInstances(x *rulebook.X) ([]sendRank, string) {
	_, recs := x.JobOnce(mpi.Job{
		Name: "qmpi_app_send", Ranks: 2, Program: x.Fixture("qmpi_app_send"),
		RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_send")},
		Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "t:t"},
	})
	out := make([]sendRank, 2)
	for rank := range out {
		out[rank].rank = rank
		out[rank].inits = mpi.DecodeRank[initRec](recs, "init", rank)
		for _, r := range recs.All {
			if r.Rank != rank || (r.Kind != "pre" && r.Kind != "post") {
				continue
			}
			var h hookRec
			if err := r.Decode(&h); err != nil {
				x.Errorf(string(r.Raw), "%v", err)
			}
			h.kind = r.Kind
			out[rank].hooks = append(out[rank].hooks, h)
		}
	}
	return out, recordsText(recs)
}

func judgeTwoCopies(x *rulebook.X) verdict.Verdict {
	ranks, ev := runTwoInstances(x)
	var f rulebook.Problems
	var judged []copyCheck // id pairs (one per rank) and storage readings in the instances' calls
	for _, r := range ranks {
		if len(r.inits) != 2 {
			f.Add(ev, "rank %d: %d init callbacks for t:t, want 2", r.rank, len(r.inits))
			continue
		}
		a, b := r.inits[0], r.inits[1]
		judged = append(judged, copyCheck{rank: r.rank})
		if a.Tool == b.Tool {
			f.Add(ev, "rank %d: both instances of t got id %d", r.rank, a.Tool)
		}
		if a.Storage == b.Storage {
			f.Add(ev, "rank %d: both instances registered storage %s (fixture fault)", r.rank, a.Storage)
		}
		storage := map[int]string{}
		for _, in := range r.inits {
			if in.StorageRC != 0 {
				f.Add(ev, "rank %d: QMPI_Register_tool_storage of instance %d returned %d", r.rank, in.Tool, in.StorageRC)
			}
			storage[in.Tool] = in.Storage
		}
		for _, h := range r.hooks {
			if h.kind == "pre" {
				judged = append(judged, copyCheck{r.rank, h.Tool})
			}
			if h.kind == "pre" && (h.StorageRC != 0 || h.Storage != storage[h.Tool]) {
				f.Add(ev, "rank %d: in instance %d's MPI_Send, QMPI_Get_tool_storage returned %d and gave %s; the instance registered %q", r.rank, h.Tool, h.StorageRC, h.Storage, storage[h.Tool])
			}
		}
	}
	f.FailOn(x)
	in := ranks[0].inits
	return reg5Exposure.Pass(judged, "t:t: ids %d and %d, storages %s and %s, each returned in its own instance's calls", in[0].Tool, in[1].Tool, in[0].Storage, in[1].Storage)
}

func judgeTwoNested(x *rulebook.X) verdict.Verdict {
	ranks, ev := runTwoInstances(x)
	var f rulebook.Problems
	var ids []int
	initFirst := false
	var made []sendCall // the MPI_Send calls of all ranks, each of which both instances had to see, nested
	for _, r := range ranks {
		if len(r.inits) != 2 {
			f.Add(ev, "rank %d: %d init callbacks for t:t, want 2", r.rank, len(r.inits))
			continue
		}
		for _, in := range r.inits {
			if in.FunctionRC != 0 {
				f.Add(ev, "rank %d: QMPI_Register_function(MPI_SEND_T) of instance %d returned %d", r.rank, in.Tool, in.FunctionRC)
			}
		}
		// Which instance is first-listed is not observable: ids carry no
		// order and the proposal does not fix the order of the init callbacks
		// (seed 000), so the outer one is the one whose pre-call work comes
		// first; the rule is that the two nest, each seeing every send once.
		outer, inner := r.inits[0], r.inits[1]
		for _, h := range r.hooks {
			if h.kind == "pre" {
				if h.Tool == inner.Tool {
					outer, inner = inner, outer
				}
				break
			}
		}
		if r.rank == 0 {
			ids = []int{outer.Tool, inner.Tool}
			initFirst = outer.Order < inner.Order
		}
		var got, want []string
		for _, h := range r.hooks {
			got = append(got, fmt.Sprintf("%s:%d", h.kind, h.Tool))
		}
		n := map[bool]int{true: sends}[r.rank == 0] // rank 1 sends nothing
		for i := 0; i < n; i++ {
			made = append(made, sendCall{r.rank, i})
			want = append(want, fmt.Sprintf("pre:%d", outer.Tool), fmt.Sprintf("pre:%d", inner.Tool),
				fmt.Sprintf("post:%d", inner.Tool), fmt.Sprintf("post:%d", outer.Tool))
		}
		if d := firstDiff(got, want); d != "" {
			f.Add(ev, "rank %d: the pre/post work of instances %d (outer) and %d (inner) around %d sends: %s (got %s)", r.rank, outer.Tool, inner.Tool, n, d, strings.Join(head(got, 8), " "))
		}
	}
	f.FailOn(x)
	order := "the outer one was initialized second"
	if initFirst {
		order = "the outer one was initialized first"
	}
	return stackX1Exposure.Pass(made, "tool ids %d (outer) and %d (inner) nested around %d sends, each seen once; %s", ids[0], ids[1], sends, order)
}
