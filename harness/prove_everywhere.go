package harness

import (
	"sync"
)

// ProveEnv, set to "everywhere", runs each fault injector (and conforming
// shim) on every implementation where its rule gives the other verdict
// without it, not only on the cheapest one (ci/conformance sets it): a pass
// its injector does not turn on that implementation shows a judge that
// cannot see the fault there, and reports/matrix.md marks it.
const ProveEnv = "MPITS_PROVE"

func proveEverywhereOn() bool { return Setting(ProveEnv).String() == "everywhere" }

// Turn is what one injector or shim did to its rule on one implementation.
type Turn struct {
	Impl   string `json:"impl"`
	Turned bool   `json:"turned"` // the rule gave the verdict the library aims at
	Status Status `json:"status"` // its verdict under the library
	Reason string `json:"reason,omitempty"`
}

// TurnsEntry names the report entry of an injector spec that holds its
// turns (ci/conformance's reports read it).
const TurnsEntry = "turns"

// proveEverywhere judges r with lib preloaded on every implementation where
// r gives the other verdict without it, side by side.
func proveEverywhere(r Rule, lib string, want Status, impls []*Impl, envs map[string]*Env) []Turn {
	without := Pass
	if want == Pass {
		without = Fail
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
			turns[i] = &Turn{Impl: im.ID, Status: Error, Reason: "the library did not build: " + FirstLine(b.Error)}
			continue
		}
		wg.Add(1)
		go func(i int, e *Env, path string) {
			defer wg.Done()
			v := e.evaluate(r, []string{path}, want == Fail)
			turns[i] = &Turn{Impl: e.Impl.ID, Turned: v.Status == want, Status: v.Status, Reason: FirstLine(v.Reason)}
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
