package main

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness"
)

func TestTwinsMarkdown(t *testing.T) {
	probed := []harness.Probed{
		{Impl: &harness.Impl{ID: "a"}},
		{Impl: &harness.Impl{ID: "a-twin", TwinOf: "a"}},
	}
	rows := []Row{
		{RuleInfo: harness.RuleInfo{ID: "MPIT-X", Suite: "MPI_T"}, Impl: "a", Status: harness.Pass},
		{RuleInfo: harness.RuleInfo{ID: "MPIT-X", Suite: "MPI_T"}, Impl: "a-twin", Status: harness.Pass},
		{RuleInfo: harness.RuleInfo{ID: "QMPI-Y", Suite: "QMPI"}, Impl: "a", Status: harness.Pass},
		{RuleInfo: harness.RuleInfo{ID: "QMPI-Y", Suite: "QMPI"}, Impl: "a-twin", Status: harness.Unsupported},
	}
	if got := twinsMarkdown(rows, probed); !strings.Contains(got, "1 give the same verdict on both: compiled in and unused") {
		t.Errorf("QMPI checks must be left out and the rest found equal:\n%s", got)
	}
	rows = append(rows, Row{RuleInfo: harness.RuleInfo{ID: "EVENTS-Z", Suite: "events"}, Impl: "a", Status: harness.Pass}, Row{RuleInfo: harness.RuleInfo{ID: "EVENTS-Z", Suite: "events"}, Impl: "a-twin", Status: harness.Fail, Reason: "r"})
	if got := twinsMarkdown(rows, probed); !strings.Contains(got, "EVENTS-Z: pass on a (), fail on a-twin (r)") {
		t.Errorf("a differing verdict must be listed:\n%s", got)
	}
}
