package site

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/verdict"
)

var funcs = template.FuncMap{"fileName": fileName}

// implCount is an implementation's verdicts, counted.
type implCount struct {
	ID, Version            string
	Yours                  bool
	Pass, Fail, Unsup, Err int
	NotJudged              int
	Turned, NotTurned      int
	Bars                   []bar
}

type bar struct {
	Status verdict.Status
	Pct    string
	N      int
}

// ruleLine is a rule's row of the index: its verdict on every implementation.
type ruleLine struct {
	ID, Suite, Basis, Source, Text string
	Statuses                       string // the statuses it has anywhere, for the filter
	Cells                          []cell
}

type cell struct {
	Impl   string
	Status verdict.Status
	Reason string
}

type indexPage struct {
	Head
	Vendor  bool
	Impls   []implCount
	Rules   []ruleLine
	Filters []filter
	Pages   []link
}

func (m *model) counts(im string) implCount {
	c := implCount{ID: im, Version: m.versions[im], Yours: m.yours[im]}
	for _, id := range m.ruleIDs {
		r, ok := m.rows[id][im]
		if !ok {
			continue
		}
		switch r.Status {
		case verdict.Pass:
			c.Pass++
			switch m.turnText(r) {
			case "turned":
				c.Turned++
			case "not turned":
				c.NotTurned++
			}
		case verdict.Fail:
			c.Fail++
		case verdict.Unsupported:
			c.Unsup++
		case notJudged:
			c.NotJudged++
		default:
			c.Err++
		}
	}
	total := c.Pass + c.Fail + c.Unsup + c.NotJudged + c.Err
	for _, b := range []bar{{verdict.Pass, "", c.Pass}, {verdict.Fail, "", c.Fail}, {verdict.Unsupported, "", c.Unsup}, {notJudged, "", c.NotJudged}, {verdict.Error, "", c.Err}} {
		if b.N > 0 && total > 0 {
			b.Pct = strconv.FormatFloat(100*float64(b.N)/float64(total), 'f', 2, 64)
			c.Bars = append(c.Bars, b)
		}
	}
	return c
}

func (m *model) indexPage() indexPage {
	p := indexPage{Head: Head{Title: "Verdicts of every rule on every implementation", Root: ""}, Vendor: len(m.yours) > 0}
	var suites, bases []string
	for _, im := range m.impls {
		p.Impls = append(p.Impls, m.counts(im))
	}
	for _, id := range m.ruleIDs {
		in := m.info[id]
		l := ruleLine{ID: id, Suite: in.Suite, Basis: string(in.Basis), Source: in.Source, Text: in.Rule}
		var sts []string
		for _, im := range m.impls {
			r, ok := m.rows[id][im]
			if !ok {
				l.Cells = append(l.Cells, cell{Impl: im})
				continue
			}
			l.Cells = append(l.Cells, cell{im, r.Status, r.Reason})
			sts = append(sts, string(r.Status))
		}
		l.Statuses = strings.Join(values(sts), " ")
		p.Rules = append(p.Rules, l)
		suites, bases = append(suites, in.Suite), append(bases, string(in.Basis))
	}
	p.Filters = []filter{{"status", []string{"fail", "error", string(notJudged), "pass", "unsupported"}}, {"basis", values(bases)}, {"suite", values(suites)}}
	for _, f := range m.findings {
		p.Pages = append(p.Pages, link{f.Title, "finding/" + f.file + ".html"})
	}
	return p
}

const indexTmpl = `
{{define "index"}}{{template "top" .Head}}
{{if .Vendor}}<p>Your run (highlighted) beside the committed verdicts of the reference builds.</p>{{end}}
<h2>Per implementation</h2>
<p class="legend"><span class="pass"></span>pass<span class="fail"></span>fail<span class="unsupported"></span>unsupported<span class="not-judged"></span>not judged<span class="error"></span>error</p>
<table id="impls"><thead><tr><th>implementation</th><th>version</th><th>pass</th><th>of them turned</th><th>not turned</th><th>fail</th><th>unsupported</th><th>not judged</th><th>error</th><th>split</th></tr></thead><tbody>
{{range .Impls}}<tr{{if .Yours}} class="yours"{{end}}><td><a href="impl/{{fileName .ID}}.html">{{.ID}}</a>{{if .Yours}} (yours){{end}}</td><td>{{.Version}}</td><td>{{.Pass}}</td><td>{{.Turned}}</td><td>{{.NotTurned}}</td><td>{{.Fail}}</td><td>{{.Unsup}}</td><td>{{.NotJudged}}</td><td>{{.Err}}</td>
<td><div class="bar">{{range .Bars}}<span class="{{.Status}}" style="width: {{.Pct}}%" title="{{.N}} {{.Status}}"></span>{{end}}</div></td></tr>
{{end}}</tbody></table>
<p class="note">A pass is turned where a fault injector of its rule, preloaded on that implementation, made the rule fail there; not turned where its injectors ran there and none did.</p>
<h2>Rules</h2>
{{template "filters" .Filters}}
<table class="filterable" id="rules"><thead><tr><th>rule</th><th>suite</th><th>basis</th><th>source</th>{{range .Impls}}<th>{{.ID}}</th>{{end}}</tr></thead><tbody>
{{range .Rules}}<tr data-status="{{.Statuses}}" data-basis="{{.Basis}}" data-suite="{{.Suite}}"><td><a href="rule/{{fileName .ID}}.html" title="{{.Text}}">{{.ID}}</a></td><td>{{.Suite}}</td><td>{{.Basis}}</td><td>{{.Source}}</td>
{{range .Cells}}<td>{{if .Status}}<span class="st {{.Status}}" title="{{.Reason}}">{{.Status}}</span>{{else}}—{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>
<h2>Findings</h2>
<ul>{{range .Pages}}<li><a href="{{.Href}}">{{.Text}}</a></li>{{end}}</ul>
{{template "bottom" .Head}}{{end}}
`
