package harness

import (
	"reflect"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
)

// MPITS_INJECT preloads the suite's injectors it names that were built, and
// only those.
func TestInjected(t *testing.T) {
	s := &Suite{Name: "MPI_T", Injectors: []mpi.Fixture{{Name: "inject_a"}, {Name: "inject_b"}}}
	t.Setenv(settings.InjectEnv, "inject_a, inject_other_suites,inject_b")
	readInject(s)
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
}
