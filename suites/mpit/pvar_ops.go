package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-5.0 §15.3.7 (MPI-4.1 §16.3.7 in the HTML numbering): a handle for any listed variable can be allocated and read
// ("count contains the number of elements ... used to represent this
// variable"); continuous variables "cannot be started or stopped"
// (MPI_T_ERR_PVAR_NO_STARTSTOP, §16.3.10); write and reset: "If it is not
// possible to change the variable, the function returns
// MPI_T_ERR_PVAR_NO_WRITE"; readreset: "If the variable cannot be read and
// reset atomically, this routine returns MPI_T_ERR_PVAR_NO_ATOMIC"; "if the
// handle argument passed in is not associated with the pe_session argument,
// MPI_T_ERR_INVALID_HANDLE is returned"; with MPI_T_PVAR_ALL_HANDLES start,
// stop and reset return MPI_SUCCESS "(even if there are no noncontinuous
// variables ...)", "(even if there are no valid handles or all are
// read-only)"; values of LEVEL, SIZE, watermarks, COUNTER, AGGREGATE and TIMER
// "must be nonnegative", PERCENTAGE "between 0.0 ... and 1.0", and a TIMER
// of type MPI_DOUBLE is in MPI_Wtime units (it cannot grow by more than the
// time that passed). What the standard leaves undefined (ALL_HANDLES for
// read/write/readreset) is recorded, not judged; a freed session is
// PVAR-42's (pvar_lifecycle.go).
var pvarOps = harness.Define(harness.Check{
	ID:    "MPIT-PVAR-OPS-001",
	Needs: "mpit",
	Title: "every performance variable can be allocated, read within its count, and freed; continuous ones refuse start/stop, read-only ones write/reset, non-atomic ones readreset, a handle of another session is MPI_T_ERR_INVALID_HANDLE; MPI_T_PVAR_ALL_HANDLES start/stop/reset succeed; values are in range and DOUBLE timers advance no faster than MPI_Wtime",
	Rules: []harness.Rule{
		// "count contains the number of elements ... used to represent this variable" (§15.3.7.4)
		{ID: "PVAR-26", Source: "MPI-5.0 §15.3.7.4", Basis: harness.Normative,
			Text:  "MPI_T_pvar_handle_alloc succeeds for every listed variable, MPI_T_pvar_read on the fresh handle succeeds and writes no more than its count, and the handle frees; none of it crashes",
			Judge: pvarOpsRule("PVAR-26")},
		// continuous variables "cannot be started or stopped" (§15.3.7.5; Table 23: MPI_T_ERR_PVAR_NO_STARTSTOP)
		{ID: "PVAR-30", Source: "MPI-5.0 §15.3.7.5", Basis: harness.Normative,
			Text:      "starting or stopping a handle of a continuous variable returns MPI_T_ERR_PVAR_NO_STARTSTOP",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: pvarOpsRule("PVAR-30")},
		// "If it is not possible to change the variable, the function returns MPI_T_ERR_PVAR_NO_WRITE" (§15.3.7.6)
		{ID: "PVAR-36", Source: "MPI-5.0 §15.3.7.6", Basis: harness.Normative,
			Text:      "write and reset of a read-only variable return MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Judge: pvarOpsRule("PVAR-36")},
		// "If the variable cannot be read and reset atomically, this routine returns MPI_T_ERR_PVAR_NO_ATOMIC" (§15.3.7.6)
		{ID: "PVAR-40", Source: "MPI-5.0 §15.3.7.6", Basis: harness.Normative,
			Text:  "readreset of a variable that is not atomic returns MPI_T_ERR_PVAR_NO_ATOMIC",
			Judge: pvarOpsRule("PVAR-40")},
		// "if the handle argument passed in is not associated with the pe_session argument, MPI_T_ERR_INVALID_HANDLE is returned"
		{ID: "PVAR-27", Source: "MPI-5.0 §15.3.7.4", Basis: harness.Normative,
			Text:  "a handle used with a session it does not belong to gives MPI_T_ERR_INVALID_HANDLE",
			Judge: pvarOpsRule("PVAR-27")},
		// MPI_T_PVAR_START with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are started successfully (even if there are no noncontinuous variables to be started)" (§15.3.7.5)
		{ID: "PVAR-33", Source: "MPI-5.0 §15.3.7.5", Basis: harness.Normative,
			Text:      "start with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping continuous and started handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: pvarOpsRule("PVAR-33")},
		// MPI_T_PVAR_STOP with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are stopped successfully (even if there are no noncontinuous variables to be stopped)" (§15.3.7.5)
		{ID: "PVAR-34", Source: "MPI-5.0 §15.3.7.5", Basis: harness.Normative,
			Text:      "stop with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping continuous handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: pvarOpsRule("PVAR-34")},
		// MPI_T_PVAR_RESET with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are reset successfully (even if there are no valid handles or all are read-only)" (§15.3.7.6)
		{ID: "PVAR-39", Source: "MPI-5.0 §15.3.7.6", Basis: harness.Normative,
			Text:      "reset with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping read-only handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: pvarOpsRule("PVAR-39")},
		// readonly "is set to zero if the variable can be written or reset by the user" (§15.3.7.2)
		{ID: "PVAR-37a", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: harness.Normative,
			Text:       "write, reset and (where atomic) readreset of a writable variable (readonly = 0) succeed without a crash",
			Conformers: []string{"conform_mpit_pvar_writable"}, Judge: pvarOpsRule("PVAR-37a")},
		// LEVEL, SIZE, watermark, COUNTER, AGGREGATE, TIMER: their values "are nonnegative", "must be nonnegative" (§15.3.7.1)
		{ID: "PVAR-12", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Normative,
			Text:  "LEVEL, SIZE, watermark, COUNTER, AGGREGATE and TIMER values are nonnegative",
			Judge: pvarOpsRule("PVAR-12")},
		// PERCENTAGE: "The value must always be between 0.0 (resource not used at all) and 1.0 (resource completely used)." (§15.3.7.1)
		{ID: "PVAR-13", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Normative,
			Text:      "PERCENTAGE values lie within [0.0, 1.0]",
			Injectors: []string{"inject_mpit_pvar_values_off"}, Judge: pvarOpsRule("PVAR-13")},
		// a TIMER of type MPI_DOUBLE is in "units ... consistent with MPI_WTIME" (§15.3.7.1)
		{ID: "PVAR-20", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Normative,
			Text:      "a TIMER of type MPI_DOUBLE grows by no more than the MPI_Wtime interval it was read across",
			Injectors: []string{"inject_mpit_timer_fast"}, Judge: pvarOpsRule("PVAR-20")},
	},
})

// errFacts are the err records that state a fact (rc MPI_SUCCESS when it
// holds), not a return code: what breaks when it does not hold.
var errFacts = map[string]string{
	"session_create_new":     "two MPI_T_pvar_session_create calls did not give two new sessions (MPI_T_PVAR_SESSION_NULL, or the same twice)",
	"session_free_sets_null": "MPI_T_pvar_session_free did not set the session to MPI_T_PVAR_SESSION_NULL",
}

// pvarOpsRuleFor names the rule a problem of the pvar job breaks.
func pvarOpsRuleFor(note string) string {
	switch {
	case strings.Contains(note, "continuous handle did not give"):
		return "PVAR-30"
	case strings.Contains(note, "writable variable"):
		return "PVAR-37a"
	case strings.HasPrefix(note, "write_readonly"), strings.HasPrefix(note, "reset_readonly"):
		return "PVAR-36"
	case strings.HasPrefix(note, "readreset_nonatomic"):
		return "PVAR-40"
	case strings.HasPrefix(note, "read_other_session"):
		return "PVAR-27"
	case strings.HasPrefix(note, "stop_all_handles"):
		return "PVAR-34"
	case strings.HasPrefix(note, "reset_all_handles"):
		return "PVAR-39"
	case strings.Contains(note, "_all_handles"), note == "the error cases killed the process":
		return "PVAR-33"
	case strings.HasPrefix(note, "session_create"):
		return "PVAR-21"
	case strings.HasPrefix(note, "session_free"):
		return "PVAR-22"
	case strings.Contains(note, "is negative"):
		return "PVAR-12"
	case strings.Contains(note, "outside [0, 1]"):
		return "PVAR-13"
	case strings.Contains(note, "DOUBLE timer"):
		return "PVAR-20"
	}
	return "PVAR-26"
}

func pvarOpsRule(rule string) func(x *harness.X) harness.Verdict {
	return func(x *harness.X) harness.Verdict {
		broken, reason, ev := runPvarOps(x)
		broken.failFor(x, rule, pvarOpsRuleFor, ev)
		if why := pvarOpsMeasured(pvarJob(x), rule); why != "" {
			x.Unsupported("not measurable here: %s", why)
		}
		return harness.Verdict{Reason: reason}
	}
}

// pvarOpsMeasured says why a rule had nothing to act on ("" if it had).
func pvarOpsMeasured(r *pvarRecs, rule string) string {
	errs := func(prefix string) bool {
		for _, e := range r.errs {
			if strings.HasPrefix(e.What, prefix) {
				return true
			}
		}
		return false
	}
	switch rule {
	case "PVAR-30":
		if len(r.startstop) == 0 {
			return "no continuous performance variable"
		}
	case "PVAR-36":
		if !errs("write_readonly") && !errs("reset_readonly") {
			return "no read-only performance variable"
		}
	case "PVAR-40":
		if !errs("readreset_nonatomic") {
			return "no performance variable that is not atomic"
		}
	case "PVAR-27":
		if !errs("read_other_session") {
			return "no handle to try in another session"
		}
	case "PVAR-33", "PVAR-34", "PVAR-39":
		what := map[string]string{"PVAR-33": "start", "PVAR-34": "stop", "PVAR-39": "reset"}[rule]
		if !errs(what+"_all_handles") && len(r.crashed("err_exit")) == 0 {
			return "the " + what + "(MPI_T_PVAR_ALL_HANDLES) cases did not run"
		}
	case "PVAR-21":
		if !errs("session_create") {
			return "the session cases did not run"
		}
	case "PVAR-22":
		if !errs("session_free") {
			return "the session cases did not run"
		}
	case "PVAR-13":
		for _, v := range r.vars {
			if v.Class == "PERCENTAGE" && v.Usable != 0 {
				return ""
			}
		}
		return "no PERCENTAGE variable"
	case "PVAR-37a":
		if len(r.mutates) == 0 && len(r.crashed("mutate_exit")) == 0 {
			return "no writable performance variable (readonly = 0)"
		}
	case "PVAR-20":
		for _, s := range r.sums {
			if s.Class == "TIMER" && s.Datatype == "MPI_DOUBLE" {
				return ""
			}
		}
		return "no TIMER of type MPI_DOUBLE"
	}
	return ""
}

// runPvarOps notes every problem of the pvar job, by the rule it breaks
// (pvarOpsRuleFor), and says what was measured and what was not judged.
func runPvarOps(x *harness.X) (tally, string, string) {
	r := pvarJob(x)
	broken := tally{}
	note := broken.note
	crashedProbe := r.crashed("probe_exit")
	probed := map[int]probeRec{}
	for _, pr := range r.probes {
		probed[pr.Index] = pr
	}
	usable, bound := 0, []string{}
	for _, v := range r.vars {
		if v.Usable == 0 {
			continue
		}
		usable++
		who := fmt.Sprintf("%s (%d, %s)", v.Name, v.Index, v.Class)
		if e, ok := crashedProbe[v.Index]; ok {
			note("allocating, reading or freeing a handle killed the process", fmt.Sprintf("%s: %s", who, e.How))
			continue
		}
		pr, ok := probed[v.Index]
		switch {
		case !ok:
			note("no result for allocating a handle", who)
		case pr.AllocRC != "MPI_SUCCESS":
			note("MPI_T_pvar_handle_alloc failed for a listed variable", fmt.Sprintf("%s: %s", who, pr.AllocRC))
		case pr.ReadRC != "MPI_SUCCESS":
			note("MPI_T_pvar_read failed on a fresh handle", fmt.Sprintf("%s: %s", who, pr.ReadRC))
		case pr.Overrun != 0:
			note("MPI_T_pvar_read wrote past the count its handle gave", fmt.Sprintf("%s (count %d)", who, pr.Count))
		case pr.FreeRC != "MPI_SUCCESS":
			note("MPI_T_pvar_handle_free failed", fmt.Sprintf("%s: %s", who, pr.FreeRC))
		}
		if ok && v.Bound != 0 && pr.AllocRC == "MPI_SUCCESS" {
			bound = append(bound, fmt.Sprintf("%s count %d", v.Name, pr.Count))
		}
	}
	for _, s := range r.startstop {
		if s.StartRC != "MPI_T_ERR_PVAR_NO_STARTSTOP" || s.StopRC != "MPI_T_ERR_PVAR_NO_STARTSTOP" {
			note("starting/stopping a continuous handle did not give MPI_T_ERR_PVAR_NO_STARTSTOP", fmt.Sprintf("%s (%d): start %s, stop %s", s.Name, s.Index, s.StartRC, s.StopRC))
		}
	}
	for _, e := range r.errs {
		if fact, ok := errFacts[e.What]; ok {
			if e.RC != "MPI_SUCCESS" {
				note(e.What+" does not hold", fact)
			}
			continue
		}
		if !anyOf(e.RC, e.Want) {
			who := e.Name
			if e.Index >= 0 {
				who = fmt.Sprintf("%s (%d)", e.Name, e.Index)
			}
			note(fmt.Sprintf("%s returned the wrong code (want %s)", e.What, strings.ReplaceAll(e.Want, "|", " or ")), fmt.Sprintf("%s: %s", strings.TrimPrefix(who, ": "), e.RC))
		}
	}
	for _, e := range r.crashed("err_exit") {
		note("the error cases killed the process", e.How)
	}
	for idx, e := range r.crashed("mutate_exit") {
		note("writing/resetting a writable variable (readonly = 0) killed the process", fmt.Sprintf("%s (%d): %s", r.name(idx), idx, e.How))
	}
	for _, m := range r.mutates {
		if m.WriteRC != "MPI_SUCCESS" {
			note("writing a writable variable (readonly = 0) failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.WriteRC))
		}
		if m.ResetRC != "MPI_SUCCESS" {
			note("resetting a writable variable (readonly = 0) failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.ResetRC))
		}
		if m.Atomic == 1 && m.ReadresetRC != "MPI_SUCCESS" {
			note("readreset of an atomic writable variable failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.ReadresetRC))
		}
	}
	// value ranges
	outOfRange := map[int]bool{} // one example per variable
	checkRange := func(name string, index int, class string, v vals) {
		for i := range v {
			f := v.float(i)
			bad := ""
			switch {
			case class == "PERCENTAGE" && (f < 0 || f > 1):
				bad = "a PERCENTAGE variable is outside [0, 1]"
			case class != "STATE" && class != "GENERIC" && f < 0:
				bad = "a " + class + " variable is negative"
			}
			if bad != "" && !outOfRange[index] {
				outOfRange[index] = true
				note(bad, fmt.Sprintf("%s (%d): %s", name, index, v))
			}
		}
	}
	timers := 0
	for _, s := range r.sums {
		for _, v := range []vals{s.A0, s.AMid, s.AEnd, s.B0, s.BEnd} {
			checkRange(s.Name, s.Index, s.Class, v)
		}
		if s.Class == "TIMER" && s.Datatype == "MPI_DOUBLE" {
			timers++
			for i := range s.AEnd {
				da, db := s.AEnd.float(i)-s.A0.float(i), s.BEnd.float(i)-s.B0.float(i)
				if da > s.WallA+1e-6 || db > s.WallB+1e-6 {
					note("a DOUBLE timer grew by more than the MPI_Wtime interval it was read across (not MPI_Wtime units)",
						fmt.Sprintf("%s (%d): A +%g s in %g s, B +%g s in %g s", s.Name, s.Index, da, s.WallA, db, s.WallB))
				}
			}
		}
	}
	for _, s := range r.same {
		checkRange(s.Name, s.Index, s.Class, s.A)
		checkRange(s.Name, s.Index, s.Class, s.B)
	}
	var ub []string
	for _, u := range r.ubs {
		ub = append(ub, fmt.Sprintf("%s %s", u.What, u.RC))
	}
	for _, e := range r.crashed("ub_exit") {
		ub = append(ub, "then died of "+e.How)
	}
	sort.Strings(bound)
	evidence := "not judged (undefined behaviour, §15.3.10): " + strings.Join(ub, ", ")
	reason := fmt.Sprintf("%d variables allocated, read and freed; %d error rules hold; %d DOUBLE timers within MPI_Wtime", usable, len(r.errs)+len(r.startstop), timers)
	if len(bound) > 0 {
		reason += "; bound: " + strings.Join(bound, ", ")
	}
	if len(ub) > 0 {
		reason += "; not judged: " + strings.Join(ub, ", ")
	}
	return broken, reason, evidence
}
