package main

import (
	"testing"

	"github.com/mpits/mpits/harness"
)

func TestHistoryOrder(t *testing.T) {
	var probed []harness.Probed
	for _, im := range []harness.Impl{
		{ID: "mpich-deb", Family: "mpich", Version: "4.0.2"}, {ID: "openmpi-deb", Family: "openmpi", Version: "4.1.4"},
		{ID: "mpich-tools", Family: "mpich", Version: "4.0.2"}, {ID: "mpich-sid", Family: "mpich", Version: "5.0.2"},
		{ID: "openmpi-sid", Family: "openmpi", Version: "6.0.0rc2"}, {ID: "mpich-trixie", Family: "mpich", Version: "4.2.1"},
		{ID: "openmpi-trixie", Family: "openmpi", Version: "5.0.7"}, {ID: "openmpi-6", Family: "openmpi", Version: "6.0.0"},
	} {
		im := im
		probed = append(probed, harness.Probed{Impl: &im})
	}
	var got []string
	for _, p := range historyOrder(probed) {
		got = append(got, p.Impl.ID)
	}
	want := []string{"mpich-deb", "mpich-tools", "mpich-trixie", "mpich-sid", "openmpi-deb", "openmpi-trixie", "openmpi-sid", "openmpi-6"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
