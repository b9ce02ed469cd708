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
		{Check: "MPIT-X", Impl: "a", Status: harness.Pass},
		{Check: "MPIT-X", Impl: "a-twin", Status: harness.Pass},
		{Check: "QMPI-Y", Impl: "a", Status: harness.Pass},
		{Check: "QMPI-Y", Impl: "a-twin", Status: harness.Unsupported},
	}
	if got := twinsMarkdown(rows, probed); !strings.Contains(got, "1 give the same verdict on both: compiled in and unused") {
		t.Errorf("QMPI checks must be left out and the rest found equal:\n%s", got)
	}
	rows = append(rows, Row{Check: "EVENTS-Z", Impl: "a", Status: harness.Pass}, Row{Check: "EVENTS-Z", Impl: "a-twin", Status: harness.Fail, Reason: "r"})
	if got := twinsMarkdown(rows, probed); !strings.Contains(got, "EVENTS-Z: pass on a (), fail on a-twin (r)") {
		t.Errorf("a differing verdict must be listed:\n%s", got)
	}
}
