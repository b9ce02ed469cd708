package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	. "github.com/onsi/gomega"
)

// Control variable indices (MPI-5.0 §15.3.6.1), from one run of
// fixtures/c/mpit/cvar_index.c after MPI_Init: get_info on every index below
// MPI_T_cvar_get_num, and MPI_T_cvar_get_index on every name it gives.
var cvarIndex = rulebook.Define(rulebook.Check{
	ID:    "MPIT-CVAR-INDEX",
	Needs: "mpit",
	Title: "every control variable index below the count answers MPI_T_cvar_get_info, and MPI_T_cvar_get_index(name) gives it back",
	Rules: []rulebook.Rule{
		// §15.3.6.1: "An MPI implementation exports a set of N control variables
		// through the MPI tool information interface. If N is zero, then the MPI
		// implementation does not export any control variables, otherwise the
		// provided control variables are indexed from 0 to N-1." and "MPI
		// implementations are not allowed to change the index of a control
		// variable or to delete a variable once it has been added to the set."
		// MPI_T_CVAR_GET_INFO: "IN cvar_index | index of the control variable to
		// be queried, value between 0 and num_cvar-1". An inactive variable stays
		// in the set ("When a variable becomes inactive, e.g., through dynamic
		// unloading, accessing its value should return a corresponding return
		// code": its value, not its description).
		// But the section's own example loops over 0..num_cvar-1 and accepts
		// MPI_T_ERR_INVALID_INDEX from MPI_T_cvar_get_info ("if (err!=MPI_SUCCESS
		// && err!=MPI_T_ERR_INVALID_INDEX) return err;"): the text can be read
		// as allowing indices below the count that get_info refuses.
		{ID: "CVAR-1", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Interpretation,
			Text:     "MPI_T_cvar_get_info answers every index from 0 to MPI_T_cvar_get_num - 1 (reading 1) or refuses some, as inactive variables (reading 2): which reading the library follows",
			Exposure: indexExposures["cvar"].Declared(), Judge: judgeCvar1},
		// §15.3.6.1 (MPI_T_CVAR_GET_INDEX): "OUT cvar_index | index of the
		// control variable"; "This routine returns MPI_SUCCESS on success".
		{ID: "CVAR-7", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_get_index(name) of every control variable get_info answers returns MPI_SUCCESS and its index",
			Injectors: []string{"inject_mpit_cvar_index_off"}, Exposure: cvar7Exposure.Declared(), Judge: judgeCvar7},
	},
})

type cvarSummary struct {
	InitRC  int `json:"init_rc"`
	Num     int `json:"num"`
	Checked int `json:"checked"`
	Bad     int `json:"bad"`
}

type infoFailed struct {
	Index int    `json:"index"`
	RC    string `json:"rc"`
}

func cvarIndexJob(x *rulebook.X) (*mpi.Records, cvarSummary) {
	if x.Caps.AfterInit.Cvars == 0 {
		x.Unsupported("not measurable here: MPI_T_cvar_get_num gives 0 after MPI_Init")
	}
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_cvar_index", Ranks: 1, Program: x.Fixture("mpit_cvar_index")})
	sums, err := mpi.DecodeKind[cvarSummary](recs, "summary")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(sums).To(HaveLen(1), "summary records")
	s := sums[0]
	x.Expect(s.InitRC).To(BeZero(), "MPI_T_init_thread / MPI_T_cvar_get_num")
	return recs, s
}

func judgeCvar1(x *rulebook.X) verdict.Verdict {
	recs, s := cvarIndexJob(x)
	refused := mpi.Decode[infoFailed](recs, "info_failed")
	var ex []string
	for _, r := range refused {
		ex = append(ex, fmt.Sprintf("%d (%s)", r.Index, r.RC))
	}
	// the fixture asks every index below the count
	asked := make([]int, max(s.Num, 0))
	for i := range asked {
		asked[i] = i
	}
	return indexReading(indexExposures["cvar"], "control variable", asked, ex)
}

// cvar7Exposure: the index asked for is preset to -1, so each answer
// could be wrong; the fixture counts the variables it checked.
var cvar7Exposure = rulebook.Exposure[countedItem]{Items: "control variables",
	When: "every one checked (the index asked for is preset to -1: each answer could be wrong)"}

func judgeCvar7(x *rulebook.X) verdict.Verdict {
	recs, s := cvarIndexJob(x)
	var bad []string
	for _, r := range recs.Kind("mismatch", 0) {
		bad = append(bad, string(r.Raw))
	}
	if s.Bad > 0 || len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%d of %d control variables do not round-trip through MPI_T_cvar_get_index, e.g. %s", s.Bad, s.Checked, first(bad))
	}
	if s.Checked == 0 {
		x.Unsupported("not measurable here: MPI_T_cvar_get_info answered no index")
	}
	return cvar7Exposure.Pass(countedItems(s.Checked), "%d control variables round-trip", s.Checked)
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
