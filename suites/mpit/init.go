package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.4 (Initialization and Finalization): MPI_T_init_thread "can
// be called multiple times" and returns in provided "one of the four values";
// MPI_T_finalize "may be called as often as the corresponding
// MPI_T_INIT_THREAD routine ... Calling it more times returns a
// corresponding return code"; "The user can reinitialize the interface by a
// subsequent call to MPI_T_INIT_THREAD"; §16.3: "the routines of this
// interface can be called before MPI is initialized and after MPI is
// finalized", and an application "must have called MPI_T_INIT_THREAD and
// MPI_T_FINALIZE an equal number of times".
var initFinalize = harness.Define(harness.Check{
	ID:        "MPIT-INIT-001",
	Clause:    "MPI-4.1:16.3.4",
	Needs:     "mpit",
	Title:     "nested MPI_T_init_thread/MPI_T_finalize are counted, one finalize too many is an error, the interface initializes again and works before MPI_Init, in between and after MPI_Finalize, and provided is a thread level",
	Injectors: []string{"inject_mpit_finalize_extra"},
	Run:       runInitFinalize,
})

type stepRec struct {
	Step  int    `json:"step"`
	Phase string `json:"phase"`
	Call  string `json:"call"`
	RC    string `json:"rc"`
	Value int    `json:"value"`
}

type providedRec struct {
	Phase    string `json:"phase"`
	Call     string `json:"call"`
	Required string `json:"required"`
	Provided string `json:"provided"`
	Raw      int    `json:"raw"`
}

type downUpRec struct {
	Phase  string `json:"phase"`
	Signal int    `json:"signal"`
	Exit   int    `json:"exit"`
}

func runInitFinalize(x *harness.X) harness.Verdict {
	res, recs, err := x.LaunchOnce(harness.Job{Name: "mpit_init_finalize", Ranks: 1, Program: x.Fixture("mpit_init_finalize")})
	if err != nil {
		// no records at all: the very first calls went wrong
		return harness.Verdict{Status: harness.Error, Reason: err.Error(), Evidence: res.Evidence()}
	}
	steps := decode[stepRec](recs, "step")
	var p problems
	var cvars int
	seen := map[string]bool{}
	for _, s := range steps {
		seen[s.Phase+" "+s.Call] = true
		switch {
		case strings.HasSuffix(s.Call, "(one too many)"):
			if s.RC == "MPI_SUCCESS" {
				p.add("%s: %s returned MPI_SUCCESS, not an error code", phaseWord(s.Phase), s.Call)
			}
		case s.Call == "MPI_T_cvar_get_info" && cvars == 0:
			// no control variable to ask about
		default:
			if s.RC != "MPI_SUCCESS" {
				p.add("%s: %s returned %s", phaseWord(s.Phase), s.Call, s.RC)
			}
			if s.Call == "MPI_T_cvar_get_num" {
				cvars = s.Value
			}
		}
	}
	var levels []string
	for _, pr := range decode[providedRec](recs, "provided") {
		if pr.Provided == "call failed" {
			continue // reported with its step
		}
		if pr.Provided == "none" {
			p.add("%s: %s(%s) returned provided = %d, not one of the four thread levels", phaseWord(pr.Phase), pr.Call, pr.Required, pr.Raw)
			continue
		}
		levels = append(levels, fmt.Sprintf("%s→%s", strings.TrimPrefix(pr.Required, "MPI_THREAD_"), strings.TrimPrefix(pr.Provided, "MPI_THREAD_")))
	}
	downUps := decode[downUpRec](recs, "down_up")
	for _, phase := range []string{"before", "after"} {
		var d *downUpRec
		for i := range downUps {
			if downUps[i].Phase == phase {
				d = &downUps[i]
			}
		}
		switch {
		case d == nil:
			p.add("%s: the finalize-to-zero and initialize-again sequence did not run", phaseWord(phase))
		case d.Signal != 0:
			p.add("%s: finalizing to zero, one MPI_T_finalize too many, then MPI_T_init_thread and a call: the process died of %s after %s",
				phaseWord(phase), signalName(d.Signal), lastStep(steps, phase))
		case d.Exit != 0:
			p.add("%s: the finalize-to-zero and initialize-again sequence exited with status %d", phaseWord(phase), d.Exit)
		case !seen[phase+" MPI_T_init_thread (again)"]:
			p.add("%s: no MPI_T_init_thread after the last MPI_T_finalize was recorded", phaseWord(phase))
		}
	}
	if !res.OK() {
		p.add("the process died in a call the standard allows: %s (after %s)", res.Problem(), lastStep(steps, ""))
	}
	p.evidence = res.Evidence()
	p.fail(x, "problems")
	var extra []string
	for _, s := range steps {
		if strings.HasSuffix(s.Call, "(one too many)") {
			extra = append(extra, s.RC)
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("nested init/finalize counted; one finalize too many gives %s; re-initialized before MPI_Init and after MPI_Finalize; provided %s",
		strings.Join(uniq(extra), ", "), strings.Join(levels, " "))}
}

func phaseWord(phase string) string {
	switch phase {
	case "before":
		return "before MPI_Init"
	case "between":
		return "between MPI_Init and MPI_Finalize"
	case "after":
		return "after MPI_Finalize"
	}
	return phase
}

// lastStep names the last call recorded in a phase ("" = any).
func lastStep(steps []stepRec, phase string) string {
	for i := len(steps) - 1; i >= 0; i-- {
		if phase == "" || steps[i].Phase == phase {
			return fmt.Sprintf("%s (%s)", steps[i].Call, steps[i].RC)
		}
	}
	return "no call"
}

func uniq(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
