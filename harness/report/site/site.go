// Package site writes the verdicts as a static HTML site that opens from
// disk: no server, no network, no script library (one small filters.js).
// Everything an implementation gives (reasons, evidence) is untrusted text,
// escaped by html/template.
package site

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
)

// Input is what a site is made from.
type Input struct {
	Verdicts report.Verdicts
	Probed   []mpi.Probed
	// Evidence is a verdict's evidence, where the runs are at hand; nil: none.
	Evidence func(rule, impl string) string
	// Findings holds the finding pages (*.md), Reproducers their C
	// reproducers (*.c), Overhead the overhead plots (*.svg); any may be nil.
	Findings, Reproducers, Overhead fs.FS
	// Yours are the implementations of a vendor's run, shown beside the
	// reference builds; empty for the project's own report.
	Yours []string
}

// Stats is what Write wrote.
type Stats struct {
	Pages int   // HTML pages
	Bytes int64 // every file's size
}

//go:embed style.css
var styleCSS []byte

//go:embed filters.js
var filtersJS []byte

// Write writes the site into dir (made if missing), index.html first.
func Write(dir string, in Input) (Stats, error) {
	if err := CheckFolder(dir); err != nil {
		return Stats{}, err
	}
	s := newModel(in)
	w := &writer{dir: dir}
	w.file(Marker, []byte("written by mpits: a later site may replace every file here\n"))
	w.file("style.css", styleCSS)
	w.file("filters.js", filtersJS)
	w.page("index.html", "index", s.indexPage())
	for _, im := range s.impls {
		w.page("impl/"+fileName(im)+".html", "impl", s.implPage(im))
	}
	for _, id := range s.ruleIDs {
		w.page("rule/"+fileName(id)+".html", "rule", s.rulePage(id))
	}
	for _, f := range s.findings {
		w.page("finding/"+f.file+".html", "finding", s.findingPage(f))
	}
	for _, r := range s.repros {
		w.page("repro/"+r.file+".html", "repro", r)
	}
	w.page("overhead.html", "overhead", s.overheadPage())
	for _, p := range s.plots {
		w.file("overhead/"+p.name, p.data)
	}
	return w.stats, w.err
}

// Marker is the file that says a folder holds a site mpits wrote: only
// such a folder, an empty one or a new one takes a site.
const Marker = ".mpits-site"

// CheckFolder accepts dir for a site when it is missing (it is made), an
// empty folder, or a folder holding a site mpits wrote (Marker): a site
// never replaces files it did not write.
func CheckFolder(dir string) error {
	info, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("is %s, not a folder: name a new folder", Kind(info.Mode()))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if m, err := os.Lstat(filepath.Join(dir, Marker)); err == nil && m.Mode().IsRegular() {
		return nil
	}
	var names []string
	for _, e := range entries[:min(3, len(entries))] {
		names = append(names, e.Name())
	}
	return fmt.Errorf("holds files mpits did not write (%s): name a new or empty folder", strings.Join(names, ", "))
}

// Kind names what a file is, for a refusal.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// writer writes files and remembers the first error.
type writer struct {
	dir   string
	stats Stats
	err   error
}

func (w *writer) file(rel string, data []byte) {
	if w.err != nil {
		return
	}
	path := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.err = err
		return
	}
	if err := mpi.WriteAtomic(path, data, 0o644); err != nil {
		w.err = fmt.Errorf("site: %v", err)
		return
	}
	w.stats.Bytes += int64(len(data))
}

func (w *writer) page(rel, tmpl string, data any) {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, tmpl, data); err != nil && w.err == nil {
		w.err = fmt.Errorf("site: %s: %v", rel, err)
		return
	}
	w.file(rel, b.Bytes())
	w.stats.Pages++
}

// pages are every page's template, parsed once.
var pages = template.Must(template.New("site").Funcs(funcs).Parse(layout + indexTmpl + implTmpl + ruleTmpl + findingTmpl))

// layout is every page's frame: Title, Root (the way back to index.html).
const layout = `
{{define "top"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} · mpits</title>
<link rel="stylesheet" href="{{.Root}}style.css"></head>
<body><nav><a href="{{.Root}}index.html">mpits verdicts</a> · <a href="{{.Root}}overhead.html">overhead</a></nav>
<main><h1>{{.Title}}</h1>{{end}}
{{define "bottom"}}</main><script src="{{.Root}}filters.js"></script></body></html>{{end}}
{{define "filters"}}<div class="filters">{{range .}}<label>{{.Name}} <select data-filter="{{.Name}}"><option value="">all</option>{{range .Values}}<option>{{.}}</option>{{end}}</select></label> {{end}}<span class="shown"></span></div>{{end}}
{{define "status"}}<span class="st {{.}}">{{.}}</span>{{end}}
`
