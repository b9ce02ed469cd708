package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
	. "github.com/onsi/gomega"
)

// MPI-4.1 §16.3.6 (Control Variables, MPI_T_cvar_get_index): the index
// returned for a control variable's name is the index of that variable.
var cvarIndex = harness.Define(harness.Check{
	ID:        "MPIT-CVAR-INDEX-001",
	Clause:    "MPI-4.1:16.3.6",
	Needs:     "mpit",
	Title:     "for every control variable, MPI_T_cvar_get_index(name) gives back its index",
	Injectors: []string{"inject_mpit_cvar_index_off"},
	Run:       runCvarIndex,
})

type cvarSummary struct {
	InitRC  int `json:"init_rc"`
	Num     int `json:"num"`
	Checked int `json:"checked"`
	Bad     int `json:"bad"`
}

func runCvarIndex(x *harness.X) harness.Verdict {
	if x.Caps.AfterInit.Cvars < 0 {
		x.Unsupported("MPI_T_cvar_get_num could not be asked after MPI_Init (%s)", x.Caps.AfterInit.Note)
	}
	if x.Caps.AfterInit.Cvars == 0 {
		x.Unsupported("MPI_T_cvar_get_num gives 0 after MPI_Init: no control variables")
	}
	_, recs := x.Job(harness.Job{Name: "mpit_cvar_index", Ranks: 1, Program: x.Fixture("mpit_cvar_index")})
	sums, err := harness.DecodeKind[cvarSummary](recs, "summary")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(sums).To(HaveLen(1), "summary records")
	s := sums[0]
	x.Expect(s.InitRC).To(BeZero(), "MPI_T_init_thread / MPI_T_cvar_get_num")
	var bad []string
	for _, r := range recs.Kind("mismatch", 0) {
		bad = append(bad, string(r.Raw))
	}
	if s.Bad > 0 || len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%d of %d control variables do not round-trip through MPI_T_cvar_get_index, e.g. %s", s.Bad, s.Num, first(bad))
	}
	// Indices that MPI_T_cvar_get_info refuses name no variable to look up;
	// whether such holes are allowed is for the metadata checks to judge.
	refused := recs.Kind("info_failed", 0)
	x.Expect(s.Checked+len(refused)).To(Equal(s.Num), "control variables checked or refused")
	reason := fmt.Sprintf("%d control variables round-trip", s.Checked)
	if len(refused) > 0 {
		reason += fmt.Sprintf("; MPI_T_cvar_get_info refused %d of the %d indices (e.g. %s)", len(refused), s.Num, refused[0].Raw)
	}
	return harness.Verdict{Reason: reason}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
