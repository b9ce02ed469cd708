package harness

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// Basis says why a rule holds, and so what its fail means.
type Basis string

const (
	Normative      Basis = "normative"      // the standard's text requires it
	SeedBasis      Basis = "seed"           // the QMPI proposal's text requires it
	Quality        Basis = "quality"        // the text leaves it undefined; a robust library does it
	Interpretation Basis = "interpretation" // the text reads more than one way: report which, never fail
)

// Bases in the order a vendor reads them: what the text forces first.
var Bases = []Basis{Normative, SeedBasis, Quality, Interpretation}

// Rule is one statement of the standard or a seed, judged on its own: one
// rule, one verdict. Rules of one check share its jobs (LaunchOnce), so a
// rule costs a judgement, not a launch.
type Rule struct {
	ID        string   // e.g. STR-3 (the id in rules.psv where it has one)
	Source    string   // edition and printed section, e.g. "MPI-5.0 §15.3.3", or "seed 000"
	Basis     Basis    // normative, seed, quality or interpretation
	Text      string   // the rule in one sentence
	Injectors []string // fault injectors (fixtures/c/inject) that must make it fail
	// Conformers are shims (fixtures/c/inject/conform_*) that make a library
	// follow the rule: where no implementation passes, they show it can pass.
	Conformers []string
	Judge      func(x *X) Verdict
	// Lacks judges the rule when a fixture it uses could not be built for
	// names the implementation lacks (Lacking), where those names are the
	// rule's subject: a normative rule whose required function is missing
	// fails. A zero verdict, or no Lacks, leaves it unsupported, naming them.
	Lacks func(x *X, missing []string) Verdict
	// Needs is the capability the rule needs (Needs values), when it is not
	// its check's: without it, the rule is unsupported, with the measured
	// reason, and never judged.
	Needs string
}

// Location is where the rule's judge is written.
func (r Rule) Location() (file string, line int) {
	if r.Judge == nil {
		return "", 0
	}
	f := runtime.FuncForPC(reflect.ValueOf(r.Judge).Pointer())
	if f == nil {
		return "", 0
	}
	file, line = f.FileLine(f.Entry())
	if i := strings.LastIndex(file, "/suites/"); i >= 0 {
		file = file[i+1:]
	}
	return file, line
}

// RuleInfo is a rule as the catalogue (reports/rules.json) and every
// verdict carry it.
type RuleInfo struct {
	ID         string   `json:"id"`
	Suite      string   `json:"suite"`
	Check      string   `json:"check"`
	Source     string   `json:"source"`
	Basis      Basis    `json:"basis"`
	Rule       string   `json:"rule"`
	Needs      string   `json:"needs"`
	File       string   `json:"file"`
	Line       int      `json:"line,omitempty"` // the judge's line: in reports, not in rules.json
	Injectors  []string `json:"injectors"`
	Conformers []string `json:"conformers,omitempty"`
}

// Info describes rule r of check c in suite s.
func (s *Suite) Info(c Check, r Rule) RuleInfo {
	file, line := r.Location()
	inj := r.Injectors
	if inj == nil {
		inj = []string{}
	}
	return RuleInfo{ID: r.ID, Suite: s.Name, Check: c.ID, Source: r.Source, Basis: r.Basis, Rule: r.Text,
		Needs: r.Needs, File: file, Line: line, Injectors: inj, Conformers: r.Conformers}
}

// RuleInfos lists every rule of the suites in declaration order.
func RuleInfos(suites ...*Suite) []RuleInfo {
	var out []RuleInfo
	for _, s := range suites {
		for _, c := range s.Checks {
			for _, r := range c.AllRules() {
				out = append(out, s.Info(c, r))
			}
		}
	}
	return out
}

// Labels are the Ginkgo labels of a rule: its id, where it comes from and
// how strongly, so that -ginkgo.label-filter='basis:normative && needs:mpit'
// selects a slice.
func (r Rule) Labels() []string { return ruleLabels(r.ID, r.Source, r.Basis, r.Needs) }

// ruleLabels are the labels of a rule with this id, source, basis and need
// (the catalogue's RuleInfo has them too).
func ruleLabels(id, source string, basis Basis, needs string) []string {
	return []string{id, "source:" + SourceLabel(source), "basis:" + string(basis), "needs:" + needs}
}

// StrictEnv names the setting that makes quality (and interpretation)
// verdicts fail the run too: MPITS_STRICT=quality, or =all.
const StrictEnv = "MPITS_STRICT"

// Strict says whether a fail or error of a rule of basis b fails the run.
// Normative and seed rules always do; quality and interpretation rules when
// asked for, by MPITS_STRICT or by a label filter naming their basis.
func Strict(b Basis, labelFilter string) bool {
	if b == Normative || b == SeedBasis {
		return true
	}
	for _, w := range Setting(StrictEnv).List() {
		if w == "all" || w == string(b) {
			return true
		}
	}
	return strings.Contains(labelFilter, "basis:"+string(b))
}

// Validate rejects what would make a verdict untrue or a report wrong: a
// duplicate rule id, an injector the suite does not declare (it would
// become an empty build and "pass, not fail"), a source that names no
// section of the standard, a rule without basis, text or judge.
func (s *Suite) Validate(seen map[string]string) error {
	declared := map[string]bool{}
	for _, f := range s.Injectors {
		declared[f.Name] = true
	}
	var errs []string
	add := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, c := range s.Checks {
		if c.ID == "" || c.Title == "" {
			add("a check of suite %s has no id or title", s.Name)
		}
		rules := c.AllRules()
		if len(rules) == 0 {
			add("check %s has no rule", c.ID)
		}
		for _, r := range rules {
			where := fmt.Sprintf("rule %s (check %s)", r.ID, c.ID)
			if r.ID == "" || strings.ContainsAny(r.ID, "&|!,()/: ") {
				add("%s: the id must be non-empty and hold none of &|!,()/: or spaces", where)
			}
			if prev, dup := seen[r.ID]; dup {
				add("%s: the id is used already by %s", where, prev)
			}
			seen[r.ID] = s.Name + " " + c.ID
			if r.Text == "" || r.Judge == nil {
				add("%s: no text or no judge", where)
			}
			switch r.Basis {
			case Normative, SeedBasis, Quality, Interpretation:
			default:
				add("%s: basis %q is not one of normative, seed, quality, interpretation", where, r.Basis)
			}
			if !slices.Contains(Needs, r.Needs) {
				add("%s: needs %q is not one of %s", where, r.Needs, strings.Join(Needs, ", "))
			}
			if err := CheckSource(r.Source); err != nil {
				add("%s: %v", where, err)
			} else if seed := strings.HasPrefix(r.Source, "seed "); seed != (r.Basis == SeedBasis) && (r.Basis == SeedBasis || r.Basis == Normative) {
				add("%s: a %s rule needs a %s source, not %q", where, r.Basis, map[bool]string{true: "standard", false: "seed"}[r.Basis == Normative], r.Source)
			}
			for _, inj := range append(append([]string{}, r.Injectors...), r.Conformers...) {
				if !declared[inj] {
					add("%s: injector %s is not declared by suite %s", where, inj, s.Name)
				}
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("suite %s: %s", s.Name, strings.Join(errs, "; "))
	}
	return nil
}

// ValidateAll validates suites together (rule ids are unique across them).
func ValidateAll(suites ...*Suite) error {
	seen := map[string]string{}
	for _, s := range suites {
		if err := s.Validate(seen); err != nil {
			return err
		}
	}
	return nil
}
