package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
)

func cmdBaseline(args []string) error {
	fs := flag.NewFlagSet("baseline", flag.ExitOnError)
	path := fs.String("baseline", "reports/baseline.json", "the committed baseline")
	vpath := fs.String("verdicts", "reports/verdicts.json", "the verdicts of a run (mpits report)")
	update := fs.Bool("update", false, "write the run's verdicts as the new baseline (keeps finding links)")
	runsDir := fs.String("runs", "", "the run's Ginkgo JSON reports (its raw/ folder): each differing verdict is printed with its evidence")
	fs.Parse(args)
	var v report.Verdicts
	if err := report.ReadJSON(*vpath, &v); err != nil {
		return fmt.Errorf("verdicts %s cannot be read (%v): run the suites and mpits report first (ci/run-suites does)", *vpath, err)
	}
	var base report.Baseline
	if err := report.ReadJSON(*path, &base); err != nil && !(*update && os.IsNotExist(err)) {
		return fmt.Errorf("baseline %s cannot be read (%v): write one with mpits baseline -update after a run", *path, err)
	}
	if *update {
		return mpi.WriteJSON(*path, report.Updated(base, v))
	}
	diffs, notes := report.Compare(base, v, report.CheckoutOf(*path))
	for _, n := range notes {
		fmt.Println("baseline: note:", n)
	}
	var runs []types.Report
	if *runsDir != "" && len(diffs) > 0 {
		var err error
		if runs, err = report.ReadRuns(*runsDir); err != nil {
			fmt.Printf("baseline: note: no evidence printed: -runs %s: %v\n", *runsDir, err)
		}
	}
	for _, d := range diffs {
		fmt.Println("baseline: DIFFERENCE:", d)
		if ev := report.EvidenceOf(runs, d.Rule, d.Impl); d.Rule != "" && ev != "" {
			// its end, where a dying process leaves its last words
			fmt.Println("    " + strings.ReplaceAll(strings.TrimRight(mpi.Tail(ev, 3000), "\n"), "\n", "\n    "))
		}
	}
	fmt.Printf("baseline: %d passed, %d failed\n", len(v.Rows)+len(v.Injections)-len(diffs), len(diffs))
	if len(diffs) > 0 {
		return fmt.Errorf("%d verdicts differ from %s", len(diffs), *path)
	}
	return nil
}
