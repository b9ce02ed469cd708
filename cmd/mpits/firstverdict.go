package main

import (
	"fmt"
	"time"

	"github.com/mpits/mpits/harness/report"
	"github.com/onsi/ginkgo/v2/types"
)

// cmdFirstVerdict prints, in nanoseconds, how long after its start a run's
// first rule spec ended (ci/speed): how soon a vendor sees a verdict.
func cmdFirstVerdict(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: mpits first-verdict REPORT.json (a run's Ginkgo JSON report)")
	}
	var runs []types.Report
	if err := report.ReadJSON(args[0], &runs); err != nil {
		return err
	}
	var first time.Duration
	for _, r := range runs {
		for _, sp := range r.SpecReports {
			if sp.LeafNodeType != types.NodeTypeIt || sp.State.Is(types.SpecStatePending) || sp.EndTime.IsZero() {
				continue
			}
			if d := sp.EndTime.Sub(r.StartTime); first == 0 || d < first {
				first = d
			}
		}
	}
	if first == 0 {
		return fmt.Errorf("%s: no spec ended", args[0])
	}
	fmt.Println(first.Nanoseconds())
	return nil
}
