package harness

import (
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// A slice of the suite pays only for itself: Setup probes and builds only
// for the implementations some selected spec runs on.

// labelSelector is the run's label filter as a test of a spec's labels; ok
// is false when only Ginkgo can tell (a focus or skip by text, a dry run, a
// filter Ginkgo itself rejects).
func labelSelector() (selected func([]string) bool, ok bool) {
	cfg, _ := ginkgo.GinkgoConfiguration()
	if len(cfg.FocusStrings)+len(cfg.SkipStrings)+len(cfg.FocusFiles)+len(cfg.SkipFiles) > 0 || cfg.DryRun {
		return nil, false
	}
	f := ginkgo.GinkgoLabelFilter()
	if f == "" {
		return func([]string) bool { return true }, true
	}
	lf, err := types.ParseLabelFilter(f)
	if err != nil {
		return nil, false
	}
	return lf, true
}

// Needed says which implementations the run's selected specs run on (nil:
// every one).
func (s *Suite) Needed(impls []*Impl) func(id string) bool {
	selected, ok := labelSelector()
	if !ok {
		return nil
	}
	return s.needed(impls, selected)
}

// needed is Needed for a label filter: a rule's spec needs its own
// implementation; an injector or shim spec every one, as it looks for the
// implementations where the rule passes (or fails) without it.
func (s *Suite) needed(impls []*Impl, selected func([]string) bool) func(id string) bool {
	want := map[string]bool{}
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			if len(r.Injectors)+len(r.Conformers) > 0 && selected(append(append([]string{}, SelftestLabels...), r.ID)) {
				return nil
			}
			labels := append([]string{"check:" + c.ID}, r.Labels()...)
			for _, im := range impls {
				if selected(append(labels[:len(labels):len(labels)], "impl:"+im.ID)) {
					want[im.ID] = true
				}
			}
		}
	}
	return func(id string) bool { return want[id] }
}
