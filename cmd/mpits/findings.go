package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/verdict"
)

func cmdFindings(args []string) error {
	fs := flag.NewFlagSet("findings", flag.ExitOnError)
	dir := fs.String("dir", "reports/findings", "the finding pages")
	vpath := fs.String("verdicts", "reports/verdicts.json", "the verdicts of the run (mpits report)")
	ipath := fs.String("impls", "reports/implementations.json", "the implementations of the run (mpits report)")
	check := fs.Bool("check", false, "fail when a page's history is out of date instead of rewriting it")
	fs.Parse(args)
	var v report.Verdicts
	if err := report.ReadJSON(*vpath, &v); err != nil {
		return err
	}
	var probed []mpi.Probed
	if err := report.ReadJSON(*ipath, &probed); err != nil {
		return err
	}
	h := report.NewHistory(v.Rows, probed)
	pages, err := filepath.Glob(filepath.Join(*dir, "*.md"))
	if err != nil {
		return err
	}
	var stale []string
	for _, p := range pages {
		if filepath.Base(p) == "README.md" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := string(data)
		want := report.WithHistory(text, h.Block(report.PageRules(filepath.Base(p), text, h)))
		if want == text {
			continue
		}
		if *check {
			stale = append(stale, filepath.Base(p))
			continue
		}
		if err := mpi.WriteAtomic(p, []byte(want), 0o644); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("the history of %d finding pages is out of date (%s): run go run ./cmd/mpits findings", len(stale), verdict.FirstAndMore(stale))
	}
	return nil
}
