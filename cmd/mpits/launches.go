package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
)

func cmdLaunches(args []string) error {
	fs := flag.NewFlagSet("launches", flag.ExitOnError)
	direct := fs.String("direct", "reports", "the direct run's folder (verdicts.json, implementations.json)")
	out := fs.String("out", "reports/slurm/launches.md", "the comparison to write")
	var under words // impl.go
	fs.Var(&under, "under", "MODE=DIR: a run through another launch path (repeat)")
	fs.Parse(args)
	base, err := report.ReadLaunchRun("direct", *direct)
	if err != nil {
		return err
	}
	var runs []*report.LaunchRun
	for _, u := range under {
		mode, dir, ok := strings.Cut(u, "=")
		if !ok {
			return fmt.Errorf("-under %q: write MODE=DIR, e.g. srun=reports/slurm/srun", u)
		}
		r, err := report.ReadLaunchRun(mode, dir)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	return mpi.WriteAtomic(*out, []byte(report.LaunchesMarkdown(base, runs)), 0o644)
}
