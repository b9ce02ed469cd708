package report

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func TestTwinsMarkdown(t *testing.T) {
	probed := []mpi.Probed{
		{Impl: &mpi.Impl{ID: "a"}},
		{Impl: &mpi.Impl{ID: "a-twin", TwinOf: "a"}},
	}
	rows := []Row{
		{RuleInfo: rulebook.RuleInfo{ID: "MPIT-X", Suite: "MPI_T"}, Impl: "a", Status: verdict.Pass},
		{RuleInfo: rulebook.RuleInfo{ID: "MPIT-X", Suite: "MPI_T"}, Impl: "a-twin", Status: verdict.Pass},
		{RuleInfo: rulebook.RuleInfo{ID: "QMPI-Y", Suite: "QMPI"}, Impl: "a", Status: verdict.Pass},
		{RuleInfo: rulebook.RuleInfo{ID: "QMPI-Y", Suite: "QMPI"}, Impl: "a-twin", Status: verdict.Unsupported},
	}
	if got := TwinsMarkdown(rows, probed); !strings.Contains(got, "1 give the same verdict on both: compiled in and unused") {
		t.Errorf("QMPI checks must be left out and the rest found equal:\n%s", got)
	}
	rows = append(rows, Row{RuleInfo: rulebook.RuleInfo{ID: "EVENTS-Z", Suite: "events"}, Impl: "a", Status: verdict.Pass}, Row{RuleInfo: rulebook.RuleInfo{ID: "EVENTS-Z", Suite: "events"}, Impl: "a-twin", Status: verdict.Fail, Reason: "r"})
	if got := TwinsMarkdown(rows, probed); !strings.Contains(got, "EVENTS-Z: pass on a (), fail on a-twin (r)") {
		t.Errorf("a differing verdict must be listed:\n%s", got)
	}
}
