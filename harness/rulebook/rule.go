package rulebook

import (
	"reflect"
	"runtime"
	"strings"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
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
	Judge      func(x *X) verdict.Verdict
	// Lacks judges the rule when a fixture it uses could not be built for
	// names the implementation lacks (Lacking), where those names are the
	// rule's subject: a normative rule whose required function is missing
	// fails. A zero verdict, or no Lacks, leaves it unsupported, naming them.
	Lacks func(x *X, missing []string) verdict.Verdict
	// Governs are the library calls the rule speaks of, as a fixture names
	// them (MPITS_CALL); "MPI_T_*" covers every call the prefix starts. A
	// job that dies inside one of them (crash, hang, exit) fails the rule;
	// one that dies inside another call leaves it not judged, naming that
	// call (Crashed).
	Governs []string
	// Needs is the capability the rule needs (Needs values), when it is not
	// its check's: without it, the rule is unsupported, with the measured
	// reason, and never judged.
	Needs string
	// Exposure is what makes a judged item able to show a breach, as the
	// judge's Exposure declares it (Exposure.Declared): its passes must
	// count through that predicate.
	Exposure Declared
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
	Exposure   string   `json:"exposure,omitempty"` // the declared exposure predicate, in words
}

// Labels are the Ginkgo labels of a rule: its id, where it comes from and
// how strongly, so that -ginkgo.label-filter='basis:normative && needs:mpit'
// selects a slice.
func (r Rule) Labels() []string { return RuleLabels(r.ID, r.Source, r.Basis, r.Needs) }

// RuleLabels are the labels of a rule with this id, source, basis and need
// (the catalogue's RuleInfo has them too).
func RuleLabels(id, source string, basis Basis, needs string) []string {
	return []string{id, "source:" + SourceLabel(source), "basis:" + string(basis), "needs:" + needs}
}

// Strict says whether a fail or error of a rule of basis b fails the run.
// Normative and seed rules always do; quality and interpretation rules when
// asked for, by MPITS_STRICT or by a label filter naming their basis.
func Strict(b Basis, labelFilter string) bool {
	if b == Normative || b == SeedBasis {
		return true
	}
	for _, w := range settings.Setting(settings.StrictEnv).List() {
		if w == "all" || w == string(b) {
			return true
		}
	}
	return strings.Contains(labelFilter, "basis:"+string(b))
}
