package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/overhead"
	"github.com/mpits/mpits/suites/abi"
	"github.com/mpits/mpits/suites/events"
	"github.com/mpits/mpits/suites/mpit"
	"github.com/mpits/mpits/suites/qmpi"
)

// suites is the one list of conformance suites: the catalogue reads it,
// and ci/run-suites runs the packages that `mpits suites` prints.
var suites = []*harness.Suite{qmpi.Suite, mpit.Suite, events.Suite, abi.Suite}

// suiteNames are the suites' names, in their order.
func suiteNames() []string {
	var names []string
	for _, s := range suites {
		names = append(names, s.Name)
	}
	return names
}

func cmdSuites([]string) error {
	fmt.Println(strings.Join(report.SuiteDirs, " "))
	return nil
}

// cmdCatalogue writes (or with -check compares) reports/catalogue.md and
// reports/rules.json, both from the suites' rule declarations.
func cmdCatalogue(args []string) error {
	fs := flag.NewFlagSet("catalogue", flag.ExitOnError)
	out := fs.String("out", "reports", "folder to write catalogue.md and rules.json into")
	check := fs.Bool("check", false, "only check that both files are up to date")
	fs.Parse(args)
	if err := harness.ValidateAll(suites...); err != nil {
		return err
	}
	rules := harness.RuleInfos(suites...)
	// the verdicts of the last main job, for what is unsupported here
	var v report.Verdicts
	if err := report.ReadJSON(filepath.Join(*out, "verdicts.json"), &v); err != nil && !os.IsNotExist(err) {
		return err
	}
	files := map[string]string{
		filepath.Join(*out, "catalogue.md"): report.RulesMarkdown(rules, suiteNames()) + report.Coverage(rules, v.Rows, overhead.Measures) + report.StateTables(rules, v.Rows),
		filepath.Join(*out, "rules.json"):   report.MustJSON(report.Catalogue{Rules: report.Anchored(rules)}),
	}
	for path, text := range files {
		var err error
		if *check {
			err = checkFresh(path, text, "go run ./cmd/mpits catalogue")
		} else {
			err = mpi.WriteAtomic(path, []byte(text), 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
