package harness

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/onsi/ginkgo/v2/types"
)

func TestFilterLabels(t *testing.T) {
	for filter, want := range map[string][]string{
		"impl:mpich-tool":                         {"impl:mpich-tool"},
		"!selftest && (impl:a || impl:b), STR-3":  {"selftest", "impl:a", "impl:b", "STR-3"},
		"basis:normative&&needs:mpit":             {"basis:normative", "needs:mpit"},
		"/STR-.*/ && impl:a":                      {"impl:a"},
		"impl: containsAny {a,b} && check:X":      {"check:X"},
		"impl: isEmpty || source:MPI-5.0:15.3.3 ": {"source:MPI-5.0:15.3.3"},
	} {
		if got := FilterLabels(filter); !reflect.DeepEqual(got, want) {
			t.Errorf("FilterLabels(%q) = %q, want %q", filter, got, want)
		}
	}
}

func TestClosestLabel(t *testing.T) {
	known := map[string]string{}
	for _, l := range []string{"impl:mpich-tools", "impl:openmpi-deb", "STR-3", "STR-4", "basis:normative", "selftest"} {
		known[strings.ToLower(l)] = l
	}
	for l, want := range map[string]string{
		"impl:mpich-tool":  "impl:mpich-tools",
		"impl:openmpi-sid": "impl:openmpi-deb",
		"str-33":           "STR-3",
		"basis:normativ":   "basis:normative",
		"self-test":        "selftest",
	} {
		if got := settings.Closest(l, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", l, got, want)
		}
	}
	if got := settings.Closest("x", nil); got != "" {
		t.Errorf("Closest with nothing known = %q", got)
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"impl:a", "impl:b", 1}, {"§1", "§2", 1}} {
		if d := settings.EditDistance(c.a, c.b); d != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}

// A filter fails the run only when it selects no spec of any suite: one
// naming another suite's rule selects nothing here, and is right.
func TestEmptySelection(t *testing.T) {
	mine := &Suite{Name: "ONE", Checks: []rulebook.Check{
		{ID: "C1", Needs: "mpi", Rules: []rulebook.Rule{{ID: "R-1", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Injectors: []string{"inj"}}}},
	}}
	other := rulebook.RuleInfo{ID: "R-2", Suite: "TWO", Check: "C2", Source: "seed 000", Basis: rulebook.SeedBasis, Needs: "qmpi"}
	rules := append(RuleInfos(mine), other)
	impls := []*mpi.Impl{{ID: "mpich-tools"}, {ID: "openmpi-deb"}}
	for _, c := range []struct {
		filter string
		want   []string // nil: selects something
	}{
		{"R-2", nil},
		{"R-1 && impl:openmpi-deb", nil},
		{"selftest && R-1", nil},
		{"needs:qmpi && basis:seed", nil},
		{"!selftest", nil},
		{"impl:mpich-tool", []string{`the label filter "impl:mpich-tool" matched no spec in any suite (ONE, TWO)`,
			"no spec carries impl:mpich-tool (the run's implementations: mpich-tools, openmpi-deb) — did you mean impl:mpich-tools?"}},
		{"R-3 && !selftest", []string{"no spec carries R-3 — did you mean R-1?"}},
		{"selftest && R-2", []string{"each of its labels exists, but no spec carries this combination"}},
		{"R-1 && R-2", []string{"each of its labels exists"}},
	} {
		lf, err := types.ParseLabelFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		err = emptySelection(c.filter, lf, rules, impls)
		if c.want == nil {
			if err != nil {
				t.Errorf("%q: %v", c.filter, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q: selects something, want nothing", c.filter)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v\nwant it to say %q", c.filter, err, w)
			}
		}
	}
}

// The catalogue gives the labels declare gives the specs.
func TestCatalogueLabelsAreSpecLabels(t *testing.T) {
	s := &Suite{Name: "ONE", Checks: []rulebook.Check{
		{ID: "C1", Needs: "mpit", Rules: []rulebook.Rule{{ID: "R-1", Source: "MPI-5.0 §15.3.3, §15.3.7", Basis: rulebook.Quality}}},
	}}
	c, r, im := s.Checks[0], s.Checks[0].AllRules()[0], &mpi.Impl{ID: "a"}
	if got, want := infoSpecLabels(s.Info(c, r), im.ID), specLabels(c, r, im); !reflect.DeepEqual(got, want) {
		t.Errorf("from the catalogue %q, declared %q", got, want)
	}
	if got, want := infoProofLabels(s.Info(c, r)), proofLabels(r); !reflect.DeepEqual(got, want) {
		t.Errorf("from the catalogue %q, declared %q", got, want)
	}
}

// On the real catalogue: one rule id selects a spec of one suite, a
// misspelt implementation none, with the right one suggested.
func TestEmptySelectionOnCatalogue(t *testing.T) {
	rules, err := readCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	impls := []*mpi.Impl{{ID: "mpich-tools"}}
	for filter, want := range map[string]string{
		"STR-3":                                 "",
		"!selftest && impl:mpich-tools":         "",
		"impl:mpich-tool":                       "did you mean impl:mpich-tools?",
		"basis:normative && impl:openmpi-deb":   "no spec carries impl:openmpi-deb (the run's implementations: mpich-tools)",
		"check:MPIT-STRINGS && needs:qmpi":      "each of its labels exists",
		"check:MPIT-STRING":                     "did you mean check:MPIT-STRINGS?",
		"source:MPI-5.0:15.3.3 && basis:normtv": "did you mean basis:normative?",
	} {
		err := emptySelection(filter, types.MustParseLabelFilter(filter), rules, impls)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", filter, err)
		case want != "" && err == nil:
			t.Errorf("%q selects something", filter)
		case want != "" && !strings.Contains(err.Error(), want):
			t.Errorf("%q: %v\nwant %q", filter, err, want)
		}
	}
}
