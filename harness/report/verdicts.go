package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

// Row is one verdict of the matrix: a rule on an implementation, with the
// rule's id, source and basis.
type Row struct {
	rulebook.RuleInfo
	Impl    string         `json:"impl"`
	Version string         `json:"version"` // the library's own version string
	Status  verdict.Status `json:"status"`
	Reason  string         `json:"reason,omitempty"`
	// Exercised is what the judge exercised (every pass says).
	Exercised *verdict.Exercise `json:"exercised,omitempty"`
	// Cause, on an error, is what left the rule not judged (the library
	// died in a call the rule does not govern, a fixture did not build):
	// such a row is "not judged", not the suite's error (NotJudged).
	Cause string `json:"cause,omitempty"`
}

// NotJudged says whether the row is an error that names its cause: the rule
// was left not judged by the library or the build, not by the suite.
func (r Row) NotJudged() bool { return r.Status == verdict.Error && r.Cause != "" }

// Injection is one fault-injector spec: the rule must fail under it.
type Injection struct {
	Spec   string `json:"spec"`
	Rule   string `json:"rule"`
	State  string `json:"state"` // passed: the injector made the check fail
	Detail string `json:"detail,omitempty"`
	// Turns: what the library did on every implementation where the rule
	// gives the other verdict without it (runs with MPITS_PROVE=everywhere).
	Turns []harness.Turn `json:"turns,omitempty"`
}

// ReadRuns decodes every Ginkgo JSON report in dir.
func ReadRuns(dir string) ([]types.Report, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []types.Report
	for _, f := range files {
		if filepath.Base(f) == "capabilities.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var reps []types.Report
		if err := json.Unmarshal(data, &reps); err != nil {
			return nil, fmt.Errorf("%s is not a Ginkgo JSON report: %v", f, err)
		}
		out = append(out, reps...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no Ginkgo JSON report in %s: run the suites with -ginkgo.json-report first (ci/conformance does)", dir)
	}
	return out, nil
}

// Collect turns specs into verdict rows and injector results.
func Collect(runs []types.Report, versions map[string]string) ([]Row, []Injection) {
	var rows []Row
	var injs []Injection
	for _, run := range runs {
		for _, sp := range run.SpecReports {
			if sp.LeafNodeType != types.NodeTypeIt {
				continue
			}
			if injectorSpec(sp) {
				injs = append(injs, Injection{Spec: sp.LeafNodeText, Rule: proofOf(sp).Rule,
					State: sp.State.String(), Detail: verdict.FirstLine(sp.Failure.Message), Turns: turnsOf(sp)})
				continue
			}
			j, ok := judgedBy(sp)
			if !ok {
				continue
			}
			r := Row{RuleInfo: j.RuleInfo, Impl: j.Impl, Version: versions[j.Impl]}
			v := verdictOf(sp)
			r.Status, r.Reason, r.Exercised, r.Cause = v.Status, v.Reason, v.Exercised, v.Cause
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].ID != rows[j].ID {
			return rows[i].ID < rows[j].ID
		}
		return rows[i].Impl < rows[j].Impl
	})
	return rows, injs
}

// injectorSpec says whether sp is a fault-injector or shim spec, which
// proves a rule rather than judging an implementation.
func injectorSpec(sp types.SpecReport) bool {
	return len(sp.ContainerHierarchyTexts) > 0 && sp.ContainerHierarchyTexts[0] == rulebook.InjectorContainer
}

// proofOf reads which rule an injector or shim spec proves, and under
// which library; a spec that broke before recording it has none.
func proofOf(sp types.SpecReport) harness.Proof {
	for _, e := range sp.ReportEntries {
		var p harness.Proof
		if e.Name == harness.ProofEntry && json.Unmarshal([]byte(e.Value.AsJSON), &p) == nil {
			return p
		}
	}
	return harness.Proof{}
}

// turnsOf reads an injector spec's turns, if it recorded them.
func turnsOf(sp types.SpecReport) []harness.Turn {
	for _, e := range sp.ReportEntries {
		var t []harness.Turn
		if e.Name == harness.TurnsEntry && json.Unmarshal([]byte(e.Value.AsJSON), &t) == nil {
			return t
		}
	}
	return nil
}

// judgedBy reads the rule and implementation a spec judges, which it
// records first of all.
func judgedBy(sp types.SpecReport) (harness.Judged, bool) {
	for _, e := range sp.ReportEntries {
		var j harness.Judged
		if e.Name == "rule" && json.Unmarshal([]byte(e.Value.AsJSON), &j) == nil && j.ID != "" && j.Impl != "" {
			return j, true
		}
	}
	return harness.Judged{}, false
}

// verdictOf reads the verdict the spec recorded (its reason's first line,
// no evidence); a spec that broke before recording one (panic, timeout,
// interrupt) is an error.
func verdictOf(sp types.SpecReport) verdict.Verdict {
	for _, e := range sp.ReportEntries {
		if e.Name != "verdict" {
			continue
		}
		var v verdict.Verdict
		if json.Unmarshal([]byte(e.Value.AsJSON), &v) == nil && v.Status != "" {
			return verdict.Verdict{Status: v.Status, Reason: verdict.FirstLine(v.Reason), Exercised: v.Exercised, Cause: v.Cause}
		}
	}
	switch sp.State {
	case types.SpecStatePassed:
		return verdict.Verdict{Status: verdict.Pass}
	case types.SpecStateSkipped:
		if why, ok := strings.CutPrefix(sp.Failure.Message, harness.NotReachedPrefix); ok {
			return verdict.Verdict{Status: verdict.NotReached, Reason: verdict.FirstLine(why)}
		}
		return verdict.Verdict{Status: verdict.Unsupported, Reason: verdict.FirstLine(strings.TrimPrefix(sp.Failure.Message, "unsupported: "))}
	}
	return verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("spec %s: %s", sp.State, verdict.FirstLine(sp.Failure.Message))}
}

// EvidenceOf is the evidence of rule's verdict on impl in runs: what the
// verdict recorded, or the failure of a spec that broke before recording
// one; "" when the runs do not judge it.
func EvidenceOf(runs []types.Report, rule, impl string) string {
	for _, run := range runs {
		for _, sp := range run.SpecReports {
			if injectorSpec(sp) {
				continue
			}
			if j, ok := judgedBy(sp); !ok || j.ID != rule || j.Impl != impl {
				continue
			}
			for _, e := range sp.ReportEntries {
				var v verdict.Verdict
				if e.Name == "verdict" && json.Unmarshal([]byte(e.Value.AsJSON), &v) == nil && v.Status != "" {
					return v.Evidence
				}
			}
			return sp.Failure.Message
		}
	}
	return ""
}
