package report

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func TestFindingHistory(t *testing.T) {
	probed := probedOf(
		mpi.Impl{ID: "m4", Family: "mpich", Version: "4.0.2"}, mpi.Impl{ID: "m4b", Family: "mpich", Version: "4.0.2"},
		mpi.Impl{ID: "m42", Family: "mpich", Version: "4.2.1"}, mpi.Impl{ID: "m5", Family: "mpich", Version: "5.0.2"},
		mpi.Impl{ID: "o4", Family: "openmpi", Version: "4.1.4"}, mpi.Impl{ID: "o5", Family: "openmpi", Version: "5.0.7"},
	)
	row := func(impl string, st verdict.Status) Row {
		return Row{RuleInfo: rulebook.RuleInfo{ID: "R-1"}, Impl: impl, Status: st}
	}
	h := NewHistory([]Row{row("m4", verdict.Fail), row("m4b", verdict.Pass), row("m42", verdict.Pass), row("m5", verdict.Fail),
		row("o4", verdict.Fail), row("o5", verdict.Fail)}, probed)
	got := strings.Join(h.families("R-1"), "\n")
	for _, want := range []string{
		"**MPICH**: 4.0.2 fail on m4, pass on m4b; 4.2.1 pass on m42; 5.0.2 fail on m5: 4.0.2 fails on some of its builds only (m4), so there the build, not the version, decides; appears between 4.2.1 and 5.0.2.",
		"**Open MPI**: 4.1.4 fail on o4; 5.0.7 fail on o5: present in every Open MPI version judged.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("history\n%s\nlacks\n%s", got, want)
		}
	}
	page := "# R-1: title\n\nbody\n"
	once := WithHistory(page, h.Block([]string{"R-1"}))
	if twice := WithHistory(once, h.Block([]string{"R-1"})); twice != once {
		t.Errorf("rewriting the history changed the page:\n%s\n---\n%s", once, twice)
	}
	if !strings.HasPrefix(once, "# R-1: title\n\n"+historyBegin) || !strings.HasSuffix(once, historyEnd+"\n\nbody\n") {
		t.Errorf("history not after the title:\n%s", once)
	}
}
