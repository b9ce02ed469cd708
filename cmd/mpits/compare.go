package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mpits/mpits/harness/report"
)

// mpits compare: two runs' verdicts, status by status (report.CompareStatuses).

const compareUsage = "usage: mpits compare [-impl-a ID [-impl-b ID]] [-no-errors] A/verdicts.json B/verdicts.json"

func cmdCompare(args []string) error { return compare(args, os.Stdout) }

func compare(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	implA := fs.String("impl-a", "", "compare only the rules A judged on this implementation")
	implB := fs.String("impl-b", "", "against B's verdicts on this one (default: -impl-a)")
	noErrors := fs.Bool("no-errors", false, "fail, too, when A holds an error verdict (the suite's: a rule left not judged by a named cause is not one)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("compare: %v: %s", err, compareUsage)
	}
	if fs.NArg() != 2 {
		return errors.New("compare needs two verdicts files: " + compareUsage)
	}
	if *implB == "" {
		*implB = *implA
	}
	var runs [2]report.Verdicts
	for i, path := range fs.Args() {
		if err := report.ReadJSON(path, &runs[i]); err != nil {
			return fmt.Errorf("compare: %s cannot be read (%v): give the verdicts.json of a run (ci/run-suites writes one)", path, err)
		}
	}
	diffs, n := report.CompareStatuses(runs[0], runs[1], *implA, *implB)
	for _, d := range diffs {
		fmt.Fprintln(out, "  "+d)
	}
	fmt.Fprintf(out, "%d verdicts compared, %d differ\n", n, len(diffs))
	errs := report.ErrorCount(runs[0])
	if *noErrors {
		fmt.Fprintf(out, "%s: %d error verdicts\n", fs.Arg(0), errs)
	}
	switch {
	case n == 0 && *implA != "":
		return fmt.Errorf("compare: nothing compared: %s holds no verdict on %s", fs.Arg(0), *implA)
	case len(runs[0].Rows) == 0:
		return fmt.Errorf("compare: nothing compared: %s holds no verdict", fs.Arg(0))
	case len(diffs) > 0:
		return fmt.Errorf("compare: %d of %d verdicts differ", len(diffs), n)
	case *noErrors && errs > 0:
		return fmt.Errorf("compare: %s holds %d error verdicts", fs.Arg(0), errs)
	}
	return nil
}
