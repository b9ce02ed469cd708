package abi

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T through libmpi_abi (fixtures/c/abi/mpit.c, built against the ABI
// header): the values MPI_T hands an application are constants of the
// tool chapter, so through the ABI library they come in the ABI's
// encoding, the one the ABI header gives the application to compare with.
var mpitThroughABI = rulebook.Define(rulebook.Check{
	ID:    "ABI-MPIT",
	Needs: "abi",
	Title: "MPI_T through libmpi_abi: the thread level, verbosity, bind, scope and class values arrive in their ABI encodings",
	Rules: []rulebook.Rule{
		// §20.1: "This chapter defines an Application Binary Interface (ABI)
		// for MPI, meaning that it specifies the memory layouts of all
		// opaque handle types, the values of integer constants, and other
		// aspects of MPI needed by use cases that require a defined ABI."
		// Annex A.1.1 gives each MPI_T_VERBOSITY_*, MPI_T_BIND_*,
		// MPI_T_SCOPE_*, MPI_T_PVAR_CLASS_* and MPI_THREAD_* its ABI value.
		{ID: "ABI-MPIT-01", Source: "MPI-5.0 §20.1, Annex A", Basis: rulebook.Normative,
			Text:      "through libmpi_abi, MPI_T_init_thread's provided level and every variable's verbosity, bind, scope and class are one of the ABI values of their kind",
			Injectors: []string{"inject_abi_mpit_native"},
			Exposure:  mpit1Exposure.Declared(), Judge: judgeMPITThroughABI},
	},
})

// Each value compared could have been a native one.
var mpit1Exposure = rulebook.Exposure[mpitReading]{Items: "MPI_T values (thread level, verbosity, bind, scope, class)"}

// mpitReading is one value MPI_T handed the application: of one kind, for
// one variable (or the thread level).
type mpitReading struct {
	of    string
	value int64
}

type mpitValue struct {
	Of      string `json:"of"`
	Value   int64  `json:"value"`
	Count   int    `json:"count"`
	Example string `json:"example"`
}

// abiKinds maps a recorded kind to the prefix of its constants in the
// standard's ABI values (standard.go).
var abiKinds = map[string]string{
	"provided": "MPI_THREAD_", "cvar_verbosity": "MPI_T_VERBOSITY_", "pvar_verbosity": "MPI_T_VERBOSITY_",
	"bind": "MPI_T_BIND_", "cvar_scope": "MPI_T_SCOPE_", "pvar_class": "MPI_T_PVAR_CLASS_",
}

// abiValues are the standard's ABI values of the constants named prefix*.
func abiValues(prefix string) map[int64]string {
	out := map[int64]string{}
	for _, c := range standardInts {
		if strings.HasPrefix(c.Name, prefix) {
			out[c.Value] = c.Name
		}
	}
	return out
}

// mpitRun is the one run of fixtures/c/abi/mpit.c on x's libmpi_abi
// (ABI-MPIT-01's values, ABI-CALL-01's MPI_T event callbacks).
func mpitRun(x *rulebook.X) *mpi.Records {
	_, recs := x.JobOnce(mpi.Job{Name: "abi_mpit", Ranks: 1, Program: x.Fixture("abi_mpit"),
		RankEnv: map[string]string{"LD_LIBRARY_PATH": x.Impl.ABI.LibDir}, Deadline: 60 * time.Second})
	if len(recs.Kind("done", -1)) != 1 {
		x.Errorf("", "abi_mpit did not reach its end")
	}
	return recs
}

func judgeMPITThroughABI(x *rulebook.X) verdict.Verdict {
	recs := mpitRun(x)
	var p rulebook.Problems
	seen := map[string]int{}
	var read []mpitReading
	for _, v := range mpi.Decode[mpitValue](recs, "value") {
		prefix := abiKinds[v.Of]
		if prefix == "" {
			x.Errorf("", "abi_mpit recorded an unknown kind %q", v.Of)
		}
		seen[v.Of] += v.Count
		for range v.Count {
			read = append(read, mpitReading{v.Of, v.Value})
		}
		if _, ok := abiValues(prefix)[v.Value]; !ok {
			p.Add("", "%s %d (%d variables, e.g. %s) is no ABI value of %s*", v.Of, v.Value, v.Count, v.Example, prefix)
		}
	}
	p.FailOn(x)
	if seen["provided"] == 0 && seen["cvar_verbosity"] == 0 {
		x.Unsupported("not measurable here: MPI_T_init_thread failed through libmpi_abi")
	}
	var kinds []string
	for k, n := range seen {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	// Say which variables the values came from, and what had nothing to
	// compare.
	cvars, pvars := seen["cvar_verbosity"], seen["pvar_class"]
	from := fmt.Sprintf("%d cvars, %d pvars", cvars, pvars)
	var none []string
	if seen["provided"] == 0 {
		none = append(none, "the provided thread level was not recorded")
	}
	if cvars == 0 {
		none = append(none, "no cvar answered MPI_T_cvar_get_info, so cvar verbosity and scope were not judged")
	}
	if pvars == 0 {
		none = append(none, "no pvar answered MPI_T_pvar_get_info, so pvar class and verbosity were not judged")
	}
	reason := fmt.Sprintf("every value in its ABI encoding (%s): %s", from, strings.Join(kinds, ", "))
	if len(none) > 0 {
		reason += "; " + strings.Join(none, "; ")
	}
	return mpit1Exposure.Pass(read, "%s", reason)
}
