package report

import (
	"encoding/json"
	"testing"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

func entry(t *testing.T, name string, v any) types.ReportEntry {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return types.ReportEntry{Name: name, Value: types.ReportEntryValue{AsJSON: string(data)}}
}

// A rule's spec becomes one row with the rule's description and the
// verdict it recorded; a spec that broke before its verdict is an error;
// an injector spec is an injection, not a verdict, of the rule its proof
// entry names.
func TestCollect(t *testing.T) {
	run := strRun(t)
	rows, injs := Collect([]types.Report{run}, map[string]string{"a": "1.0"})
	if len(rows) != 2 || len(injs) != 1 {
		t.Fatalf("got %d rows and %d injections, want 2 and 1", len(rows), len(injs))
	}
	if r := rows[0]; r.ID != "STR-3" || r.Impl != "a" || r.Version != "1.0" || r.Status != verdict.Fail || r.Reason != "source 0: rc 1" || r.Basis != rulebook.Normative || r.Source != "MPI-5.0 §15.3.3" {
		t.Errorf("row a: %+v", r)
	}
	if r := rows[1]; r.Impl != "b" || r.Status != verdict.Error {
		t.Errorf("row b: %+v", r)
	}
	if in := injs[0]; in.Rule != "STR-3" || in.State != "passed" {
		t.Errorf("injection: %+v", in)
	}
}

// A differing verdict is printed with its evidence: the verdict's own, or
// the failure of a spec that broke before recording one; never an
// injector spec's.
func TestEvidenceOf(t *testing.T) {
	runs := []types.Report{strRun(t)}
	for impl, want := range map[string]string{"a": "rank 0 stderr: Abort(1)", "b": "timed out", "c": ""} {
		if got := EvidenceOf(runs, "STR-3", impl); got != want {
			t.Errorf("evidence of STR-3 on %s: %q, want %q", impl, got, want)
		}
	}
}

// strRun is a run of STR-3: a fail on a, a timeout on b, an injector spec.
func strRun(t *testing.T) types.Report {
	info := rulebook.RuleInfo{ID: "STR-3", Suite: "MPI_T", Check: "MPIT-STRINGS", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Rule: "NULL buffer"}
	judged := func(impl string) harness.Judged { return harness.Judged{RuleInfo: info, Impl: impl} }
	return types.Report{SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"MPIT-STRINGS: strings", "STR-3: NULL buffer"}, State: types.SpecStateFailed,
			ReportEntries: types.ReportEntries{entry(t, "rule", judged("a")), entry(t, "verdict", verdict.Verdict{Status: verdict.Fail, Reason: "source 0: rc 1\nmore", Evidence: "rank 0 stderr: Abort(1)"})}},
		{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"MPIT-STRINGS: strings", "STR-3: NULL buffer"}, State: types.SpecStateTimedout,
			Failure: types.Failure{Message: "timed out"}, ReportEntries: types.ReportEntries{entry(t, "rule", judged("b"))}},
		{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{rulebook.InjectorContainer}, LeafNodeText: "STR-3 fails under inject_x", State: types.SpecStatePassed,
			ReportEntries: types.ReportEntries{entry(t, harness.ProofEntry, harness.Proof{Rule: "STR-3", Library: "inject_x", Want: verdict.Fail}), entry(t, "rule", judged("c"))}},
	}}
}
