package rulebook

import (
	"sort"

	"github.com/mpits/mpits/harness/mpi"
)

// What a launch costs differs by an order of magnitude between
// implementations here (MPICH's launcher about 0.1 s for one rank, Open MPI
// 6's 1.7 s), so work that any implementation can do (an injector proof) is
// given to the one whose capability probe, a one-rank MPI job of every run,
// took least (Caps.ProbeMS): known before any rule is judged, and the same
// in every suite of the run.

// CheapestFirst orders impls by their probe's time, those without one last,
// ties in the given order.
func CheapestFirst(impls []*mpi.Impl, envs map[string]*Env) []*mpi.Impl {
	cost := func(im *mpi.Impl) int64 {
		if e := envs[im.ID]; e != nil && e.Caps != nil && e.Caps.ProbeMS > 0 {
			return e.Caps.ProbeMS
		}
		return -1
	}
	out := append([]*mpi.Impl(nil), impls...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := cost(out[i]), cost(out[j])
		if (a < 0) != (b < 0) {
			return a >= 0
		}
		return a < b
	})
	return out
}
