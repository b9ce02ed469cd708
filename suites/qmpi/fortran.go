package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	. "github.com/onsi/gomega"
)

// Seed 001, "Requirements": "All language bindings (C, mpif.h, use mpi,
// use mpif08)"; "Tools can implement functionality in C (in one place)
// regardless of language bindings used"; "Groundrules": "Fortran mapping
// has to be taken care of by the MPI library".
var fortranBindings = rulebook.Define(rulebook.Check{
	ID:    "QMPI-FORTRAN",
	Needs: "qmpi",
	Title: "a C QMPI tool stack (L0:L1) sees the MPI calls of mpif.h, use mpi and use mpi_f08 programs exactly once each",
	Rules: []rulebook.Rule{
		{ID: "QMPI-COV-03", Source: "seed 001", Basis: rulebook.SeedBasis,
			Text:      "a C tool stack (L0:L1) sees every MPI call of a program using mpif.h, use mpi or use mpi_f08 exactly once (each binding that builds and runs here)",
			Injectors: []string{"inject_qmpi_drop_register"},
			Exposure:  cov3Exposure.Declared(), Judge: judgeFortranBindings},
	},
})

// fortranCalls are the calls each rank of fixtures/c/qmpi/fortran_*.f90 makes.
var fortranCalls = []map[string]int64{
	{"init": 1, "init_thread": 0, "finalize": 1, "send": 3, "recv": 0, "barrier": 1, "allreduce": 1, "comm_rank": 1},
	{"init": 1, "init_thread": 0, "finalize": 1, "send": 0, "recv": 3, "barrier": 1, "allreduce": 1, "comm_rank": 1},
}

// cov3Exposure: each count could have been more or fewer than the calls
// made.
var cov3Exposure = rulebook.Exposure[callCount]{Items: "call counts (per binding, rank, tool instance and function)"}

func judgeFortranBindings(x *rulebook.X) verdict.Verdict {
	bindings := []struct {
		fixture, label string
		works          bool
	}{
		{"qmpi_fortran_mpifh", "mpif.h", x.Caps.Fortran.MPIFH},
		{"qmpi_fortran_use_mpi", "use mpi", x.Caps.Fortran.UseMPI},
		{"qmpi_fortran_use_mpi_f08", "use mpi_f08", x.Caps.Fortran.UseMPIF08},
	}
	var done, missing []string
	var f rulebook.Problems
	var counts []callCount // compared: binding × rank × tool instance × function
	for _, b := range bindings {
		if !b.works {
			missing = append(missing, b.label)
			continue
		}
		res, recs := x.Job(mpi.Job{
			Name: b.fixture, Ranks: 2, Program: x.Fixture(b.fixture),
			RankEnv: map[string]string{"LD_PRELOAD": x.Fixture("qmpi_tool_layer")},
			Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "L0:L1", "MPITS_QMPI_TRACE": "none"},
		})
		ev := recordsText(recs) + "\n" + res.Evidence()
		if strings.Count(res.Stdout, "mpits-fortran-ok") != 2 || strings.Count(res.Stdout, " sum 3") != 2 {
			x.Errorf(ev, "%s did not run to its end on both ranks with the right sum", b.fixture)
		}
		for rank, want := range fortranCalls {
			sums := 0
			for _, r := range recs.Kind("summary", rank) {
				var s layerSummary
				x.Expect(r.Decode(&s)).To(Succeed())
				sums++
				for fn, n := range want {
					counts = append(counts, callCount{rank: rank, counter: b.label + " " + s.Name, fn: fn, made: n})
					if s.Calls[fn] != n {
						f.Add(ev, "%s: rank %d: the C tool %s saw %d MPI_%s calls of the Fortran program, which made %d", b.label, rank, s.Name, s.Calls[fn], strings.ToUpper(fn), n)
					}
				}
			}
			if sums != 2 {
				f.Add(ev, "%s: rank %d: %d of the 2 tool instances reported (init callbacks: %d)", b.label, rank, sums, len(recs.Kind("init", rank)))
			}
		}
		done = append(done, b.label)
	}
	if len(done) == 0 {
		x.Unsupported("not measurable here: no Fortran binding builds and runs: %s", x.Caps.Fortran.Reason)
	}
	f.FailOn(x)
	reason := fmt.Sprintf("L0:L1 saw every call of the %s programs exactly once (init, comm_rank, send, recv, allreduce, barrier, finalize)", strings.Join(done, ", "))
	if len(missing) > 0 {
		reason += fmt.Sprintf("; not tried, the binding does not work here: %s (%s)", strings.Join(missing, ", "), x.Caps.Fortran.Reason)
	}
	return cov3Exposure.Pass(counts, "%s", reason)
}
