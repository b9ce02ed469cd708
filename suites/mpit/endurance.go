package mpit

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// Endurance: many cycles of MPI_T initialization, and of sessions and
// handles, in one process (fixtures/c/mpit/endurance.c, a few seconds each).
// A failed call, a crash or a hang is the verdict; the resident set's
// growth per cycle is reported, never judged.
var enduranceCheck = harness.Define(harness.Check{
	ID:    "MPIT-ENDURANCE",
	Needs: "mpit",
	Title: "thousands of MPI_T init/finalize cycles, and of session and handle cycles, in one process neither fail nor crash (memory growth reported)",
	Rules: []harness.Rule{
		// §15.3.4: "Further, additional calls to MPI_T_INIT_THREAD after one or
		// more calls to MPI_T_FINALIZE are permissible." How often is not
		// bounded, nor is it said that resources are returned: quality.
		{ID: "END-1", Source: "MPI-5.0 §15.3.4", Basis: harness.Quality,
			Text:      "MPI_T init/finalize cycles after MPI_Init (up to 4000, or 3 s) all succeed without a crash",
			Injectors: []string{"inject_mpit_cycle_breaks"}, Judge: judgeEndurance("tool")},
		// §15.3.7.3-4: sessions and handles are created and freed; nothing
		// bounds how often: quality.
		{ID: "END-2", Source: "MPI-5.0 §15.3.7.3, §15.3.7.4", Basis: harness.Quality,
			Text:      "pvar session create/free cycles, each allocating and freeing a handle of every NO_OBJECT performance variable, and control variable handle cycles all succeed without a crash",
			Injectors: []string{"inject_mpit_cycle_breaks"}, Judge: judgeEndurance("handles")},
	},
})

type cycleRec struct {
	Cycle   int     `json:"cycle"`
	RSSKiB  int     `json:"rss_kib"`
	Seconds float64 `json:"seconds"`
}

type cycleFailed struct {
	Cycle int    `json:"cycle"`
	Call  string `json:"call"`
	RC    string `json:"rc"`
}

func judgeEndurance(mode string) func(x *harness.X) harness.Verdict {
	return func(x *harness.X) harness.Verdict {
		res, recs, err := x.LaunchOnce(harness.Job{Name: "mpit_endurance_" + mode, Ranks: 1, Program: x.Fixture("mpit_endurance"), Args: []string{mode}})
		if recs == nil {
			if res.OK() {
				x.Errorf(res.Evidence(), "%v", err)
			}
			x.Failf(res.Evidence(), "the process died before its first cycle: %s", res.Problem())
		}
		cycles := decode[cycleRec](recs, "cycle")
		last := 0
		if len(cycles) > 0 {
			last = cycles[len(cycles)-1].Cycle
		}
		for _, f := range decode[cycleFailed](recs, "failed") {
			x.Failf(res.Evidence(), "cycle %d: %s returned %s", f.Cycle, f.Call, f.RC)
		}
		if !res.OK() {
			x.Failf(res.Evidence(), "the process died (%s) after its checkpoint at cycle %d (one every 25 cycles)", res.Problem(), last)
		}
		if len(cycles) < 2 || last == 0 {
			x.Errorf(res.Evidence(), "mpit_endurance recorded no cycle")
		}
		first, end := cycles[0], cycles[len(cycles)-1]
		// growth over the second half, past the first allocations
		mid := cycles[len(cycles)/2]
		per := 0.0
		if end.Cycle > mid.Cycle {
			per = float64(end.RSSKiB-mid.RSSKiB) * 1024 / float64(end.Cycle-mid.Cycle)
		}
		return harness.Verdict{Reason: fmt.Sprintf("%d cycles in %.1f s, all succeeded; resident set %d KiB to %d KiB, %+.0f bytes per cycle over the second half", end.Cycle, end.Seconds, first.RSSKiB, end.RSSKiB, per)}
	}
}
