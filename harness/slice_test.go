package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

// A label filter selects the implementations Setup sets up: those some
// selected rule spec runs on, or every one when an injector spec is
// selected (it needs the rule's verdict everywhere).
func TestNeededBySlice(t *testing.T) {
	s := &Suite{Checks: []rulebook.Check{
		{ID: "C1", Needs: "mpi", Rules: []rulebook.Rule{{ID: "R-1", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Injectors: []string{"inj"}}}},
		{ID: "C2", Needs: "mpit", Rules: []rulebook.Rule{{ID: "R-2", Source: "seed 000", Basis: rulebook.SeedBasis}}},
	}}
	impls := []*mpi.Impl{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	for _, c := range []struct {
		filter string
		want   []string // nil: every implementation
	}{
		{"impl:b", []string{"b"}},
		{"!selftest && impl:c", []string{"c"}},
		{"check:C2 && (impl:a || impl:c)", []string{"a", "c"}},
		{"basis:seed && !selftest", []string{"a", "b", "c"}},
		{"check:C9", []string{}},
		{"R-1", nil},                    // R-1's injector spec too
		{"selftest && R-2", []string{}}, // R-2 has no injector spec
	} {
		lf, err := types.ParseLabelFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		needed := s.needed(impls, lf)
		if c.want == nil {
			if needed != nil {
				t.Errorf("%q: want every implementation (nil)", c.filter)
			}
			continue
		}
		got := []string{}
		for _, im := range impls {
			if needed != nil && needed(im.ID) {
				got = append(got, im.ID)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q sets up %v, want %v", c.filter, got, c.want)
		}
	}
}

// Setup probes only what is needed; a spec on an implementation it did not
// set up is unsupported, not a crash.
func TestSetupOnlyNeeded(t *testing.T) {
	mpitest.ClearSettings(t)
	run := t.TempDir()
	t.Setenv(settings.RunDirEnv, run)
	impls := []*mpi.Impl{{ID: "a", Reason: "r"}, {ID: "b", Reason: "r"}}
	envs := Setup(only(impls, func(id string) bool { return id == "b" }), nil)
	if len(envs) != 1 || envs[0].Impl.ID != "b" {
		t.Fatalf("Setup gives %d Envs, want b's alone", len(envs))
	}
	if got, want := probedIDs(t, run), []string{"b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("probed %v, want %v", got, want)
	}
	if v := evaluateOnce(rulebook.Rule{ID: "R-setup"}, nil); v.Status != verdict.Unsupported {
		t.Errorf("a rule on an implementation not set up gives %s, want unsupported", v.Status)
	}
	if envs := Setup(only(impls, nil), nil); len(envs) != 2 {
		t.Errorf("Setup with nothing filtered gives %d Envs, want 2", len(envs))
	}
	if got, want := probedIDs(t, run), []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("probed %v when everything is set up, want %v", got, want)
	}
}

// probedIDs are the implementations whose probes run folder dir keeps.
func probedIDs(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "caps-*.json"))
	var ids []string
	for _, f := range files {
		var c mpi.Caps
		data, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(data, &c) != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ids = append(ids, c.Impl)
	}
	sort.Strings(ids)
	return ids
}

// plantProbe writes, in run folder dir, a probe that finds implementation
// id of the implementations file impls available: the run then probes
// nothing of that fake implementation.
func plantProbe(t *testing.T, dir, impls, id string) {
	t.Helper()
	list, err := mpi.ReadImplFile(impls)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range list {
		if im.ID == id {
			mpitest.WriteFile(t, mpi.ProbeFile(dir, im), `{"impl":"`+id+`","available":true}`, 0o644)
			return
		}
	}
	t.Fatalf("%s has no implementation %s", impls, id)
}
