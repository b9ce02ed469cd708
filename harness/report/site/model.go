package site

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// model is the verdicts indexed the ways the pages read them.
type model struct {
	in       Input
	rows     map[string]map[string]report.Row // rule -> impl -> row
	info     map[string]rulebook.RuleInfo
	ruleIDs  []string
	impls    []string // yours first, then by family and version
	yours    map[string]bool
	versions map[string]string // short: "MPICH 4.0.2"
	library  map[string]string // as the library states it
	turned   func(rule, impl string) (bool, bool)
	families func(rule string) []string
	pagesOf  map[string][]string // rule -> finding pages about it
	evidence map[string]string   // rule, impl -> the end of its evidence
	findings []finding
	repros   []repro
	plots    []plot
}

// notJudged is the status the site gives an error that names its cause
// (report.Row.NotJudged): the library died in a call the rule does not
// govern, or a fixture did not build; not the suite's error.
const notJudged verdict.Status = "not-judged"

// statuses in the order a reader scans them.
var statuses = []verdict.Status{verdict.Fail, verdict.Error, notJudged, verdict.Pass, verdict.Unsupported}

func newModel(in Input) *model {
	m := &model{in: in, rows: map[string]map[string]report.Row{}, info: map[string]rulebook.RuleInfo{},
		yours: map[string]bool{}, versions: map[string]string{}, library: map[string]string{}, evidence: map[string]string{}, pagesOf: map[string][]string{}}
	rows := in.Verdicts.Rows
	seen := map[string]bool{}
	for _, id := range in.Yours {
		m.yours[id] = true
		m.impls = append(m.impls, id)
		seen[id] = true
	}
	for _, p := range report.HistoryOrder(in.Probed) {
		if !seen[p.Impl.ID] {
			m.impls = append(m.impls, p.Impl.ID)
			seen[p.Impl.ID] = true
		}
		m.versions[p.Impl.ID] = shortVersion(p)
		m.library[p.Impl.ID] = report.VersionOf(p)
	}
	for _, r := range rows {
		if m.rows[r.ID] == nil {
			m.rows[r.ID] = map[string]report.Row{}
			m.info[r.ID] = r.RuleInfo
			m.ruleIDs = append(m.ruleIDs, r.ID)
		}
		if r.NotJudged() {
			r.Status, r.Reason = notJudged, r.Cause
		}
		m.rows[r.ID][r.Impl] = r
		if !seen[r.Impl] {
			m.impls = append(m.impls, r.Impl)
			seen[r.Impl] = true
		}
		if m.versions[r.Impl] == "" {
			m.versions[r.Impl] = r.Version
		}
	}
	sort.Strings(m.ruleIDs)
	m.turned = report.Turned(in.Verdicts.Injections)
	h := report.NewHistory(rows, in.Probed)
	m.families = h.Families
	m.loadFindings(func(name, text string) []string { return report.PageRules(name, text, h) })
	m.loadPlots()
	return m
}

// familyNames are the families as their projects spell them.
var familyNames = map[string]string{"mpich": "MPICH", "openmpi": "Open MPI"}

// shortVersion is "MPICH 4.0.2": the library's own long string where the
// implementation names no version.
func shortVersion(p mpi.Probed) string {
	if p.Impl == nil || p.Impl.Version == "" {
		return report.VersionOf(p)
	}
	f := familyNames[p.Impl.Family]
	if f == "" {
		f = p.Impl.Family
	}
	v := strings.TrimSpace(f + " " + p.Impl.Version)
	if p.Impl.Layer != nil {
		return p.Impl.Layer.String() + " on " + v // both layers, as every report names them
	}
	return v
}

// judged is the rows of rule in the order of the implementations.
func (m *model) judged(rule string) []report.Row {
	var out []report.Row
	for _, im := range m.impls {
		if r, ok := m.rows[rule][im]; ok {
			out = append(out, r)
		}
	}
	return out
}

// turnText says whether a pass was turned by an injector there.
func (m *model) turnText(r report.Row) string {
	if r.Status != verdict.Pass {
		return ""
	}
	t, known := m.turned(r.ID, r.Impl)
	switch {
	case !known:
		return "no injector ran here"
	case t:
		return "turned"
	}
	return "not turned"
}

// references says, for rule, what the reference builds (not yours) gave,
// and which of them gave your verdict for your reason ("the same way"):
// "fail the same way on mpich-tools; pass on openmpi-sid".
func (m *model) references(rule, yours string) string {
	mine, judged := m.rows[rule][yours]
	by := map[string][]string{}
	var order []string
	for _, r := range m.judged(rule) {
		if m.yours[r.Impl] {
			continue
		}
		k := string(r.Status)
		if judged && r.Status == mine.Status && r.Status != verdict.Pass && sameReason(mine, r) {
			k += " the same way"
		}
		if by[k] == nil {
			order = append(order, k)
		}
		by[k] = append(by[k], r.Impl)
	}
	if len(order) == 0 {
		return "no reference build judged it"
	}
	var parts []string
	for _, st := range statuses {
		for _, k := range order {
			if strings.HasPrefix(k, string(st)) {
				parts = append(parts, k+" on "+strings.Join(by[k], ", "))
			}
		}
	}
	return strings.Join(parts, "; ")
}

// sameReason: two verdicts give one reason, each implementation's name
// put aside.
func sameReason(a, b report.Row) bool {
	return strings.ReplaceAll(a.Reason, a.Impl, "") == strings.ReplaceAll(b.Reason, b.Impl, "")
}

// evidenceTail is the end of a verdict's evidence: where a failure shows.
func (m *model) evidenceTail(r report.Row) string {
	if m.in.Evidence == nil || (r.Status != verdict.Fail && r.Status != verdict.Error && r.Status != notJudged) {
		return ""
	}
	k := r.ID + "\x00" + r.Impl
	if ev, ok := m.evidence[k]; ok {
		return ev
	}
	ev := strings.TrimSpace(m.in.Evidence(r.ID, r.Impl))
	const max = 1500
	if len(ev) > max {
		ev = ev[len(ev)-max:]
		if i := strings.Index(ev, "\n"); i >= 0 && i < 200 {
			ev = ev[i+1:]
		}
		ev = "…\n" + ev
	}
	m.evidence[k] = ev
	return ev
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// fileName is a page's file name for an id.
func fileName(id string) string { return unsafeName.ReplaceAllString(id, "_") }

// values are the distinct values of a field, sorted, for a filter.
func values(vs []string) []string {
	out := slices.Clone(vs)
	slices.Sort(out)
	return slices.Compact(out)
}

type filter struct {
	Name   string
	Values []string
}

type Head struct{ Title, Root string }

type link struct{ Text, Href string }
