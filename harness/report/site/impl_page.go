package site

import (
	"sort"
	"strconv"

	"github.com/mpits/mpits/harness/verdict"
)

// failure is one fail of an implementation, with all a vendor needs to act.
type failure struct {
	ID, Text, Source, Basis, Reason, Evidence, Judge, References, Status string
	Findings                                                             []string
}

// cause is the unsupported verdicts of one implementation for one reason.
type cause struct {
	Reason string
	Rules  []string
}

type verdictLine struct {
	ID, Suite, Basis, Text, Turn, Reason, References string
	Status                                           verdict.Status
}

type implPage struct {
	Head
	Library     string // the version as the library states it
	Count       implCount
	Yours       bool
	Fails       []failure
	Unsupported []cause
	Rows        []verdictLine
	Filters     []filter
}

// judgeAt is where a rule's judge is written.
func (m *model) judgeAt(id string) string {
	in := m.info[id]
	if in.Line > 0 {
		return in.File + ":" + strconv.Itoa(in.Line)
	}
	return in.File
}

func (m *model) implPage(im string) implPage {
	p := implPage{Head: Head{Title: im + " (" + m.versions[im] + ")", Root: "../"}, Count: m.counts(im), Yours: m.yours[im]}
	if m.library[im] != m.versions[im] {
		p.Library = m.library[im]
	}
	byCause := map[string][]string{}
	var suites, bases []string
	for _, id := range m.ruleIDs {
		r, ok := m.rows[id][im]
		if !ok {
			continue
		}
		in := m.info[id]
		line := verdictLine{ID: id, Suite: in.Suite, Basis: string(in.Basis), Text: in.Rule, Turn: m.turnText(r), Reason: r.Reason, Status: r.Status}
		if p.Yours {
			line.References = m.references(id, im)
		}
		p.Rows = append(p.Rows, line)
		suites, bases = append(suites, in.Suite), append(bases, string(in.Basis))
		switch r.Status {
		case verdict.Fail, verdict.Error, notJudged:
			p.Fails = append(p.Fails, failure{ID: id, Status: string(r.Status), Text: in.Rule, Source: in.Source, Basis: string(in.Basis), Reason: string(r.Status) + ": " + r.Reason,
				Evidence: m.evidenceTail(r), Judge: m.judgeAt(id), References: line.References, Findings: m.pagesOf[id]})
		case verdict.Unsupported:
			byCause[r.Reason] = append(byCause[r.Reason], id)
		}
	}
	for reason, ids := range byCause {
		p.Unsupported = append(p.Unsupported, cause{reason, ids})
	}
	sort.Slice(p.Unsupported, func(i, j int) bool {
		a, b := p.Unsupported[i], p.Unsupported[j]
		if len(a.Rules) != len(b.Rules) {
			return len(a.Rules) > len(b.Rules)
		}
		return a.Reason < b.Reason
	})
	p.Filters = []filter{{"status", []string{"fail", "error", "pass", "unsupported"}}, {"basis", values(bases)}, {"suite", values(suites)}}
	return p
}

const implTmpl = `
{{define "impl"}}{{template "top" .Head}}
{{if .Library}}<p class="note">{{.Library}}</p>{{end}}
{{with .Count}}<p>{{.Pass}} pass ({{.Turned}} turned by an injector here, {{.NotTurned}} not turned), {{.Fail}} fail, {{.Unsup}} unsupported, {{.NotJudged}} not judged, {{.Err}} error.</p>
<div class="bar">{{range .Bars}}<span class="{{.Status}}" style="width: {{.Pct}}%" title="{{.N}} {{.Status}}"></span>{{end}}</div>{{end}}
{{if .Yours}}<p>Your build, beside the committed verdicts of the reference builds for every rule.</p>{{end}}
<h2>Fails and errors ({{len .Fails}})</h2>
{{range .Fails}}<section class="fail" id="fail-{{.ID}}"><h3><a href="../rule/{{fileName .ID}}.html">{{.ID}}</a> ({{.Source}}, {{.Basis}})</h3>
<p>{{.Text}}</p>
<p><b>{{.Reason}}</b></p>
{{if .References}}<p>Reference builds: {{.References}}. Yours: {{.Status}}.</p>{{end}}
<p>Judge: <code>{{.Judge}}</code>{{range .Findings}} · finding: <a href="../finding/{{.}}.html">{{.}}</a>{{end}}</p>
{{if .Evidence}}<details open><summary>evidence (its end)</summary><pre>{{.Evidence}}</pre></details>{{end}}
</section>{{else}}<p>None.</p>{{end}}
<h2>Unsupported, by cause</h2>
<table id="unsupported"><thead><tr><th>cause</th><th>rules</th></tr></thead><tbody>
{{range .Unsupported}}<tr><td>{{.Reason}}</td><td>{{range .Rules}}<a href="../rule/{{fileName .}}.html">{{.}}</a> {{end}}</td></tr>
{{else}}<tr><td colspan="2">none</td></tr>{{end}}</tbody></table>
<h2>Every verdict</h2>
{{template "filters" .Filters}}
<table class="filterable" id="verdicts"><thead><tr><th>rule</th><th>suite</th><th>basis</th><th>verdict</th><th>turned</th><th>reason</th>{{if .Yours}}<th>reference builds</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr data-status="{{.Status}}" data-basis="{{.Basis}}" data-suite="{{.Suite}}"><td><a href="../rule/{{fileName .ID}}.html" title="{{.Text}}">{{.ID}}</a></td><td>{{.Suite}}</td><td>{{.Basis}}</td><td>{{template "status" .Status}}</td><td>{{.Turn}}</td><td>{{.Reason}}</td>{{if $.Yours}}<td>{{.References}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{template "bottom" .Head}}{{end}}
`
