package harness

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

// Summary is what a vendor reads at the end of a run: one line per rule
// verdict that failed the run (fail first, then error), with its id,
// implementation, source and one-line reason; one line per cause that left
// rules not judged (notjudged.go), with how many; then a count of the
// quality and interpretation verdicts reported without failing it.
func Summary(r types.Report) string {
	var fails, errs, reported []string
	for _, sp := range r.SpecReports {
		j, v, ok := judgedVerdict(sp)
		if !ok || (v.Status != verdict.Fail && v.Status != verdict.Error) || expectedSpec(sp) || v.Cause != "" {
			continue
		}
		line := fmt.Sprintf("  %s on %s (%s, %s): %s", j.ID, j.Impl, j.Source, j.Basis, verdict.FirstLine(v.Reason))
		switch {
		case sp.State.Is(types.SpecStatePassed):
			reported = append(reported, line)
		case v.Status == verdict.Fail:
			fails = append(fails, line)
		default:
			errs = append(errs, line)
		}
	}
	causes := notJudgedCauses(r)
	if len(fails)+len(errs)+len(reported)+len(causes) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nmpits %s: %d rules failed, %d errors (the suite or a fixture broke), %d quality/interpretation verdicts reported", r.SuiteDescription, len(fails), len(errs), len(reported))
	if len(causes) > 0 {
		n := 0
		for _, c := range causes {
			n += c.Rules
		}
		fmt.Fprintf(&b, ", %s not judged (%s)", verdict.Plural(n, "rule"), verdict.Plural(len(causes), "cause"))
	}
	b.WriteString("\n")
	sort.Strings(fails)
	sort.Strings(errs)
	for _, part := range []struct {
		title string
		lines []string
	}{{"FAILED", fails}, {"ERRORS", errs}, {"NOT JUDGED", notJudgedLines(causes)}} { // causes come sorted
		if len(part.lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n%s\n", part.title, strings.Join(part.lines, "\n"))
	}
	if len(reported) > 0 {
		fmt.Fprintf(&b, "(%d quality/interpretation fails or errors are in the report, not failing the run: set %s=quality to fail on them)\n", len(reported), settings.StrictEnv)
	}
	return b.String()
}

// judgedVerdict reads the rule, implementation and verdict a spec recorded.
func judgedVerdict(sp types.SpecReport) (Judged, verdict.Verdict, bool) {
	var j Judged
	var v verdict.Verdict
	for _, e := range sp.ReportEntries {
		switch e.Name {
		case "rule":
			entryValue(e, &j)
		case "verdict":
			entryValue(e, &v)
		}
	}
	if j.ID == "" {
		return j, v, false
	}
	if v.Status == "" && !sp.State.Is(types.SpecStatePassed|types.SpecStateSkipped) {
		// broke before recording a verdict: a panic, a timeout, an interrupt
		v = verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("spec %s: %s", sp.State, sp.Failure.Message)}
	}
	return j, v, true
}

// entryValue reads a report entry into out: in the process that recorded it
// the entry holds the Go value (its JSON is filled in only when the report
// is written); in a report read back, only the JSON.
func entryValue[T any](e types.ReportEntry, out *T) {
	if raw, ok := e.Value.GetRawValue().(T); ok {
		*out = raw
		return
	}
	json.Unmarshal([]byte(e.Value.AsJSON), out)
}
