package rulebook

import (
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// ProbeCause is why no rule on e can be judged: its capability probe
// broke. "" when it did not (or the implementation is unavailable, which
// is no failure).
func (e *Env) ProbeCause() string {
	if e == nil || e.Caps == nil || !e.Caps.Available || len(e.Caps.Problems) == 0 {
		return ""
	}
	return e.Impl.ID + ": the capability probe broke: " + verdict.CauseLine(verdict.FirstAndMore(e.Caps.Problems))
}

// Env is one implementation as the suite sees it after setup.
type Env struct {
	Impl     *mpi.Impl            `json:"impl"`
	Caps     *mpi.Caps            `json:"caps"`
	Fixtures map[string]mpi.Built `json:"fixtures"`
	All      []*Env               `json:"-"` // every implementation of the run
	Tape     *Tape                `json:"-"` // a corpus replay's: jobs come from it (Corpus.Envs)
}

// InjectorContainer is the text of the container of the fault-injector
// specs, which reports tell apart from verdicts.
const InjectorContainer = "fault injectors"

// Evaluate judges r on this implementation with the injectors preloaded:
// an implementation that is unavailable gives unsupported, a broken
// capability probe an error, without judging.
func (e *Env) Evaluate(r Rule, preload []string) verdict.Verdict {
	return e.EvaluateWith(r, preload, false)
}

// evaluate is Evaluate, telling whether the preloaded libraries are fault
// injectors.
func (e *Env) EvaluateWith(r Rule, preload []string, injecting bool) verdict.Verdict {
	if e.Caps != nil && !e.Caps.Available {
		return verdict.Verdict{Status: verdict.Unsupported, Reason: "implementation unavailable: " + e.Caps.Reason}
	}
	if c := e.ProbeCause(); c != "" {
		// What the implementation can do is unknown: no verdict can be true.
		return verdict.Verdict{Status: verdict.Error, Reason: "the capability probe broke: " + e.Caps.Problems[0], Evidence: strings.Join(e.Caps.Problems, "\n"), Cause: c}
	}
	x := e.X()
	x.Preload, x.Injecting = preload, injecting
	return Evaluate(r, x)
}

// X is what a check runs with on this implementation.
func (e *Env) X() *X {
	return &X{Impl: e.Impl, Caps: e.Caps, Fixtures: e.Fixtures, All: e.All, tape: e.Tape}
}

// On is e's X judging the rule x judges: a job of e's implementation that
// dies inside an announced call is placed by that rule's Governs, whichever
// implementation's judgement ran the job first.
func (x *X) On(e *Env) *X {
	y := e.X()
	y.rule = x.rule
	return y
}

// Own is the Env of x's implementation in the run: its X launches without
// the injectors x preloads, and replays from x's tape in a corpus test.
func (x *X) Own() *Env {
	for _, e := range x.All {
		if e.Impl.ID == x.Impl.ID {
			return e
		}
	}
	return &Env{Impl: x.Impl, Caps: x.Caps, Fixtures: x.Fixtures, All: x.All, Tape: x.tape}
}
