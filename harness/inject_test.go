package harness

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
)

// MPITS_INJECT preloads the suite's injectors it names that were built, and
// only those.
func TestInjected(t *testing.T) {
	s := &Suite{Name: "MPI_T", Injectors: []mpi.Fixture{{Name: "inject_a"}, {Name: "inject_b"}}}
	fixtures := t.TempDir()
	mpitest.WriteFile(t, filepath.Join(fixtures, "inject", "inject_other_suites.c"), "", 0o644)
	t.Setenv("MPITS_FIXTURES", fixtures)
	t.Setenv(settings.InjectEnv, "inject_a, inject_other_suites,inject_b")
	if err := readInject(s); err != nil {
		t.Fatal(err)
	}
	defer func() { injectNames = nil }()
	if !reflect.DeepEqual(injectNames, []string{"inject_a", "inject_b"}) {
		t.Fatalf("names %v", injectNames)
	}
	e := &rulebook.Env{Impl: &mpi.Impl{ID: "i"}, Fixtures: map[string]mpi.Built{
		"inject_a": {Path: "/c/inject_a.so"},
		"inject_b": {Error: "cc: error"},
	}}
	if got := injected(e); !reflect.DeepEqual(got, []string{"/c/inject_a.so"}) {
		t.Errorf("preloads %v", got)
	}
	t.Setenv(settings.InjectEnv, "")
	readInject(s)
	if got := injected(e); got != nil {
		t.Errorf("without the setting, preloads %v", got)
	}
	// A name no suite has an injector of is refused, not run without.
	t.Setenv(settings.InjectEnv, "inject_a,inject_typo")
	mpitest.WantOneLineErr(t, readInject(s), "inject_typo is no fault injector", "has no inject_typo.c")
}
