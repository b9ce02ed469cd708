package harness

import (
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
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

// specLabels are the labels of rule r's spec on im (declare gives them
// through its containers).
func specLabels(c rulebook.Check, r rulebook.Rule, im *mpi.Impl) []string {
	return append(append([]string{"check:" + c.ID}, r.Labels()...), "impl:"+im.ID)
}

// proofLabels are the labels of r's fault-injector and shim specs.
func proofLabels(r rulebook.Rule) []string {
	return append(append([]string{}, SelftestLabels...), r.ID)
}

// Needed is the implementations the run's selected specs run on: all of
// them when the filter cannot be read here or selects an injector spec.
func (s *Suite) Needed(impls []*mpi.Impl) []*mpi.Impl {
	selected, ok := labelSelector()
	if !ok {
		return impls
	}
	return only(impls, s.needed(impls, selected))
}

// only is the implementations keep keeps (nil keeps every one).
func only(impls []*mpi.Impl, keep func(id string) bool) []*mpi.Impl {
	if keep == nil {
		return impls
	}
	var out []*mpi.Impl
	for _, im := range impls {
		if keep(im.ID) {
			out = append(out, im)
		}
	}
	return out
}

// needed is Needed for a label filter: a rule's spec needs its own
// implementation; an injector or shim spec every one, as it looks for the
// implementations where the rule passes (or fails) without it.
func (s *Suite) needed(impls []*mpi.Impl, selected func([]string) bool) func(id string) bool {
	want := map[string]bool{}
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			if len(r.Injectors)+len(r.Conformers) > 0 && selected(proofLabels(r)) {
				return nil
			}
			for _, im := range impls {
				if selected(specLabels(c, r, im)) {
					want[im.ID] = true
				}
			}
		}
	}
	return func(id string) bool { return want[id] }
}

// neededFixtures are the fixtures the run builds: the suite's own, and its
// injectors and shims only where a selected spec or MPITS_INJECT preloads
// one (a vendor's '!selftest' run builds none of them).
func (s *Suite) neededFixtures() []mpi.Fixture {
	out := append([]mpi.Fixture{}, s.Fixtures...)
	selected, ok := labelSelector()
	if !ok || len(injectNames) > 0 {
		return append(out, s.Injectors...)
	}
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			if len(r.Injectors)+len(r.Conformers) > 0 && selected(proofLabels(r)) {
				return append(out, s.Injectors...)
			}
		}
	}
	return out
}
