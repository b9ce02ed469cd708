package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/settings"
	"github.com/onsi/ginkgo/v2/types"
)

// runUsage is mpits run's usage line.
const runUsage = `usage: mpits run [--mpi PREFIX | --mpicc W --mpiexec L | --impls FILE] [--id NAME] [--env K=V]...
       [--only IDS] [--labels FILTER] [--expect DIR [--expect-update]] [--junit FILE] [--json FILE] [--html DIR]
       [--strict WHICH] [--jobs N] [--timeout D] [--no-color] [-v] [-- GINKGO_FLAG...]`

// A run flag that is a setting sets it: the harness reads and validates
// every setting in one place (harness/settings), whichever door it came by.
var runSettingFlags = []struct{ flag, setting, usage string }{
	{"mpi", "MPITS_MPI", "your MPI's installation prefix (bin/mpicc, bin/mpiexec)"},
	{"mpicc", "MPITS_MPICC", "your MPI's compiler wrapper (with --mpiexec)"},
	{"mpiexec", "MPITS_MPIEXEC", "your MPI's launcher (with --mpicc)"},
	{"id", "MPITS_IMPL_ID", "the id of the implementation --mpi or --mpicc describe (default custom)"},
	{"impls", "MPITS_IMPLEMENTATIONS", "an implementations file describing several"},
	{"only", "MPITS_IMPLS", "only these implementations of the file, comma-separated"},
	{"expect", settings.ExpectEnv, "the folder of known failures: one file per suite"},
	{"strict", settings.StrictEnv, "quality, interpretation or all: those verdicts fail the run too"},
	{"jobs", settings.JobsEnv, "how many ranks run at once (default eight a core)"},
	{"timeout", settings.TimeoutEnv, "end the run after this long (a Go duration), as an interrupt does: the verdicts so far, the rules not reached named"},
}

// runFlags are mpits run's flags, as parsed.
type runFlags struct {
	fs                              *flag.FlagSet
	vals                            map[string]*string // the settings' flags, by setting
	env                             *words
	labels, junit, jsonOut, htmlOut *string
	update, noColor, verbose        *bool
}

// newRunFlags is mpits run's flag set (TestRunRefusesEveryMalformedInput
// gives each flag it has a malformed value).
func newRunFlags() *runFlags {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &runFlags{fs: fs, vals: map[string]*string{}, env: &words{}}
	for _, sf := range runSettingFlags {
		f.vals[sf.setting] = fs.String(sf.flag, "", sf.usage)
	}
	fs.Var(f.env, "env", "K=V given to the compiler, every probe and every job of the implementation --mpi or --mpicc describe (repeatable)")
	f.labels = fs.String("labels", "", "a Ginkgo label filter: which rules and implementations to judge")
	f.update = fs.Bool("expect-update", false, "accept every verdict and rewrite the --expect files")
	f.junit = fs.String("junit", "", "write one JUnit file for every suite")
	f.jsonOut = fs.String("json", "", "write the verdicts, in reports/verdicts.json's form")
	f.htmlOut = fs.String("html", "", "write the verdicts as a static HTML site, beside the reference builds' (carried in the binary)")
	f.noColor = fs.Bool("no-color", false, "no escape codes in the output")
	f.verbose = fs.Bool("v", false, "say each spec as it runs")
	return f
}

// cmdRun is the front door: every conformance suite in this process, one
// Ginkgo run, one summary, one JUnit file. It exits 0 exactly when no
// normative or seed rule fails or errs beyond the expectations.
func cmdRun(args []string) error {
	f := newRunFlags()
	fs, vals, env, labels, junit, jsonOut, htmlOut := f.fs, f.vals, f.env, f.labels, f.junit, f.jsonOut, f.htmlOut
	update, noColor, verbose := f.update, f.noColor, f.verbose
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(os.Stdout)
			fmt.Println(runUsage)
			fs.PrintDefaults()
			os.Exit(0)
		}
		return refuse(fmt.Errorf("run: %v (%s)", err, strings.SplitN(runUsage, "\n", 2)[0]))
	}
	for _, f := range runSettingFlags {
		if v := *vals[f.setting]; v != "" {
			if f.setting == settings.ExpectEnv || f.setting == "MPITS_MPI" || f.setting == "MPITS_IMPLEMENTATIONS" {
				v = absPath(v)
			}
			os.Setenv(f.setting, v)
		}
	}
	if len(*env) > 0 {
		// One variable a flag: a value holding a newline would become two
		// variables of MPITS_ENV's lines (K=a, then LD_PRELOAD=...).
		for _, kv := range *env {
			if _, err := settings.Assignments(kv); err != nil || strings.ContainsAny(kv, "\n\r") {
				if err == nil {
					err = fmt.Errorf("holds a line break: a value is one line of text")
				}
				return refuse(fmt.Errorf("run: --env %q: %v", kv, err))
			}
		}
		os.Setenv("MPITS_ENV", strings.Join(*env, "\n"))
	}
	if *update {
		os.Setenv(settings.ExpectUpdateEnv, "1")
	}
	if _, err := types.ParseLabelFilter(*labels); err != nil {
		return refuse(fmt.Errorf("run: --labels %q: %s", *labels, oneLine(err.Error())))
	}
	ginkgoFlags := map[string]string{"ginkgo.label-filter": *labels}
	if *junit != "" {
		ginkgoFlags["ginkgo.junit-report"] = absPath(*junit)
	}
	// Ginkgo's own timeout (an hour) must not end a longer run first.
	ginkgoFlags["ginkgo.timeout"] = "1000h"
	if *noColor {
		ginkgoFlags["ginkgo.no-color"] = "true"
	}
	if *verbose {
		ginkgoFlags["ginkgo.v"] = "true"
	}
	for name, v := range ginkgoFlags {
		if v == "" {
			continue
		}
		if err := flag.CommandLine.Set(name, v); err != nil {
			return refuse(fmt.Errorf("run: --%s %q: %v", strings.TrimPrefix(name, "ginkgo."), v, err))
		}
	}
	// Anything after -- is Ginkgo's own (-ginkgo.json-report=FILE, ...).
	if err := flag.CommandLine.Parse(fs.Args()); err != nil {
		return refuse(fmt.Errorf("run: %v: after --, give -ginkgo.* flags only", err))
	}
	if rest := flag.CommandLine.Args(); len(rest) > 0 {
		return refuse(fmt.Errorf("run: %q is not a flag: give every setting as a flag (%s)", rest[0], strings.SplitN(runUsage, "\n", 2)[0]))
	}
	// Where the reports go is checked before anything runs: a run of
	// minutes must not end unable to write them.
	if err := checkOutputs(map[string]string{"--json": *jsonOut, "--junit": *junit}, *htmlOut, *update); err != nil {
		return refuse(fmt.Errorf("run: %v", err))
	}
	// So are the settings, the implementations, the expectations and the
	// label filter: a refusal is exit 2 with nothing made.
	all := harness.Combine("conformance", suites...)
	if _, err := all.Preflight(); err != nil {
		for _, f := range runSettingFlags {
			if v := *vals[f.setting]; v != "" && strings.Contains(err.Error(), f.setting) {
				return refuse(fmt.Errorf("run: --%s %q: %v", f.flag, v, err))
			}
		}
		return refuse(err)
	}
	out := all.RunAll()
	if *htmlOut != "" {
		if err := writeRunSite(out, absPath(*htmlOut)); err != nil {
			return fmt.Errorf("run: %v", err)
		}
	}
	if *jsonOut != "" {
		if err := writeRunVerdicts(out, absPath(*jsonOut)); err != nil {
			return fmt.Errorf("run: --json %s: %v", *jsonOut, err)
		}
	}
	if !out.Passed {
		os.Exit(1)
	}
	return nil
}

// versionsOf is each probed implementation's version.
func versionsOf(probed []mpi.Probed) map[string]string {
	versions := map[string]string{}
	for _, p := range probed {
		versions[p.Impl.ID] = report.VersionOf(p)
	}
	return versions
}

// oneLine is a message of several lines (Ginkgo's) as one, its escape
// codes and blank lines dropped.
func oneLine(msg string) string {
	msg = regexp.MustCompile(`\x1b\[[0-9;]*m|\{\{/?[a-z-]*\}\}`).ReplaceAllString(msg, "")
	return strings.Join(strings.Fields(msg), " ")
}

// absPath is p from the folder mpits run was started in: the harness reads
// settings in the processes it starts too.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// writeRunVerdicts writes a run's verdicts as mpits report writes
// verdicts.json, the versions from the capabilities the run probed.
func writeRunVerdicts(out harness.Outcome, path string) error {
	run, err := decodedRun(out.Report)
	if err != nil {
		return err
	}
	rows, injs := report.Collect([]types.Report{run}, versionsOf(out.Probed))
	return mpi.WriteJSON(path, report.Verdicts{Rows: rows, Injections: injs})
}
