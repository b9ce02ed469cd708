package harness

import "fmt"

// Exercise is what a judge exercised to reach its verdict: the items it
// judged (calls, variables, readings, prototypes) and how many of them
// could have shown a breach (moved, answered, were written, were compared).
// A pass of a rule that nothing could have broken proves nothing, so the
// harness makes it unsupported (earned), for every rule alike.
type Exercise struct {
	Judged  int    `json:"judged"`
	Exposed int    `json:"exposed"`
	Items   string `json:"items"` // what an item is, plural: "pvar readings"
}

func (e Exercise) String() string {
	if e.Exposed == e.Judged {
		return fmt.Sprintf("%d %s judged", e.Judged, e.Items)
	}
	return fmt.Sprintf("%d %s judged, %d of them could have shown a breach", e.Judged, e.Items, e.Exposed)
}

// Passed is a pass that says what it exercised: judged items (what items
// names, plural), exposed of which could have shown a breach, and a reason
// that says what was seen in them.
func Passed(judged, exposed int, items, format string, args ...any) Verdict {
	return Verdict{Status: Pass, Reason: fmt.Sprintf(format, args...), Exercised: &Exercise{Judged: judged, Exposed: exposed, Items: items}}
}

// Exposed is Passed where every item judged could have shown a breach.
func Exposed(n int, items, format string, args ...any) Verdict {
	return Passed(n, n, items, format, args...)
}

// exerciseRequired: a pass without an Exercise is an error (the suite's
// fault). Every judge says what it exercised.
const exerciseRequired = true

// earned holds a pass to what it exercised: a pass that does not say is
// the suite's fault (an error), and one whose items could none of them
// have shown a breach is unsupported: the rule was not measurable here.
func earned(v Verdict) Verdict {
	e := v.Exercised
	switch {
	case e == nil && !exerciseRequired:
		return v
	case e == nil:
		return Verdict{Status: Error, Reason: "the suite broke: the judge passed without saying what it exercised (harness.Passed): " + v.Reason, Evidence: v.Evidence}
	case e.Judged < 0 || e.Exposed < 0 || e.Exposed > e.Judged || e.Items == "":
		return Verdict{Status: Error, Reason: fmt.Sprintf("the suite broke: the judge's exercise is impossible (%d judged, %d exposed, items %q): %s", e.Judged, e.Exposed, e.Items, v.Reason), Evidence: v.Evidence}
	case e.Judged == 0:
		return Verdict{Status: Unsupported, Reason: fmt.Sprintf("not measurable here: no %s to judge (%s)", e.Items, v.Reason), Evidence: v.Evidence, Exercised: e}
	case e.Exposed == 0:
		return Verdict{Status: Unsupported, Reason: fmt.Sprintf("not measurable here: none of the %d %s could have shown a breach (%s)", e.Judged, e.Items, v.Reason), Evidence: v.Evidence, Exercised: e}
	}
	return v
}
