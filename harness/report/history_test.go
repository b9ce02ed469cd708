package report

import (
	"testing"

	"github.com/mpits/mpits/harness/mpi"
)

func TestHistoryOrder(t *testing.T) {
	probed := probedOf(
		mpi.Impl{ID: "mpich-deb", Family: "mpich", Version: "4.0.2"}, mpi.Impl{ID: "openmpi-deb", Family: "openmpi", Version: "4.1.4"},
		mpi.Impl{ID: "mpich-tools", Family: "mpich", Version: "4.0.2"}, mpi.Impl{ID: "mpich-sid", Family: "mpich", Version: "5.0.2"},
		mpi.Impl{ID: "openmpi-sid", Family: "openmpi", Version: "6.0.0rc2"}, mpi.Impl{ID: "mpich-trixie", Family: "mpich", Version: "4.2.1"},
		mpi.Impl{ID: "openmpi-trixie", Family: "openmpi", Version: "5.0.7"}, mpi.Impl{ID: "openmpi-6", Family: "openmpi", Version: "6.0.0"},
	)
	var got []string
	for _, p := range HistoryOrder(probed) {
		got = append(got, p.Impl.ID)
	}
	want := []string{"mpich-deb", "mpich-tools", "mpich-trixie", "mpich-sid", "openmpi-deb", "openmpi-trixie", "openmpi-sid", "openmpi-6"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}

// probedOf is a run's implementations as the reports read them.
func probedOf(impls ...mpi.Impl) []mpi.Probed {
	var probed []mpi.Probed
	for _, im := range impls {
		im := im
		probed = append(probed, mpi.Probed{Impl: &im})
	}
	return probed
}
