package harness

import (
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
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
func (s *Suite) prefetch(impls []*Impl, envs map[string]*Env) {
	cfg, _ := ginkgo.GinkgoConfiguration()
	if len(cfg.FocusStrings)+len(cfg.SkipStrings)+len(cfg.FocusFiles)+len(cfg.SkipFiles) > 0 || cfg.DryRun {
		return
	}
	selected := func([]string) bool { return true }
	if f := ginkgo.GinkgoLabelFilter(); f != "" {
		lf, err := types.ParseLabelFilter(f)
		if err != nil {
			return // Ginkgo itself reports the bad filter
		}
		selected = lf
	}
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			labels := append([]string{"check:" + c.ID}, r.Labels()...)
			for _, im := range impls {
				if selected(append(labels, "impl:"+im.ID)) {
					go evaluateOnce(r, envs[im.ID])
				}
			}
			if !selected(append(append([]string{}, SelftestLabels...), r.ID)) {
				continue
			}
			for _, inj := range r.Injectors {
				go proveOnce(r, inj, Fail, impls, envs)
			}
			for _, shim := range r.Conformers {
				go proveOnce(r, shim, Pass, impls, envs)
			}
		}
	}
}
