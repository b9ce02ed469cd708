package harness

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// One cause, one line. When an implementation's capability probe breaks
// (its compiler wrapper refuses the probe, its launcher hangs), no rule on
// it can be judged; when a fixture does not build, no rule that runs it
// can; when the library dies inside a call a rule does not govern
// (rulebook.Crashed), that rule cannot. Such a rule's verdict is an error
// with a Cause, the same line for every rule it leaves, naming the
// implementation, the command (or the call), how it ended and the end of
// what it said. The cause is said once on the console when the run meets
// it (progress); each rule it leaves ends skipped, "not
// judged: <cause>", with no failure and no stack trace of its own; the run
// fails once for it, in the suite node "mpits setup" (SetupNode), whose
// failure names the implementations on the console and lists every cause
// in JUnit; and the mpits summary lists each cause once, with how many
// rules it left.

// SetupNode is the text of the suite node that fails the run when rules
// were left not judged: Ginkgo's summary and JUnit name it.
const SetupNode = "mpits setup"

// notJudged ends the spec of a rule that v says was left not judged:
// skipped, naming the cause. It returns for any other verdict.
func notJudged(v verdict.Verdict) {
	if v.Cause == "" {
		return
	}
	v.Evidence = capText(v.Evidence, evidenceCap)
	ginkgo.AddReportEntry("verdict", v, quiet)
	ginkgo.Skip("not judged: " + v.Cause)
}

// A cause as the end of a run reports it: how many of the selected rules
// it left not judged, and whether one of them fails the run when it is not
// judged (Strict).
type notJudgedCause struct {
	Cause  string
	Rules  int
	Impls  []string // of the rules
	Strict bool
}

// notJudgedCauses are the causes of the rules a run left not judged,
// sorted, from its report.
func notJudgedCauses(r types.Report) []notJudgedCause {
	by := map[string]*notJudgedCause{}
	for _, sp := range r.SpecReports {
		j, v, ok := judgedVerdict(sp)
		if !ok || v.Cause == "" || !sp.State.Is(types.SpecStateSkipped) || expectedSpec(sp) {
			continue // judged, or its error accepted by the expectations file
		}
		c := by[v.Cause]
		if c == nil {
			c = &notJudgedCause{Cause: v.Cause}
			by[v.Cause] = c
		}
		c.Rules++
		if !slices.Contains(c.Impls, j.Impl) {
			c.Impls = append(c.Impls, j.Impl)
		}
		c.Strict = c.Strict || rulebook.Strict(j.Basis, r.SuiteConfig.LabelFilter)
	}
	out := make([]notJudgedCause, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Cause < out[k].Cause })
	return out
}

// notJudgedLines are the causes, one line each.
func notJudgedLines(causes []notJudgedCause) []string {
	var lines []string
	for _, c := range causes {
		line := fmt.Sprintf("  [%s] %s", verdict.Plural(c.Rules, "rule"), c.Cause)
		if !c.Strict {
			line += " [quality/interpretation rules only: reported, not failing the run]"
		}
		lines = append(lines, line)
	}
	return lines
}

// failSetup is the body of SetupNode: it fails the run once when a cause
// left a rule not judged that fails the run when it is not judged. The
// console has each cause's line already (progress) and gets it again at
// the end (Summary), so its message names the implementations only;
// JUnit's has the lines (setupFailure).
func failSetup(r types.Report) {
	if msg := setupFailure(r, false); msg != "" {
		ginkgo.Fail(msg)
	}
}

// setupFailure is SetupNode's failure for the run's report, with every
// cause's line when lines is set; "" when it does not fail.
func setupFailure(r types.Report, lines bool) string {
	var failing []notJudgedCause
	var impls []string
	rules := 0
	for _, c := range notJudgedCauses(r) {
		if !c.Strict {
			continue
		}
		failing = append(failing, c)
		rules += c.Rules
		for _, im := range c.Impls {
			if !slices.Contains(impls, im) {
				impls = append(impls, im)
			}
		}
	}
	if len(failing) == 0 {
		return ""
	}
	sort.Strings(impls)
	msg := fmt.Sprintf("%s not judged on %s, for %s: the run fails once for each, and its rules are skipped", verdict.Plural(rules, "rule"), strings.Join(impls, ", "), verdict.Plural(len(failing), "cause"))
	if !lines {
		return msg + " (each cause is one line under NOT JUDGED in the mpits summary at the end)"
	}
	return msg + ":\n" + strings.Join(notJudgedLines(failing), "\n")
}
