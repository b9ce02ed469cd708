package site

import (
	"slices"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
)

// Beside is a vendor's run next to the reference builds' verdicts: the
// run's implementations are Yours, and a reference build of the same id
// gives way to the run's.
func Beside(run, ref report.Verdicts, runProbed, refProbed []mpi.Probed) Input {
	var yours []string
	for _, r := range run.Rows {
		if !slices.Contains(yours, r.Impl) {
			yours = append(yours, r.Impl)
		}
	}
	in := Input{Yours: yours, Probed: slices.Clone(runProbed)}
	in.Verdicts.Rows = slices.Clone(run.Rows)
	for _, r := range ref.Rows {
		if !slices.Contains(yours, r.Impl) {
			in.Verdicts.Rows = append(in.Verdicts.Rows, r)
		}
	}
	for _, p := range refProbed {
		if !slices.Contains(yours, p.Impl.ID) {
			in.Probed = append(in.Probed, p)
		}
	}
	in.Verdicts.Injections = append(slices.Clone(run.Injections), ref.Injections...)
	return in
}
