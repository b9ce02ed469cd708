package report

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// A translation layer's columns are neither versions of the runtime under
// them in a finding's history nor unnamed in a report: both layers are said.
func TestLayerNamed(t *testing.T) {
	wi := mpi.Impl{ID: "w", Family: "openmpi", Version: "4.1.4", Layer: &mpi.Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "interface"}}
	wp := mpi.Impl{ID: "wp", Family: "mpich", Version: "4.0.2", Layer: &mpi.Layer{Name: "WI4MPI", Version: "4.0.1", Mode: "preload", From: "openmpi"}}
	probed := probedOf(mpi.Impl{ID: "o4", Family: "openmpi", Version: "4.1.4"}, wi, wp)
	row := func(impl string, st verdict.Status) Row {
		return Row{RuleInfo: rulebook.RuleInfo{ID: "R-1"}, Impl: impl, Status: st}
	}
	h := NewHistory([]Row{row("o4", verdict.Pass), row("w", verdict.Fail), row("wp", verdict.Pass)}, probed)
	got := strings.Join(h.families("R-1"), "\n")
	for _, want := range []string{
		"**Open MPI**: 4.1.4 pass on o4: not seen",
		"4.0.1 (interface on Open MPI 4.1.4) fail on w", "4.0.1 (preload from Open MPI on MPICH 4.0.2) pass on wp", "one column per runtime under the layer, not a sequence of versions.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("history\n%s\nlacks\n%s", got, want)
		}
	}
	p := mpi.Probed{Impl: &wi, Caps: &mpi.Caps{LibraryVersion: "Open MPI v4.1.4"}}
	if v := VersionOf(p); v != "WI4MPI 4.0.1 (interface) on Open MPI v4.1.4" {
		t.Errorf("VersionOf = %q, want both layers", v)
	}
	md := ImplementationsMarkdown([]mpi.Probed{{Impl: &wp}})
	if !strings.Contains(md, "| wp | WI4MPI 4.0.1 (preload from openmpi) | mpich | 4.0.2 |") || !strings.Contains(md, "**wp** (WI4MPI 4.0.1 (preload from openmpi) on mpich 4.0.2)") {
		t.Errorf("implementations.md does not name both layers:\n%s", md)
	}
}
