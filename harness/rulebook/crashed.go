package rulebook

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// A crash inside the library, or a layer over it, is never "the suite
// broke": inside a call the rule governs it is the rule's fail; inside
// another it leaves the rule not judged, with a cause naming the call that
// is the same line for every rule it leaves (said once, notjudged.go).

// Crashed ends the rule's judgement when c places the job's death inside
// library calls: Fail when the rule governs every one of them, not judged
// (an error with a Cause) otherwise. It returns when c is nil.
func (x *X) Crashed(res *mpi.Result, c *mpi.Crash) {
	if c == nil {
		return
	}
	ev := c.String() + "\n\n" + openCallRecords(c) + res.Evidence()
	if x.rule != nil && governsAll(x.rule.Governs, c.Calls()) {
		panic(verdict.Verdict{Status: verdict.Fail, Reason: c.String() + ": a call this rule governs", Evidence: ev})
	}
	cause := x.Impl.ID + ": " + c.String()
	reason := "not judged: " + c.String()
	if x.rule != nil && len(x.rule.Governs) > 0 {
		reason += ", not a call this rule governs (" + strings.Join(x.rule.Governs, ", ") + ")"
	}
	panic(verdict.Verdict{Status: verdict.Error, Reason: reason, Evidence: ev, Cause: verdict.CauseLine(cause)})
}

// openCallRecords says which records placed the death, for the evidence.
func openCallRecords(c *mpi.Crash) string {
	var b strings.Builder
	for _, o := range c.In {
		fmt.Fprintf(&b, "rank %d: its last \"calling\" record without a \"returned\": %s\n", o.Rank, o.Call)
	}
	return b.String() + "\n"
}

// governsAll: every call is one of governs ("X_*" is a prefix).
func governsAll(governs, calls []string) bool {
	if len(governs) == 0 || len(calls) == 0 {
		return false
	}
	for _, call := range calls {
		if !Governed(governs, call) {
			return false
		}
	}
	return true
}

// Governed says whether call is one of governs ("X_*" is a prefix).
func Governed(governs []string, call string) bool {
	for _, g := range governs {
		if p, ok := strings.CutSuffix(g, "*"); ok && strings.HasPrefix(call, p) || g == call {
			return true
		}
	}
	return false
}

// WrittenRecords are the records a job's ranks wrote, also when some rank
// wrote none (MissingRecords' Partial): nil when they do not parse.
func WrittenRecords(recs *mpi.Records, err error) *mpi.Records {
	if recs != nil {
		return recs
	}
	var m *mpi.MissingRecords
	if errors.As(err, &m) {
		return m.Partial
	}
	return nil
}

// Whole ends the rule's judgement as JobOnce does for a job the judge
// launched itself (LaunchOnce) and judged what it could of first: a job
// that did not end well is placed by Crashed, or is an error; it returns
// the records of a job that did.
func (x *X) Whole(j mpi.Job, res *mpi.Result, recs *mpi.Records, err error) *mpi.Records {
	return x.mustBeWhole(j, res, recs, err)
}

// HowEnded is, for a job that did not end well, where it died when its
// records place it (Crash), or how it ended: for the reason of a rule
// failed on the records written before.
func HowEnded(j mpi.Job, res *mpi.Result, recs *mpi.Records) string {
	if c := mpi.CrashOf(res, recs, j.Ranks); c != nil {
		return c.String()
	}
	return res.Problem()
}
