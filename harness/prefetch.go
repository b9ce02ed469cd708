package harness

import (
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// SelftestLabels label the fault-injector and conforming-shim specs: they
// prove the suite, not the implementation, so a vendor's run may leave them
// out with -ginkgo.label-filter='!selftest'.
var SelftestLabels = []string{"selftest", "injector"}

// prefetch judges, side by side, every rule and injector proof whose spec
// the run's label filter selects, so that the specs (which Ginkgo runs one
// after the other) find their verdicts ready. Slots (acquireSlots) keep the
// jobs to as many busy processes as cores. With a focus or skip by text,
// which only Ginkgo can match, the specs judge their rules as they come.
func (s *Suite) prefetch(impls []*mpi.Impl, envs map[string]*rulebook.Env, prog *progress) {
	selected, ok := labelSelector()
	if !ok {
		return
	}
	// Everything is counted before anything starts, so that the progress of
	// an implementation is complete when its last verdict comes in.
	var work []func()
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			for _, im := range impls {
				if selected(specLabels(c, r, im)) {
					prog.expect(im.ID)
					work = append(work, func() { prog.verdictOf(im.ID, evaluateOnce(r, envs[im.ID])) })
				}
			}
			if !selected(proofLabels(r)) {
				continue
			}
			for _, inj := range r.Injectors {
				prog.expect("")
				work = append(work, func() { defer prog.proof(); proveOnce(r, inj, verdict.Fail, impls, envs) })
			}
			for _, shim := range r.Conformers {
				prog.expect("")
				work = append(work, func() { defer prog.proof(); proveOnce(r, shim, verdict.Pass, impls, envs) })
			}
		}
	}
	for _, w := range work {
		go w()
	}
}
