package rulebook

import (
	"reflect"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
)

// TestLaunchResuming runs a program that dies in items 1 and 4 of 5: each
// item runs once, the deaths are named, and the run after a death in the
// last item is not made.
func TestLaunchResuming(t *testing.T) {
	t.Setenv("MPITS_CACHE", t.TempDir())
	var im *mpi.Impl
	for _, d := range mpi.DetectFromPath() {
		if d.ID == "mpich" {
			im = d
		}
	}
	if im == nil {
		t.Skip("no mpich on PATH")
	}
	b := mpi.Build(im, mpi.Fixture{Name: "items", Sources: []string{"harness/items.c"}})
	if b.Error != "" {
		t.Fatal(b.Error)
	}
	x := &X{Impl: im}
	r := x.LaunchResuming(mpi.Job{Name: "items", Ranks: 1, Program: b.Path, Args: []string{"--kill=1,4"}})
	if len(r.Records) != 2 {
		t.Errorf("%d runs, want 2 (the second dies in the last item)", len(r.Records))
	}
	var did []int
	for _, recs := range r.Records {
		for _, d := range mpi.Decode[struct {
			Item int `json:"item"`
		}](recs, "did") {
			did = append(did, d.Item)
		}
	}
	if want := []int{0, 2, 3}; !reflect.DeepEqual(did, want) {
		t.Errorf("items done %v, want %v", did, want)
	}
	if want := []Died{{1, "SIGSEGV"}, {4, "SIGSEGV"}}; !reflect.DeepEqual(r.Died, want) {
		t.Errorf("died %+v, want %+v", r.Died, want)
	}
}
