package rulebook

import (
	"testing"

	"github.com/mpits/mpits/harness/mpi"
)

func TestCheapestFirst(t *testing.T) {
	impls := []*mpi.Impl{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	envs := map[string]*Env{
		"a": {Caps: &mpi.Caps{ProbeMS: 2000}},
		"b": {Caps: &mpi.Caps{ProbeMS: 100}},
		"c": {Caps: &mpi.Caps{}}, // the probe did not run: last
		"d": {Caps: &mpi.Caps{ProbeMS: 100}},
		// e: not set up
	}
	want := []string{"b", "d", "a", "c", "e"}
	for i, im := range CheapestFirst(impls, envs) {
		if im.ID != want[i] {
			t.Fatalf("order %d: got %s, want %s", i, im.ID, want[i])
		}
	}
}
