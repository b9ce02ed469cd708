package main

import (
	"flag"
	"path/filepath"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
)

func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	raw := fs.String("raw", "reports/raw", "folder with the suites' Ginkgo JSON reports and capabilities.json")
	out := fs.String("out", "reports", "folder to write verdicts.json, matrix.md and implementations.md into")
	html := fs.String("html", "", "also write the verdicts as a static HTML site into this folder")
	fs.Parse(args)
	probed, err := report.ReadProbed(filepath.Join(*raw, mpi.ProbedFile))
	if err != nil {
		return err
	}
	runs, err := report.ReadRuns(*raw)
	if err != nil {
		return err
	}
	versions := map[string]string{}
	var order []string
	for _, p := range report.HistoryOrder(probed) {
		versions[p.Impl.ID] = report.VersionOf(p)
		order = append(order, p.Impl.ID)
	}
	rows, injs := report.Collect(runs, versions)
	v := report.Verdicts{Rows: rows, Injections: injs}
	if err := mpi.WriteJSON(filepath.Join(*out, "verdicts.json"), v); err != nil {
		return err
	}
	if err := mpi.WriteAtomic(filepath.Join(*out, "matrix.md"), []byte(report.MatrixMarkdown(rows, injs, order)+report.TwinsMarkdown(rows, probed)), 0o644); err != nil {
		return err
	}
	if err := mpi.WriteAtomic(filepath.Join(*out, "history.md"), []byte(report.HistoryMarkdown(rows, probed)), 0o644); err != nil {
		return err
	}
	if err := mpi.WriteJSON(filepath.Join(*out, "implementations.json"), probed); err != nil {
		return err
	}
	if err := mpi.WriteAtomic(filepath.Join(*out, "implementations.md"), []byte(report.ImplementationsMarkdown(probed)), 0o644); err != nil {
		return err
	}
	if *html != "" {
		return writeReportSite(*html, *out, v, probed, runs)
	}
	return nil
}
