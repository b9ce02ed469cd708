package mpi

import (
	"slices"
	"testing"
)

// srun --mpi=list of Debian bookworm's Slurm 22.05, as ci/slurm-cluster's
// cluster printed it.
const srunList22 = "MPI plugin types are...\n\tpmix\n\tnone\n\tcray_shasta\n\tpmi2\nspecific pmix plugin versions available: pmix_v4\n"

func TestSrunPlugins(t *testing.T) {
	got := srunPlugins(srunList22)
	if want := []string{"pmix", "none", "cray_shasta", "pmi2", "pmix_v4"}; !slices.Equal(got, want) {
		t.Errorf("plugins %q, want %q", got, want)
	}
}
