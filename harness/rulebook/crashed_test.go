package rulebook

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// A crash inside a call the rule governs fails it; inside another it
// leaves the rule not judged with the same cause for every rule.
func TestCrashedGovernedFailsOtherwiseNotJudged(t *testing.T) {
	res := &mpi.Result{ExitCode: -1, Signal: "SIGSEGV"}
	crash := &mpi.Crash{Fixture: "mpit_errors", How: "crashed (SIGSEGV)", In: []mpi.OpenCall{{Rank: 0, Call: "MPI_T_cvar_get_index(unknown name)"}, {Rank: 1, Call: "MPI_T_cvar_get_index(unknown name)"}}}
	run := func(r Rule, c *mpi.Crash) verdict.Verdict {
		return Evaluate(Rule{ID: r.ID, Basis: Normative, Governs: r.Governs, Judge: func(x *X) verdict.Verdict {
			x.Crashed(res, c)
			return Exposed(1, "calls", "no crash")
		}}, &X{Impl: &mpi.Impl{ID: "impl"}})
	}
	if v := run(Rule{ID: "R", Governs: []string{"MPI_T_*"}}, crash); v.Status != verdict.Fail || v.Cause != "" || !strings.Contains(v.Reason, "a call this rule governs") {
		t.Errorf("governed: %+v, want a fail", v)
	}
	want := "impl: the library crashed (SIGSEGV) in MPI_T_cvar_get_index(unknown name) (job mpit_errors, ranks 0 and 1)"
	for _, governs := range [][]string{nil, {"MPI_Allreduce"}} {
		if v := run(Rule{ID: "S", Governs: governs}, crash); v.Status != verdict.Error || v.Cause != want {
			t.Errorf("governs %v: %+v, want not judged with cause %q", governs, v, want)
		}
	}
	if v := run(Rule{ID: "T", Governs: []string{"MPI_T_*"}}, nil); v.Status != verdict.Pass {
		t.Errorf("no crash placed: %+v, want the judge's own verdict", v)
	}
	// one open call outside the rule's leaves it not judged
	mixed := &mpi.Crash{Fixture: "f", How: "hung", In: []mpi.OpenCall{{Rank: 0, Call: "MPI_T_pvar_read"}, {Rank: 1, Call: "MPI_Barrier"}}}
	if v := run(Rule{ID: "U", Governs: []string{"MPI_T_*"}}, mixed); v.Status != verdict.Error || v.Cause == "" {
		t.Errorf("mixed calls: %+v, want not judged", v)
	}
}
