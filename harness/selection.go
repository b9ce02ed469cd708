package harness

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	ginkgo "github.com/onsi/ginkgo/v2"
)

// A label filter that selects nothing is a mistake (a typo, an
// implementation the run does not have), not a green run. `go test
// ./suites/...` runs each suite package on its own with the same filter, and
// a filter naming one rule rightly selects nothing in the other packages, so
// the filter is judged against the specs of every suite: those of this
// package from its code, the others' from the catalogue (reports/rules.json),
// all on the implementations of the run.

// RulesFile is the catalogue of every rule of every suite, in the source tree.
const RulesFile = "reports/rules.json"

// checkSelection is nil, or the one line that says the run's label filter
// selects no spec of any suite, naming the filter's labels that no spec
// carries with the closest label that one does. A filter only Ginkgo can
// evaluate (with a focus by text, say), or no catalogue, is not judged.
func (s *Suite) checkSelection(impls []*mpi.Impl) error {
	filter := ginkgo.GinkgoLabelFilter()
	selected, ok := labelSelector()
	if !ok || filter == "" {
		return nil
	}
	own := RuleInfos(s)
	if anySelected(own, impls, selected) {
		return nil
	}
	// A combined suite has every rule; one suite needs the others' from
	// the catalogue of the source tree to say that none matched anywhere.
	others, err := readCatalogue(s.partNames()...)
	if err != nil && len(s.parts) == 0 {
		return nil
	}
	return emptySelection(filter, selected, append(own, others...), impls)
}

// emptySelection is checkSelection on the given rules: nil when the filter
// selects a spec of one of them.
func emptySelection(filter string, selected func([]string) bool, rules []rulebook.RuleInfo, impls []*mpi.Impl) error {
	if anySelected(rules, impls, selected) {
		return nil
	}
	suites := map[string]bool{}
	known := map[string]string{} // lower case → as declared
	for _, ri := range rules {
		suites[ri.Suite] = true
		for _, l := range allSpecLabels(ri, impls) {
			known[strings.ToLower(l)] = l
		}
	}
	var ids []string
	for _, im := range impls {
		ids = append(ids, im.ID)
	}
	var unknown []string
	for _, l := range FilterLabels(filter) {
		if _, ok := known[strings.ToLower(l)]; ok {
			continue
		}
		what := fmt.Sprintf("no spec carries %s", l)
		if strings.HasPrefix(strings.ToLower(l), "impl:") {
			what += fmt.Sprintf(" (the run's implementations: %s)", strings.Join(ids, ", "))
		}
		if c := settings.Closest(l, known); c != "" {
			what += fmt.Sprintf(" — did you mean %s?", c)
		}
		unknown = append(unknown, what)
	}
	why := "each of its labels exists, but no spec carries this combination"
	if len(unknown) > 0 {
		why = strings.Join(unknown, "; ")
	}
	return fmt.Errorf("the label filter %q matched no spec in any suite (%s): %s", filter, strings.Join(slices.Sorted(maps.Keys(suites)), ", "), why)
}

// anySelected says whether the filter selects a spec of one of the rules on
// one of the implementations, or one of their fault-injector specs.
func anySelected(rules []rulebook.RuleInfo, impls []*mpi.Impl, selected func([]string) bool) bool {
	for _, ri := range rules {
		if len(ri.Injectors)+len(ri.Conformers) > 0 && selected(infoProofLabels(ri)) {
			return true
		}
		for _, im := range impls {
			if selected(infoSpecLabels(ri, im.ID)) {
				return true
			}
		}
	}
	return false
}

// infoSpecLabels are the labels of a rule's spec on an implementation, as
// declare gives them (specLabels), from what the catalogue says of it.
func infoSpecLabels(ri rulebook.RuleInfo, impl string) []string {
	return append(append([]string{"check:" + ri.Check}, rulebook.RuleLabels(ri.ID, ri.Source, ri.Basis, ri.Needs)...), "impl:"+impl)
}

// infoProofLabels are the labels of a rule's fault-injector and shim specs.
func infoProofLabels(ri rulebook.RuleInfo) []string {
	return append(append([]string{}, SelftestLabels...), ri.ID)
}

// allSpecLabels is every label a spec of the rule carries.
func allSpecLabels(ri rulebook.RuleInfo, impls []*mpi.Impl) []string {
	var out []string
	for _, im := range impls {
		out = append(out, infoSpecLabels(ri, im.ID)...)
	}
	if len(ri.Injectors)+len(ri.Conformers) > 0 {
		out = append(out, infoProofLabels(ri)...)
	}
	return out
}

// readCatalogue is the rules of every suite but the named ones, from the
// catalogue of the source tree the test runs in.
func readCatalogue(except ...string) ([]rulebook.RuleInfo, error) {
	root := settings.ModuleRoot()
	if root == "" {
		return nil, fmt.Errorf("no go.mod above the working folder")
	}
	data, err := os.ReadFile(filepath.Join(root, RulesFile))
	if err != nil {
		return nil, err
	}
	var cat struct {
		Rules []rulebook.RuleInfo `json:"rules"`
	}
	if err := json.Unmarshal(data, &cat); err != nil {
		return nil, fmt.Errorf("%s: %v", RulesFile, err)
	}
	var out []rulebook.RuleInfo
	for _, ri := range cat.Rules {
		if !slices.Contains(except, ri.Suite) {
			out = append(out, ri)
		}
	}
	return out, nil
}

// FilterLabels are the plain labels a Ginkgo label filter names, in order:
// not its operators, its /regular expressions/, nor its set operations
// (`key: containsAny {a,b}`), which name no label.
func FilterLabels(filter string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		l := strings.TrimSpace(cur.String())
		cur.Reset()
		if l != "" && !strings.Contains(l, ": ") && !strings.HasSuffix(l, ":") {
			out = append(out, l)
		}
	}
	rs := []rune(filter)
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '&', '|', '!', ',', '(', ')':
			flush()
		case '/', '{': // a regular expression, a set operation's argument
			end := map[rune]rune{'/': '/', '{': '}'}[rs[i]]
			flush()
			for i++; i < len(rs) && rs[i] != end; i++ {
			}
		default:
			cur.WriteRune(rs[i])
		}
	}
	flush()
	return out
}
