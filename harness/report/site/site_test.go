package site

import (
	"github.com/mpits/mpits/harness/settings"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// committedSite writes the site of the committed reports into a temporary
// folder: every rule, every implementation, the findings and plots.
// With evidence, it reads the committed runs for the evidence of fails.
func committedSite(t *testing.T, evidence bool) (string, Stats) {
	t.Helper()
	reports := filepath.Join("..", "..", "..", "reports")
	var v report.Verdicts
	var probed []mpi.Probed
	if err := report.ReadJSON(filepath.Join(reports, "verdicts.json"), &v); err != nil {
		t.Fatal(err)
	}
	if err := report.ReadJSON(filepath.Join(reports, "implementations.json"), &probed); err != nil {
		t.Fatal(err)
	}
	in := Input{Verdicts: v, Probed: probed, Findings: os.DirFS(filepath.Join(reports, "findings")),
		Overhead: os.DirFS(filepath.Join(reports, "overhead")), Reproducers: os.DirFS(filepath.Join("..", "..", "..", "fixtures", "c", "findings"))}
	if runs, err := report.ReadRuns(filepath.Join(reports, "raw")); evidence && err == nil {
		in.Evidence = func(rule, impl string) string { return report.EvidenceOf(runs, rule, impl) }
	}
	dir := t.TempDir()
	st, err := Write(dir, in)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st
}

// TestCommittedSite: one page per implementation and per rule, no broken
// link, no empty table.
func TestCommittedSite(t *testing.T) {
	dir, st := committedSite(t, true)
	impls, _ := filepath.Glob(filepath.Join(dir, "impl", "*.html"))
	rules, _ := filepath.Glob(filepath.Join(dir, "rule", "*.html"))
	findings, _ := filepath.Glob(filepath.Join(dir, "finding", "*.html"))
	if len(impls) < 10 || len(rules) < 300 || len(findings) < 50 {
		t.Fatalf("%d implementation, %d rule, %d finding pages: the site misses some", len(impls), len(rules), len(findings))
	}
	if err := CheckSite(dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pages, %d KiB", st.Pages, st.Bytes/1024)
}

// TestCheckSiteFailsBrokenLink plants a broken link and an empty table in
// a generated site: the checker names both.
func TestCheckSiteFailsBrokenLink(t *testing.T) {
	dir, _ := committedSite(t, false)
	page := filepath.Join(dir, "rule", "CB-7.html")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	planted := strings.Replace(string(data), `href="../impl/`, `href="../impl/no-such-`, 1)
	planted = strings.Replace(planted, "</main>", `<table id="planted"><tbody></tbody></table></main>`, 1)
	if err := os.WriteFile(page, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	err = CheckSite(dir)
	if err == nil || !strings.Contains(err.Error(), "rule/CB-7.html: broken link \"../impl/no-such-") || !strings.Contains(err.Error(), "table planted has no row") {
		t.Fatalf("the checker missed the planted faults: %v", err)
	}
}

// TestEscapesImplementationText: a reason or evidence an implementation
// gives reaches the page as text, never as markup.
func TestEscapesImplementationText(t *testing.T) {
	row := report.Row{RuleInfo: rulebook.RuleInfo{ID: "X-1", Suite: "S", Basis: rulebook.Normative, Rule: "r"}, Impl: "lib", Status: verdict.Fail,
		Reason: `<script>alert(1)</script>`}
	in := Input{Verdicts: report.Verdicts{Rows: []report.Row{row}}, Evidence: func(string, string) string { return `<img src=x onerror=alert(2)>` }}
	dir := t.TempDir()
	if _, err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"index.html", "impl/lib.html", "rule/X-1.html"} {
		data, _ := os.ReadFile(filepath.Join(dir, p))
		if strings.Contains(string(data), "<script>alert") || strings.Contains(string(data), "<img src=x") {
			t.Errorf("%s carries the implementation's text as markup", p)
		}
	}
}

// TestBesideMarksYours: a vendor's run sits beside the reference builds,
// its page saying what they gave.
func TestBesideMarksYours(t *testing.T) {
	info := rulebook.RuleInfo{ID: "X-1", Suite: "S", Basis: rulebook.Normative, Rule: "r"}
	ref := report.Verdicts{Rows: []report.Row{{RuleInfo: info, Impl: "ref-a", Status: verdict.Pass}, {RuleInfo: info, Impl: "ref-b", Status: verdict.Fail, Reason: "ref-b's header: x"},
		{RuleInfo: info, Impl: "ref-c", Status: verdict.Fail, Reason: "crash"}}}
	run := report.Verdicts{Rows: []report.Row{{RuleInfo: info, Impl: "custom", Status: verdict.Fail, Reason: "custom's header: x"}}}
	dir := t.TempDir()
	if _, err := Write(dir, Beside(run, ref, nil, nil)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "impl", "custom.html"))
	if !strings.Contains(string(data), "fail the same way on ref-b; fail on ref-c; pass on ref-a. Yours: fail") {
		t.Errorf("custom's page does not compare it with the reference builds:\n%s", data)
	}
	if err := CheckSite(dir); err != nil {
		t.Error(err)
	}
}

// TestCheckSiteDir checks a site written elsewhere (a vendor's run's):
// MPITS_SITE_DIR=DIR go test ./harness/report/site -run CheckSiteDir.
func TestCheckSiteDir(t *testing.T) {
	dir := settings.Setting("MPITS_SITE_DIR").String()
	if dir == "" {
		t.Skip("MPITS_SITE_DIR names no site")
	}
	if err := CheckSite(dir); err != nil {
		t.Fatal(err)
	}
}
