package report

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// A pass is marked turned where one of the rule's injectors turned it on
// that implementation, and not turned where its injectors ran there and
// none did; a pass no injector ran on keeps its plain mark.
func TestMatrixMarksTurnedPasses(t *testing.T) {
	row := func(impl string, s verdict.Status) Row {
		return Row{RuleInfo: rulebook.RuleInfo{ID: "R-1", Basis: rulebook.Normative, Source: "MPI-5.0 §1"}, Impl: impl, Status: s}
	}
	idle := row("e", verdict.Unsupported)
	idle.Exercised = &verdict.Exercise{Judged: 3, Items: "readings"}
	passed := row("a", verdict.Pass)
	passed.Exercised = &verdict.Exercise{Judged: 3, Exposed: 2, Items: "readings"}
	crashed := row("f", verdict.Error)
	crashed.Cause = "f: the library crashed (SIGSEGV) in MPI_Comm_create_errhandler"
	rows := []Row{passed, row("b", verdict.Pass), row("c", verdict.Pass), row("d", verdict.Fail), idle, crashed, row("g", verdict.Error)}
	injs := []Injection{
		{Spec: "R-1 fails under inj1", Rule: "R-1", State: "passed", Turns: []harness.Turn{
			{Impl: "a", Turned: true, Status: verdict.Fail}, {Impl: "b", Turned: false, Status: verdict.Pass}}},
		{Spec: "R-1 fails under inj2", Rule: "R-1", State: "passed", Turns: []harness.Turn{
			{Impl: "b", Turned: false, Status: verdict.Pass}}},
	}
	md := MatrixMarkdown(rows, injs, []string{"a", "b", "c", "d", "e", "f", "g"})
	want := "| R-1 | MPI-5.0 §1 | pass (turned) | **pass, not turned** | pass | **FAIL** | unsupported | not judged | **ERROR** |"
	if !strings.Contains(md, want) {
		t.Errorf("matrix row: want %q in\n%s", want, md)
	}
	// an error naming its cause is counted not judged, apart from the suite's errors
	for _, line := range []string{"| a | 1 | 0 | 0 | 0 | 0 | 0 | 1 | 0 |", "| b | 1 | 0 | 0 | 0 | 0 | 0 | 0 | **1** |", "| c | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |",
		"| e | 0 | 0 | 1 | 1 | 0 | 0 | 0 | 0 |", "| f | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 0 |", "| g | 0 | 0 | 0 | 0 | 0 | **1** | 0 | 0 |"} {
		if !strings.Contains(md, line) {
			t.Errorf("summary: want %q in\n%s", line, md)
		}
	}
	if strings.Contains(md, "readings judged") || strings.Contains(md, "## Reasons") {
		t.Errorf("the matrix is a summary; a verdict's reason and what it exercised belong in verdicts.json:\n%s", md)
	}
	if md2 := MatrixMarkdown(rows, nil, []string{"a"}); strings.Contains(md2, "turned") {
		t.Errorf("a run without turns marks passes:\n%s", md2)
	}
}
