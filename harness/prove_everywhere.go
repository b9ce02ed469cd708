package harness

import (
	"sync"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

func proveEverywhereOn() bool { return settings.Setting(settings.ProveEnv).String() == "everywhere" }

// Turn is what one injector or shim did to its rule on one implementation.
type Turn struct {
	Impl   string         `json:"impl"`
	Turned bool           `json:"turned"` // the rule gave the verdict the library aims at
	Status verdict.Status `json:"status"` // its verdict under the library
	Reason string         `json:"reason,omitempty"`
	// Evidence, of a turn that missed only: the end of what the verdict
	// holds, so that a miss seen once can be looked into.
	Evidence string `json:"evidence,omitempty"`
}

// ProofEntry names the report entry an injector or shim spec records first
// of all: the rule it proves able to fail (or pass) and under which
// library. Reports read the rule from it, not from the spec's text.
const ProofEntry = "proof"

// Proof is what ProofEntry holds.
type Proof struct {
	Rule    string         `json:"rule"`
	Library string         `json:"library"`
	Want    verdict.Status `json:"want"` // fail under an injector, pass under a shim
}

// TurnsEntry names the report entry of an injector spec that holds its
// turns (ci/conformance's reports read it).
const TurnsEntry = "turns"

// proveEverywhere judges r with lib preloaded on every implementation where
// r gives the other verdict without it, side by side.
func proveEverywhere(r rulebook.Rule, lib string, want verdict.Status, impls []*mpi.Impl, envs map[string]*rulebook.Env) []Turn {
	without := verdict.Pass
	if want == verdict.Pass {
		without = verdict.Fail
	}
	turns := make([]*Turn, len(impls))
	var wg sync.WaitGroup
	for i, im := range impls {
		e := envs[im.ID]
		if e == nil || evaluateOnce(r, e).Status != without {
			continue
		}
		b := e.Fixtures[lib]
		if b.Error != "" {
			turns[i] = &Turn{Impl: im.ID, Status: verdict.Error, Reason: "the library did not build: " + verdict.FirstLine(b.Error)}
			continue
		}
		wg.Add(1)
		go func(i int, e *rulebook.Env, path string) {
			defer wg.Done()
			v := e.EvaluateWith(r, []string{path}, want == verdict.Fail)
			t := &Turn{Impl: e.Impl.ID, Turned: v.Status == want, Status: v.Status, Reason: verdict.FirstLine(v.Reason)}
			if !t.Turned {
				t.Evidence = mpi.Tail(v.Evidence, 2000)
			}
			turns[i] = t
		}(i, e, b.Path)
	}
	wg.Wait()
	var out []Turn
	for _, t := range turns {
		if t != nil {
			out = append(out, *t)
		}
	}
	return out
}
