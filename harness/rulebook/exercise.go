package rulebook

import (
	"fmt"

	"github.com/mpits/mpits/harness/verdict"
)

// Passed is a pass that says what it exercised: judged items (what items
// names, plural), exposed of which could have shown a breach, and a reason
// that says what was seen in them.
func Passed(judged, exposed int, items, format string, args ...any) verdict.Verdict {
	return verdict.Verdict{Status: verdict.Pass, Reason: fmt.Sprintf(format, args...), Exercised: &verdict.Exercise{Judged: judged, Exposed: exposed, Items: items}}
}

// Exposed is Passed where every item judged could have shown a breach.
func Exposed(n int, items, format string, args ...any) verdict.Verdict {
	return Passed(n, n, items, format, args...)
}

// exerciseRequired: a pass without an Exercise is an error (the suite's
// fault). Every judge says what it exercised.
const exerciseRequired = true

// earned holds a pass to what it exercised: a pass that does not say is
// the suite's fault (an error), and one whose items could none of them
// have shown a breach is unsupported: the rule was not measurable here.
func earned(v verdict.Verdict) verdict.Verdict {
	e := v.Exercised
	switch {
	case e == nil && !exerciseRequired:
		return v
	case e == nil:
		return verdict.Verdict{Status: verdict.Error, Reason: "the suite broke: the judge passed without saying what it exercised (rulebook.Passed): " + v.Reason, Evidence: v.Evidence}
	case e.Judged < 0 || e.Exposed < 0 || e.Exposed > e.Judged || e.Items == "":
		return verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("the suite broke: the judge's exercise is impossible (%d judged, %d exposed, items %q): %s", e.Judged, e.Exposed, e.Items, v.Reason), Evidence: v.Evidence}
	case e.Judged == 0:
		return verdict.Verdict{Status: verdict.Unsupported, Reason: fmt.Sprintf("not measurable here: no %s to judge (%s)", e.Items, v.Reason), Evidence: v.Evidence, Exercised: e}
	case e.Exposed == 0:
		return verdict.Verdict{Status: verdict.Unsupported, Reason: fmt.Sprintf("not measurable here: none of the %d %s could have shown a breach (%s)", e.Judged, e.Items, v.Reason), Evidence: v.Evidence, Exercised: e}
	}
	return v
}
