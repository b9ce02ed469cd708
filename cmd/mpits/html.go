package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mpits/mpits/fixtures"
	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/report/site"
	committed "github.com/mpits/mpits/reports"
	"github.com/onsi/ginkgo/v2/types"
)

// writeReportSite writes mpits report's site: the verdicts just collected,
// the evidence of the runs, the finding pages and plots of reports dir out.
func writeReportSite(dir, out string, v report.Verdicts, probed []mpi.Probed, runs []types.Report) error {
	in := site.Input{Verdicts: v, Probed: probed,
		Evidence: func(rule, impl string) string { return report.EvidenceOf(runs, rule, impl) },
		Findings: reportsDir(out, "findings"), Overhead: reportsDir(out, "overhead")}
	return writeSite(dir, in)
}

// reportsDir is sub of the reports folder out, or the committed one the
// binary carries where out has none.
func reportsDir(out, sub string) fs.FS {
	if fi, err := os.Stat(filepath.Join(out, sub)); err == nil && fi.IsDir() {
		return os.DirFS(filepath.Join(out, sub))
	}
	f, _ := fs.Sub(committed.Committed, sub)
	return f
}

// writeRunSite writes mpits run's site: the run's verdicts beside the
// reference builds' committed ones, which the binary carries.
func writeRunSite(out harness.Outcome, dir string) error {
	run, err := decodedRun(out.Report)
	if err != nil {
		return err
	}
	probed := out.Probed
	rows, injs := report.Collect([]types.Report{run}, versionsOf(probed))
	var ref report.Verdicts
	var refProbed []mpi.Probed
	if err := readEmbedded("verdicts.json", &ref); err != nil {
		return err
	}
	if err := readEmbedded("implementations.json", &refProbed); err != nil {
		return err
	}
	in := site.Beside(report.Verdicts{Rows: rows, Injections: injs}, ref, probed, refProbed)
	runs := []types.Report{run}
	in.Evidence = func(rule, impl string) string { return report.EvidenceOf(runs, rule, impl) }
	in.Findings, in.Overhead = embedded("findings"), embedded("overhead")
	return writeSite(dir, in)
}

func writeSite(dir string, in site.Input) error {
	in.Reproducers, _ = fs.Sub(fixtures.C, "c/findings")
	st, err := site.Write(dir, in)
	if err != nil {
		return fmt.Errorf("--html %s: %v", dir, err)
	}
	fmt.Fprintf(os.Stderr, "mpits: wrote %d pages (%d KiB) into %s; open %s\n", st.Pages, st.Bytes/1024, dir, filepath.Join(dir, "index.html"))
	return nil
}

func readEmbedded(name string, v any) error {
	data, err := committed.Committed.ReadFile(name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("the reference %s this binary carries: %v", name, err)
	}
	return nil
}

// decodedRun is a run's report as its JSON reads: its entries hold Go
// values in this process, and the report's readers read their JSON.
func decodedRun(final types.Report) (types.Report, error) {
	var run types.Report
	data, err := json.Marshal(final)
	if err != nil {
		return run, err
	}
	err = json.Unmarshal(data, &run)
	return run, err
}

// embedded is folder sub of the committed reports the binary carries.
func embedded(sub string) fs.FS {
	f, _ := fs.Sub(committed.Committed, sub)
	return f
}
