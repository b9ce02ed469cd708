package harness

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func TestValidate(t *testing.T) {
	judge := func(x *rulebook.X) verdict.Verdict { return verdict.Verdict{} }
	s := &Suite{Name: "S", Injectors: []mpi.Fixture{{Name: "inject_a"}}, Checks: []rulebook.Check{{ID: "C", Title: "c", Needs: "mpi", Rules: []rulebook.Rule{
		{ID: "R-1", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "t", Judge: judge, Injectors: []string{"inject_a"}},
		{ID: "R-1", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "t", Judge: judge},
		{ID: "R-2", Source: "MPI-4.1:16.3.3", Basis: rulebook.Normative, Text: "t", Judge: judge},
		{ID: "R-3", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "t", Judge: judge, Injectors: []string{"inject_typo"}},
		{ID: "R-4", Source: "MPI-5.0 §15.3.3", Basis: "strong", Text: "t", Judge: judge},
		{ID: "R-5", Source: "MPI-5.0 §15.3.3", Basis: rulebook.SeedBasis, Text: "t", Judge: judge},
		{ID: "R-6", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "t", Judge: judge, Needs: "gpu"},
	}}}}
	err := s.Validate(map[string]string{})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"rule R-1 (check C): the id is used already", "R-2 (check C): source", "injector inject_typo is not declared",
		`basis "strong"`, "R-5 (check C): a seed rule needs a seed source", `R-6 (check C): needs "gpu" is not one of`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
}
