package site

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/mpits/mpits/harness/verdict"
)

type ruleVerdict struct {
	Impl, Version, Turn, Reason, Evidence, Exercised string
	Status                                           verdict.Status
	Yours                                            bool
}

type rulePage struct {
	Head
	Text, Source, Basis, Suite, Check, Needs, Judge string
	Injectors, Conformers, Findings                 []string
	Verdicts                                        []ruleVerdict
	History                                         []template.HTML
	Vendor                                          bool
}

func (m *model) rulePage(id string) rulePage {
	in := m.info[id]
	p := rulePage{Head: Head{Title: id, Root: "../"}, Text: in.Rule, Source: in.Source, Basis: string(in.Basis), Suite: in.Suite,
		Check: in.Check, Needs: in.Needs, Judge: m.judgeAt(id), Findings: m.pagesOf[id], Vendor: len(m.yours) > 0}
	for _, inj := range in.Injectors {
		p.Injectors = append(p.Injectors, "fixtures/c/inject/"+inj+".c")
	}
	for _, c := range in.Conformers {
		p.Conformers = append(p.Conformers, "fixtures/c/inject/"+c+".c")
	}
	for _, r := range m.judged(id) {
		v := ruleVerdict{Impl: r.Impl, Version: m.versions[r.Impl], Turn: m.turnText(r), Reason: r.Reason, Evidence: m.evidenceTail(r), Status: r.Status, Yours: m.yours[r.Impl]}
		if r.Exercised != nil && r.Status == verdict.Pass {
			v.Exercised = r.Exercised.String()
		}
		p.Verdicts = append(p.Verdicts, v)
	}
	for _, line := range m.families(id) {
		var b bytes.Buffer
		if markdown.Convert([]byte(line), &b) == nil {
			p.History = append(p.History, template.HTML(strings.TrimSpace(b.String()))) // goldmark escapes the text
		}
	}
	return p
}

const ruleTmpl = `
{{define "rule"}}{{template "top" .Head}}
<blockquote><p>{{.Text}}</p></blockquote>
<table id="about"><tbody>
<tr><th>source</th><td>{{.Source}}</td></tr>
<tr><th>basis</th><td>{{.Basis}}</td></tr>
<tr><th>suite, check</th><td>{{.Suite}}, {{.Check}}</td></tr>
<tr><th>needs</th><td>{{.Needs}}</td></tr>
<tr><th>judge</th><td><code>{{.Judge}}</code></td></tr>
<tr><th>fault injectors</th><td>{{range .Injectors}}<code>{{.}}</code> {{else}}none{{end}}</td></tr>
{{if .Conformers}}<tr><th>conforming shims</th><td>{{range .Conformers}}<code>{{.}}</code> {{end}}</td></tr>{{end}}
<tr><th>findings</th><td>{{range .Findings}}<a href="../finding/{{.}}.html">{{.}}</a> {{else}}none{{end}}</td></tr>
</tbody></table>
<h2>Verdict on every implementation</h2>
<table id="verdicts"><thead><tr><th>implementation</th><th>version</th><th>verdict</th><th>turned</th><th>reason</th></tr></thead><tbody>
{{range .Verdicts}}<tr{{if .Yours}} class="yours"{{end}}><td><a href="../impl/{{fileName .Impl}}.html">{{.Impl}}</a>{{if .Yours}} (yours){{end}}</td><td>{{.Version}}</td><td>{{template "status" .Status}}</td><td>{{.Turn}}</td>
<td>{{.Reason}}{{if .Exercised}} <span class="note">[{{.Exercised}}]</span>{{end}}{{if .Evidence}}<details><summary>evidence (its end)</summary><pre>{{.Evidence}}</pre></details>{{end}}</td></tr>
{{end}}</tbody></table>
<h2>History across versions</h2>
{{range .History}}{{.}}{{else}}<p>No version judged it.</p>{{end}}
{{template "bottom" .Head}}{{end}}
`
