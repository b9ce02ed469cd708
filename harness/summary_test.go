package harness

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

func spec(t *testing.T, state types.SpecState, j Judged, v *verdict.Verdict) types.SpecReport {
	sp := types.SpecReport{LeafNodeType: types.NodeTypeIt, State: state}
	for name, val := range map[string]any{"rule": j, "verdict": v} {
		if name == "verdict" && v == nil {
			continue
		}
		data, _ := json.Marshal(val)
		sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: name, Value: types.ReportEntryValue{AsJSON: string(data)}})
	}
	return sp
}

// The end of a failing run lists each failed rule with its implementation,
// source and reason, errors apart, and counts what was only reported.
func TestSummary(t *testing.T) {
	rule := func(id string, b rulebook.Basis) Judged {
		return Judged{RuleInfo: rulebook.RuleInfo{ID: id, Source: "MPI-5.0 §15.3.3", Basis: b}, Impl: "mpich-tools"}
	}
	r := types.Report{SuiteDescription: "MPI_T", SpecReports: types.SpecReports{
		spec(t, types.SpecStateFailed, rule("STR-3", rulebook.Normative), &verdict.Verdict{Status: verdict.Fail, Reason: "NULL buffer: rc 12\nevidence"}),
		spec(t, types.SpecStateFailed, rule("PVAR-31", rulebook.Normative), nil),
		spec(t, types.SpecStatePassed, rule("CVAR-9", rulebook.Quality), &verdict.Verdict{Status: verdict.Fail, Reason: "rc 3"}),
		spec(t, types.SpecStatePassed, rule("STR-1", rulebook.Normative), &verdict.Verdict{Status: verdict.Pass}),
	}}
	r.SpecReports[1].Failure.Message = "timed out"
	got := Summary(r)
	for _, want := range []string{
		"mpits MPI_T: 1 rules failed, 1 errors",
		"FAILED:\n  STR-3 on mpich-tools (MPI-5.0 §15.3.3, normative): NULL buffer: rc 12\n",
		"ERRORS:\n  PVAR-31 on mpich-tools (MPI-5.0 §15.3.3, normative): spec failed: timed out",
		"(1 quality/interpretation",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "STR-1") {
		t.Errorf("a pass is listed:\n%s", got)
	}
}

// In the process that ran the specs, entries hold Go values, not JSON: the
// summary printed at the end of a run reads those.
func TestSummaryInProcess(t *testing.T) {
	j := Judged{RuleInfo: rulebook.RuleInfo{ID: "STR-4", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative}, Impl: "openmpi-sid"}
	sp := types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateFailed, ReportEntries: []types.ReportEntry{
		{Name: "rule", Value: types.WrapEntryValue(j)},
		{Name: "verdict", Value: types.WrapEntryValue(verdict.Verdict{Status: verdict.Fail, Reason: "length 0: rc 0, length 35"})},
	}}
	got := Summary(types.Report{SuiteDescription: "MPI_T", SpecReports: types.SpecReports{sp}})
	if !strings.Contains(got, "STR-4 on openmpi-sid (MPI-5.0 §15.3.3, normative): length 0: rc 0, length 35") {
		t.Errorf("in-process entries not read:\n%s", got)
	}
}

// A long reason is cut on a character boundary.
func TestFirstLineKeepsCharacters(t *testing.T) {
	s := strings.Repeat("a", 299) + "…and more"
	if got := verdict.FirstLine(s); !utf8.ValidString(got) {
		t.Errorf("FirstLine cut a character: %q", got[len(got)-8:])
	}
}

// Rules left not judged are listed once per cause, with how many; a cause
// that left only quality rules is reported without failing the run.
func TestSummaryNotJudged(t *testing.T) {
	rule := func(id string, b rulebook.Basis, impl string) Judged {
		return Judged{RuleInfo: rulebook.RuleInfo{ID: id, Source: "MPI-5.0 §15.3.3", Basis: b}, Impl: impl}
	}
	probe := "alpha: the capability probe broke: build caps_after_init (`mpicc -o …/caps_after_init`) exited with status 1: no gcc"
	build := "beta: fixture q did not build: build q (`mpicc -o …/q`) exited with status 1: no q.h"
	notJudged := func(cause string) *verdict.Verdict {
		return &verdict.Verdict{Status: verdict.Error, Reason: "whatever", Cause: cause}
	}
	r := types.Report{SuiteDescription: "QMPI", SpecReports: types.SpecReports{
		spec(t, types.SpecStateSkipped, rule("R-1", rulebook.Normative, "alpha"), notJudged(probe)),
		spec(t, types.SpecStateSkipped, rule("R-2", rulebook.Quality, "alpha"), notJudged(probe)),
		spec(t, types.SpecStateSkipped, rule("R-2", rulebook.Quality, "beta"), notJudged(build)),
		spec(t, types.SpecStatePassed, rule("R-1", rulebook.Normative, "beta"), &verdict.Verdict{Status: verdict.Pass}),
	}}
	got := Summary(r)
	for _, want := range []string{
		"mpits QMPI: 0 rules failed, 0 errors (the suite or a fixture broke), 0 quality/interpretation verdicts reported, 3 rules not judged (2 causes)\n",
		"NOT JUDGED:\n  [2 rules] " + probe + "\n  [1 rule] " + build + " [quality/interpretation rules only: reported, not failing the run]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "ERRORS") || strings.Contains(got, "whatever") {
		t.Errorf("a rule not judged is listed as an error:\n%s", got)
	}
	// the run fails for the probe's cause, not for the quality rule's
	if got := setupFailure(r, true); !strings.HasPrefix(got, "2 rules not judged on alpha, for 1 cause: ") || !strings.HasSuffix(got, ":\n  [2 rules] "+probe) {
		t.Errorf("the setup's failure is %q, want the probe's cause alone", got)
	}
	r.SpecReports = r.SpecReports[2:]
	if got := setupFailure(r, false); got != "" {
		t.Errorf("a cause of quality rules only fails the run: %q", got)
	}
}
