package report

import (
	"fmt"
	"sort"

	"github.com/mpits/mpits/harness/verdict"
)

// CompareStatuses compares two runs' verdicts rule by rule, by status:
// every rule and implementation of either run, or, with implA set, the
// rules run a judged on implA against run b's verdicts on implB (a may
// judge a slice of b's rules). It returns a line for each difference and
// how many verdicts were compared. Side-by-side runs, and a prefix
// swapped for another MPI, are held to the verdicts of the run they
// repeat this way (ci/side-by-side, ci/prefix-swap).
func CompareStatuses(a, b Verdicts, implA, implB string) (diffs []string, compared int) {
	cells := func(v Verdicts, impl string) map[[2]string]verdict.Status {
		m := map[[2]string]verdict.Status{}
		for _, r := range v.Rows {
			switch {
			case impl == "":
				m[[2]string{r.ID, r.Impl}] = r.Status
			case r.Impl == impl:
				m[[2]string{r.ID, ""}] = r.Status
			}
		}
		return m
	}
	ca, cb := cells(a, implA), cells(b, implB)
	keys := map[[2]string]bool{}
	for k := range ca {
		keys[k] = true
	}
	if implA == "" {
		for k := range cb {
			keys[k] = true
		}
	}
	status := func(m map[[2]string]verdict.Status, k [2]string) string {
		if s, ok := m[k]; ok {
			return string(s)
		}
		return "missing"
	}
	for k := range keys {
		if sa, sb := status(ca, k), status(cb, k); sa != sb {
			where := k[1]
			if implA != "" {
				where = implA + "/" + implB
			}
			diffs = append(diffs, fmt.Sprintf("%s %s: %s vs %s", k[0], where, sa, sb))
		}
	}
	sort.Strings(diffs)
	return diffs, len(keys)
}

// ErrorCount is how many of a run's verdicts are the suite's errors: a rule
// left not judged by a named cause (the library died in a call the rule
// does not govern) is the library's, and the same in every run.
func ErrorCount(v Verdicts) int {
	n := 0
	for _, r := range v.Rows {
		if r.Status == verdict.Error && !r.NotJudged() {
			n++
		}
	}
	return n
}
