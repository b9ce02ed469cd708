package verdict

import (
	"fmt"
)

// Status is a check's verdict on one implementation.
type Status string

const (
	Pass        Status = "pass"
	Fail        Status = "fail"        // the implementation broke the rule (with evidence)
	Unsupported Status = "unsupported" // the capability is missing (with the measured reason)
	Error       Status = "error"       // the fixture or the suite broke: a crash or hang outside a library call, no records
)

// NotJudged is no verdict's status: it counts, in progress lines and
// summaries, the errors that name their Cause (the library died in a call
// the rule does not govern, a fixture did not build), apart from the
// suite's own errors.
const NotJudged Status = "not judged"

// NotReached is no verdict either: the run ended (an interrupt, its
// deadline) before the rule was judged on the implementation. Only an
// interrupted run's outputs carry it.
const NotReached Status = "not reached"

// Verdict is the outcome of one check on one implementation.
type Verdict struct {
	Status   Status `json:"status"`
	Reason   string `json:"reason,omitempty"`   // one line
	Evidence string `json:"evidence,omitempty"` // records or an output excerpt
	// Exercised is what the judge exercised. Every pass carries it (Passed);
	// a fail may.
	Exercised *Exercise `json:"exercised,omitempty"`
	// Cause, on an error, is what left the rule not judged: the
	// implementation's capability probe broke, a fixture did not build, or
	// the library died inside a call the rule does not govern.
	// It is one line naming the command, how it ended and what it said, the
	// same for every rule it leaves, which the run reports once (notjudged.go).
	Cause string `json:"cause,omitempty"`
}

// FirstAndMore is a list as one line: its first item, and how many more.
func FirstAndMore(list []string) string {
	switch len(list) {
	case 0:
		return ""
	case 1:
		return list[0]
	}
	return fmt.Sprintf("%s (and %d more)", list[0], len(list)-1)
}

// Exercise is what a judge exercised to reach its verdict: the items it
// judged (calls, variables, readings, prototypes) and how many of them
// could have shown a breach (moved, answered, were written, were compared).
// A pass of a rule that nothing could have broken proves nothing, so the
// harness makes it unsupported (earned), for every rule alike.
type Exercise struct {
	Judged  int    `json:"judged"`
	Exposed int    `json:"exposed"`
	Items   string `json:"items"` // what an item is, plural: "pvar readings"
	// Predicate is the rule's declared exposure (rulebook.Exposure) the
	// exposed count came from, in words; "" where the judge counted.
	Predicate string `json:"predicate,omitempty"`
}

func (e Exercise) String() string {
	if e.Exposed == e.Judged {
		return fmt.Sprintf("%d %s judged", e.Judged, e.Items)
	}
	return fmt.Sprintf("%d %s judged, %d of them could have shown a breach", e.Judged, e.Items, e.Exposed)
}

// EndsJudgement: a verdict raised as a panic ends the rule as meant
// (mpi.StopOf).
func (Verdict) EndsJudgement() {}
