package harness

import (
	"reflect"
	"testing"
)

// MPITS_INJECT preloads the suite's injectors it names that were built, and
// only those.
func TestInjected(t *testing.T) {
	s := &Suite{Name: "MPI_T", Injectors: []Fixture{{Name: "inject_a"}, {Name: "inject_b"}}}
	t.Setenv(InjectEnv, "inject_a, inject_other_suites,inject_b")
	readInject(s)
	defer func() { injectNames = nil }()
	if !reflect.DeepEqual(injectNames, []string{"inject_a", "inject_b"}) {
		t.Fatalf("names %v", injectNames)
	}
	e := &Env{Impl: &Impl{ID: "i"}, Fixtures: map[string]Built{
		"inject_a": {Path: "/c/inject_a.so"},
		"inject_b": {Error: "cc: error"},
	}}
	if got := injected(e); !reflect.DeepEqual(got, []string{"/c/inject_a.so"}) {
		t.Errorf("preloads %v", got)
	}
	t.Setenv(InjectEnv, "")
	readInject(s)
	if got := injected(e); got != nil {
		t.Errorf("without the setting, preloads %v", got)
	}
}
