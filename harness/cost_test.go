package harness

import "testing"

func TestCheapestFirst(t *testing.T) {
	impls := []*Impl{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	envs := map[string]*Env{
		"a": {Caps: &Caps{ProbeMS: 2000}},
		"b": {Caps: &Caps{ProbeMS: 100}},
		"c": {Caps: &Caps{}}, // the probe did not run: last
		"d": {Caps: &Caps{ProbeMS: 100}},
		// e: not set up
	}
	want := []string{"b", "d", "a", "c", "e"}
	for i, im := range cheapestFirst(impls, envs) {
		if im.ID != want[i] {
			t.Fatalf("order %d: got %s, want %s", i, im.ID, want[i])
		}
	}
}
