package site

import (
	"bytes"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// finding is a page of reports/findings, rendered.
type finding struct {
	Head
	file   string // its page's name, without .html
	Body   template.HTML
	Rules  []string
	Repros []link
}

// repro is a C reproducer's page.
type repro struct {
	Head
	file     string
	Source   string
	Findings []link
}

type plot struct {
	name string
	data []byte
}

var (
	mdLink    = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`)
	reproRef  = regexp.MustCompile(`fixtures/c/findings/([A-Za-z0-9._-]+\.c)`)
	markdown  = goldmark.New(goldmark.WithExtensions(extension.Table)) // no raw HTML: a page's comments drop
	titleLine = regexp.MustCompile(`(?m)^# (.+)$`)
)

// loadFindings renders every finding page and the reproducers they name.
func (m *model) loadFindings(rulesOf func(name, text string) []string) {
	if m.in.Findings == nil {
		return
	}
	names, _ := fs.Glob(m.in.Findings, "*.md")
	pages := map[string]bool{}
	for _, n := range names {
		pages[strings.TrimSuffix(n, ".md")] = true
	}
	reproPages := map[string]*repro{}
	for _, n := range names {
		data, err := fs.ReadFile(m.in.Findings, n)
		if err != nil {
			continue
		}
		text := string(data)
		base := strings.TrimSuffix(n, ".md")
		f := finding{Head: Head{Title: base, Root: "../"}, file: fileName(base)}
		if t := titleLine.FindStringSubmatch(text); t != nil {
			f.Title = strings.ReplaceAll(t[1], "`", "")
			text = strings.Replace(text, t[0], "", 1) // the frame prints the title
		}
		for _, c := range reproRef.FindAllStringSubmatch(text, -1) {
			if r := m.repro(reproPages, c[1]); r != nil && !slices.ContainsFunc(f.Repros, func(l link) bool { return l.Text == c[1] }) {
				f.Repros = append(f.Repros, link{c[1], "../repro/" + r.file + ".html"})
				r.Findings = append(r.Findings, link{f.Title, "../finding/" + f.file + ".html"})
			}
		}
		var b bytes.Buffer
		if err := markdown.Convert([]byte(siteLinks(text, pages)), &b); err != nil {
			continue
		}
		f.Body = template.HTML(b.String()) // goldmark escapes text and drops raw HTML
		if n != "README.md" {
			f.Rules = rulesOf(n, string(data))
			for _, id := range f.Rules {
				m.pagesOf[id] = append(m.pagesOf[id], f.file)
			}
		}
		m.findings = append(m.findings, f)
	}
	for _, r := range reproPages {
		m.repros = append(m.repros, *r)
	}
	slices.SortFunc(m.repros, func(a, b repro) int { return strings.Compare(a.file, b.file) })
}

// repro is the page of reproducer name, read once; nil if it is missing.
func (m *model) repro(seen map[string]*repro, name string) *repro {
	if r, ok := seen[name]; ok {
		return r
	}
	var r *repro
	if m.in.Reproducers != nil {
		if data, err := fs.ReadFile(m.in.Reproducers, name); err == nil {
			r = &repro{Head: Head{Title: "fixtures/c/findings/" + name, Root: "../"}, file: fileName(name), Source: string(data)}
		}
	}
	seen[name] = r
	return r
}

// siteLinks points a page's links at the site: another finding page at its
// HTML page, the web as it is; a link to a file the site lacks keeps its
// text only.
func siteLinks(text string, pages map[string]bool) string {
	return mdLink.ReplaceAllStringFunc(text, func(s string) string {
		sm := mdLink.FindStringSubmatch(s)
		label, target := sm[1], sm[2]
		if strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "#") {
			return s
		}
		file, frag, _ := strings.Cut(target, "#")
		if name, ok := strings.CutSuffix(path.Base(file), ".md"); ok && pages[name] && !strings.Contains(file, "/") {
			if frag != "" {
				frag = "#" + frag
			}
			return "[" + label + "](" + fileName(name) + ".html" + frag + ")"
		}
		return label
	})
}

// loadPlots reads the overhead plots.
func (m *model) loadPlots() {
	if m.in.Overhead == nil {
		return
	}
	names, _ := fs.Glob(m.in.Overhead, "*.svg")
	for _, n := range names {
		if data, err := fs.ReadFile(m.in.Overhead, n); err == nil {
			m.plots = append(m.plots, plot{n, data})
		}
	}
}

func (m *model) findingPage(f finding) finding { return f }

type overheadPage struct {
	Head
	Plots []string
}

func (m *model) overheadPage() overheadPage {
	p := overheadPage{Head: Head{Title: "Overhead", Root: ""}}
	for _, pl := range m.plots {
		p.Plots = append(p.Plots, "overhead/"+pl.name)
	}
	return p
}

const findingTmpl = `
{{define "finding"}}{{template "top" .Head}}
{{if .Rules}}<p>Rules: {{range .Rules}}<a href="../rule/{{fileName .}}.html">{{.}}</a> {{end}}</p>{{end}}
{{if .Repros}}<p>Reproducers: {{range .Repros}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</p>{{end}}
{{.Body}}
{{template "bottom" .Head}}{{end}}
{{define "repro"}}{{template "top" .Head}}
<p>A standalone reproducer: build it with the implementation's own <code>mpicc</code>. Findings: {{range .Findings}}<a href="{{.Href}}">{{.Text}}</a> {{end}}</p>
<pre>{{.Source}}</pre>
{{template "bottom" .Head}}{{end}}
{{define "overhead"}}{{template "top" .Head}}
{{range .Plots}}<p><img src="{{.}}" alt="{{.}}"></p>{{else}}<p>No overhead plot in this site.</p>{{end}}
{{template "bottom" .Head}}{{end}}
`
