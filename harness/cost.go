package harness

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// What a launch costs differs by an order of magnitude between
// implementations here (MPICH's launcher about 0.1 s for two ranks, Open MPI
// 6's 2 s), so work that any implementation can do (an injector proof) is
// given to the one whose launched jobs have taken least so far (the median:
// a few valgrind runs of minutes must not make MPICH look dear).
var launchCosts struct {
	sync.Mutex
	took map[string][]time.Duration
}

// noteLaunch adds a launched job's wall time to its implementation's tally.
func noteLaunch(impl string, d time.Duration) {
	launchCosts.Lock()
	defer launchCosts.Unlock()
	if launchCosts.took == nil {
		launchCosts.took = map[string][]time.Duration{}
	}
	launchCosts.took[impl] = append(launchCosts.took[impl], d)
}

// cheapestFirst orders impls by the median wall time of their launched jobs
// in this process, those without a launch last, ties in the given order.
func cheapestFirst(impls []*Impl) []*Impl {
	launchCosts.Lock()
	median := map[string]time.Duration{}
	for _, im := range impls {
		if took := launchCosts.took[im.ID]; len(took) > 0 {
			median[im.ID] = slices.Sorted(slices.Values(took))[len(took)/2]
		}
	}
	launchCosts.Unlock()
	out := append([]*Impl(nil), impls...)
	sort.SliceStable(out, func(i, j int) bool {
		a, aok := median[out[i].ID]
		b, bok := median[out[j].ID]
		if aok != bok {
			return aok
		}
		return aok && a < b
	})
	return out
}
