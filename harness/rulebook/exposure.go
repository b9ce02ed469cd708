package rulebook

import (
	"github.com/mpits/mpits/harness/verdict"
)

// An Exposure declares, beside a rule, what makes one judged item able to
// show the rule's breach: one predicate on what the records say of the item
// (the variable is writable, the value moved, the call answered). The judge
// hands it every item it judged (Pass); the exposed count is the
// predicate's, never the judge's own arithmetic, and a rule that declares
// an Exposure passes through it or not at all (Evaluate checks).
type Exposure[T any] struct {
	Items string // what an item is, plural: "pvar readings"
	// When says in words which items the predicate holds for, and why
	// only those could show the breach; "" with Could nil: every item.
	When  string
	Could func(T) bool // nil: every judged item could show the breach
}

// Pass is the judge's pass over items: all judged, exposed those Could
// holds for. With none exposed, the pass is unsupported (earned).
func (e Exposure[T]) Pass(items []T, format string, args ...any) verdict.Verdict {
	n := 0
	for _, it := range items {
		if e.Could == nil || e.Could(it) {
			n++
		}
	}
	v := Passed(len(items), n, e.Items, format, args...)
	v.Exercised.Predicate = e.Declared().String()
	return v
}

// Declared is the exposure in words, as the rule and the catalogue carry it.
func (e Exposure[T]) Declared() Declared {
	when := e.When
	if e.Could == nil && when == "" {
		when = "every item judged"
	}
	return Declared{Items: e.Items, When: when}
}

// Declared is an Exposure as a Rule declares it: what its items are and
// which of them could show a breach.
type Declared struct {
	Items string
	When  string
}

func (d Declared) String() string {
	if d.Items == "" {
		return ""
	}
	return d.Items + ": exposed " + d.When
}

// undeclaredPass says why a pass of r did not come through its declared
// exposure, or "" when it did (or r declares none).
func undeclaredPass(r Rule, v verdict.Verdict) string {
	want := r.Exposure.String()
	if want == "" || v.Status != verdict.Pass || v.Exercised == nil {
		return ""
	}
	if got := v.Exercised.Predicate; got != want {
		if got == "" {
			got = "its own count"
		}
		return "the suite broke: rule " + r.ID + " declares its exposure as " + want + ", but its judge counted by " + got
	}
	return ""
}
