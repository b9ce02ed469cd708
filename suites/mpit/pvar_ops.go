package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
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
// read/write/readreset) is recorded, not judged (the evidence of PVAR-33,
// PVAR-34 and PVAR-39); a freed session is PVAR-42's (pvar_lifecycle.go).
// Each rule has a judge of its own, below in the order of the rules, on the
// records of the items and traffic runs it concerns (pvarJob, run once for
// all of them).
var pvarOps = rulebook.Define(rulebook.Check{
	ID:    "MPIT-PVAR-OPS",
	Needs: "mpit",
	Title: "every performance variable can be allocated, read within its count, and freed; continuous ones refuse start/stop, read-only ones write/reset, non-atomic ones readreset, a handle of another session is MPI_T_ERR_INVALID_HANDLE; MPI_T_PVAR_ALL_HANDLES start/stop/reset succeed; values are in range and DOUBLE timers advance no faster than MPI_Wtime",
	Rules: []rulebook.Rule{
		// "count contains the number of elements ... used to represent this variable" (§15.3.7.4)
		{ID: "PVAR-26", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:  "MPI_T_pvar_handle_alloc succeeds for every listed variable, MPI_T_pvar_read of the new handle (started first where the variable is not continuous) succeeds and writes no more than its count, and the handle frees; none of it crashes",
			Judge: judgePvar26},
		// continuous variables "cannot be started or stopped" (§15.3.7.5; Table 23: MPI_T_ERR_PVAR_NO_STARTSTOP)
		{ID: "PVAR-30", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "starting or stopping a handle of a continuous variable returns MPI_T_ERR_PVAR_NO_STARTSTOP",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: judgePvar30},
		// "If it is not possible to change the variable, the function returns MPI_T_ERR_PVAR_NO_WRITE" (§15.3.7.6)
		{ID: "PVAR-36", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "write and reset of a read-only variable return MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Judge: judgePvar36},
		// "If the variable cannot be read and reset atomically, this routine returns MPI_T_ERR_PVAR_NO_ATOMIC" (§15.3.7.6)
		{ID: "PVAR-40", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:  "readreset of a variable that is not atomic returns MPI_T_ERR_PVAR_NO_ATOMIC",
			Judge: judgePvar40},
		// "if the handle argument passed in is not associated with the pe_session argument, MPI_T_ERR_INVALID_HANDLE is returned"
		{ID: "PVAR-27", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:  "a handle used with a session it does not belong to gives MPI_T_ERR_INVALID_HANDLE",
			Judge: judgePvar27},
		// MPI_T_PVAR_START with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are started successfully (even if there are no noncontinuous variables to be started)" (§15.3.7.5)
		{ID: "PVAR-33", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "start with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping continuous and started handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: judgePvar33},
		// MPI_T_PVAR_STOP with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are stopped successfully (even if there are no noncontinuous variables to be stopped)" (§15.3.7.5)
		{ID: "PVAR-34", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "stop with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping continuous handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: judgePvar34},
		// MPI_T_PVAR_RESET with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are reset successfully (even if there are no valid handles or all are read-only)" (§15.3.7.6)
		{ID: "PVAR-39", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "reset with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping read-only handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Judge: judgePvar39},
		// readonly "is set to zero if the variable can be written or reset by the user" (§15.3.7.2)
		{ID: "PVAR-37a", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:       "write, reset and (where atomic) readreset of a writable variable (readonly = 0) succeed without a crash",
			Conformers: []string{"conform_mpit_pvar_writable"}, Judge: judgePvar37a},
		// LEVEL, SIZE, watermark, COUNTER, AGGREGATE, TIMER: their values "are nonnegative", "must be nonnegative" (§15.3.7.1)
		{ID: "PVAR-12", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:     "LEVEL, SIZE, watermark, COUNTER, AGGREGATE and TIMER values are nonnegative",
			Exposure: pvar12Exposure.Declared(), Judge: judgePvar12},
		// PERCENTAGE: "The value must always be between 0.0 (resource not used at all) and 1.0 (resource completely used)." (§15.3.7.1)
		{ID: "PVAR-13", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "PERCENTAGE values lie within [0.0, 1.0]",
			Injectors: []string{"inject_mpit_pvar_values_off"}, Judge: judgePvar13},
		// a TIMER of type MPI_DOUBLE is in "units ... consistent with MPI_WTIME" (§15.3.7.1)
		{ID: "PVAR-20", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "a TIMER of type MPI_DOUBLE grows by no more than the MPI_Wtime interval it was read across",
			Injectors: []string{"inject_mpit_timer_fast"}, Judge: judgePvar20},
	},
})

// judgePvar26: every usable listed variable (the fixture has its datatype
// and, where it is bound, an object to bind it to) is probed in an item of
// its own: a fresh session, a handle, a read, the free.
func judgePvar26(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	note := broken.note
	crashedProbe := r.crashed("probe_exit")
	probed := map[int]probeRec{}
	for _, pr := range r.probes {
		probed[pr.Index] = pr
	}
	held, elems, skipped := 0, 0, 0
	var bound []string
	for _, v := range r.vars {
		if v.Usable == 0 {
			skipped++
			continue
		}
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
			note("MPI_T_pvar_read failed on a new handle (started first where not continuous)", fmt.Sprintf("%s: %s", who, pr.ReadRC))
		case pr.Overrun != 0:
			note("MPI_T_pvar_read wrote past the count its handle gave", fmt.Sprintf("%s (count %d)", who, pr.Count))
		case pr.FreeRC != "MPI_SUCCESS":
			note("MPI_T_pvar_handle_free failed", fmt.Sprintf("%s: %s", who, pr.FreeRC))
		default:
			held++
			elems += pr.Count
		}
		if ok && v.Bound != 0 && pr.AllocRC == "MPI_SUCCESS" {
			bound = append(bound, fmt.Sprintf("%s count %d", v.Name, pr.Count))
		}
	}
	failTally(x, broken, "")
	reason := fmt.Sprintf("%s probed (of %d listed): each handle allocated, read within its count (%s in all) and freed",
		plural(held, "variable", "variables"), len(r.vars), plural(elems, "element", "elements"))
	if skipped > 0 {
		reason += fmt.Sprintf("; %d not probed (a datatype the fixture does not read, or bound to an object it has none of)", skipped)
	}
	if len(bound) > 0 {
		sort.Strings(bound)
		reason += "; bound to an object: " + strings.Join(bound, ", ")
	}
	// every probed variable could have broken the rule (a failed call, a
	// read past its count, a death): only those skipped were not exposed
	return rulebook.Exposed(held, "probed variables", "%s", reason)
}

// judgePvar30: each continuous variable's handle in session B of the
// traffic run, started and then stopped.
func judgePvar30(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	for _, s := range r.startstop {
		if s.StartRC != "MPI_T_ERR_PVAR_NO_STARTSTOP" || s.StopRC != "MPI_T_ERR_PVAR_NO_STARTSTOP" {
			broken.note("starting/stopping a continuous handle did not give MPI_T_ERR_PVAR_NO_STARTSTOP", fmt.Sprintf("%s (%d): start %s, stop %s", s.Name, s.Index, s.StartRC, s.StopRC))
		}
	}
	failTally(x, broken, "")
	if len(r.startstop) == 0 {
		x.Unsupported("not measurable here: no continuous performance variable")
	}
	return rulebook.Exposed(len(r.startstop), "continuous handles", "%s started and stopped: each start and each stop returned MPI_T_ERR_PVAR_NO_STARTSTOP",
		plural(len(r.startstop), "continuous handle", "continuous handles"))
}

// judgePvar36: the error cases write and reset the handle of each read-only
// variable (writing zeros).
func judgePvar36(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	errs := judgeErrs(x, r, "", "no read-only performance variable", "write_readonly", "reset_readonly")
	n := map[string]int{}
	for _, e := range errs {
		n[e.What]++
	}
	return rulebook.Exposed(len(errs), "writes and resets of read-only handles", "%s: %s and %s, each MPI_T_ERR_PVAR_NO_WRITE",
		plural(distinctVars(errs), "read-only variable", "read-only variables"), plural(n["write_readonly"], "write", "writes"), plural(n["reset_readonly"], "reset", "resets"))
}

// judgePvar40: the error cases readreset the handle of each variable that
// is not atomic (a read-only one may give MPI_T_ERR_PVAR_NO_WRITE instead).
func judgePvar40(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	errs := judgeErrs(x, r, "", "no performance variable that is not atomic", "readreset_nonatomic")
	readonly := 0
	for _, e := range errs {
		if strings.Contains(e.Want, "MPI_T_ERR_PVAR_NO_WRITE") {
			readonly++
		}
	}
	return rulebook.Exposed(len(errs), "readresets of non-atomic handles", "readreset on %s of variables that are not atomic (%d of them read-only, which may give MPI_T_ERR_PVAR_NO_WRITE instead) returned %s",
		plural(len(errs), "handle", "handles"), readonly, rcCounts(errs))
}

// judgePvar27: the error cases read each handle of session A (one per
// variable it could allocate) through session B.
func judgePvar27(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	errs := judgeErrs(x, r, "", "no handle to try in another session", "read_other_session")
	return rulebook.Exposed(len(errs), "reads through another session", "%s of session A read through session B: %s",
		plural(len(errs), "handle", "handles"), rcCounts(errs))
}

// judgePvar33: start(MPI_T_PVAR_ALL_HANDLES) in the error cases' session A,
// whose continuous handles cannot be started and whose other handles are
// started already (nothing is left to start), and in a session with no
// handle. A death in the error cases is filed here.
func judgePvar33(x *rulebook.X) verdict.Verdict {
	return judgeAllHandles(x, "start", func(h sessionHandles) string {
		return fmt.Sprintf("%d continuous, %d non-continuous and started before", h.continuous, h.n-h.continuous)
	})
}

// judgePvar34: stop(MPI_T_PVAR_ALL_HANDLES) after PVAR-33's start: the
// continuous handles to skip, the others to stop.
func judgePvar34(x *rulebook.X) verdict.Verdict {
	return judgeAllHandles(x, "stop", func(h sessionHandles) string {
		return fmt.Sprintf("%d continuous, %d non-continuous and started", h.continuous, h.n-h.continuous)
	})
}

// judgePvar39: reset(MPI_T_PVAR_ALL_HANDLES) after PVAR-34's stop: the
// read-only handles to skip, the others to reset.
func judgePvar39(x *rulebook.X) verdict.Verdict {
	return judgeAllHandles(x, "reset", func(h sessionHandles) string {
		return fmt.Sprintf("%d read-only, %d writable", h.readonly, h.n-h.readonly)
	})
}

// judgePvar37a: the mutate items, one per writable variable the probe did
// not kill: write its value + 7, reset, and where atomic readreset, in
// session A (what they do to the values read, in A and in session B, is
// judged by the sessions check, sessions.go).
func judgePvar37a(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	note := broken.note
	died := r.crashed("mutate_exit")
	for idx, e := range died {
		note("writing/resetting a writable variable (readonly = 0) killed the process", fmt.Sprintf("%s (%d): %s", r.name(idx), idx, e.How))
	}
	atomic, calls := 0, 0
	for _, m := range r.mutates {
		calls += 2 // the write and the reset
		if m.WriteRC != "MPI_SUCCESS" {
			note("writing a writable variable (readonly = 0) failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.WriteRC))
		}
		if m.ResetRC != "MPI_SUCCESS" {
			note("resetting a writable variable (readonly = 0) failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.ResetRC))
		}
		if m.Atomic == 1 {
			atomic++
			calls++
			if m.ReadresetRC != "MPI_SUCCESS" {
				note("readreset of an atomic writable variable failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.ReadresetRC))
			}
		}
	}
	failTally(x, broken, "")
	if len(r.mutates) == 0 && len(died) == 0 {
		x.Unsupported("not measurable here: no writable performance variable (readonly = 0)")
	}
	reason := fmt.Sprintf("%s written and reset, MPI_SUCCESS each", plural(len(r.mutates), "writable variable", "writable variables"))
	if atomic > 0 {
		reason += fmt.Sprintf("; readreset of the %d atomic ones MPI_SUCCESS too", atomic)
	} else {
		reason += " (none atomic: no readreset)"
	}
	return rulebook.Exposed(calls, "writes, resets and readresets of writable handles", "%s", reason)
}

// pvar12Exposure: only a value of a signed datatype could read negative
// (the fixture prints unsigned ones as such).
var pvar12Exposure = rulebook.Exposure[pvarValue]{Items: "values", When: "when of a signed datatype (an unsigned one cannot read negative)",
	Could: func(v pvarValue) bool { return v.signed }}

// pvarValue is one value a traffic run read, as an exposure sees it.
type pvarValue struct{ signed bool }

// judgePvar12: every value the traffic run read (sessions A and B, at each
// point) of a variable of a class whose values are nonnegative.
func judgePvar12(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	vars, signed, noted := map[int]bool{}, map[int]bool{}, map[int]bool{} // noted: one example per variable
	var read []pvarValue
	eachValue(r, func(name string, index int, class, datatype string, v vals) {
		if class == "PERCENTAGE" || class == "STATE" || class == "GENERIC" {
			return // PERCENTAGE is PVAR-13's; STATE and GENERIC may be anything
		}
		vars[index] = true
		if !unsignedType[datatype] {
			signed[index] = true
		}
		for i := range v {
			read = append(read, pvarValue{signed: signed[index]})
			if v.float(i) < 0 && !noted[index] {
				noted[index] = true
				broken.note("a "+class+" variable is negative", fmt.Sprintf("%s (%d): %s", name, index, v))
			}
		}
	})
	failTally(x, broken, "")
	return pvar12Exposure.Pass(read, "%s read from %s (LEVEL, SIZE, watermark, COUNTER, AGGREGATE, TIMER), none negative; %d of the variables of a signed datatype, which could read negative",
		plural(len(read), "value", "values"), plural(len(vars), "variable", "variables"), len(signed))
}

// judgePvar13: every value the traffic run read of a PERCENTAGE variable.
func judgePvar13(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	vars, noted := map[int]bool{}, map[int]bool{} // noted: one example per variable
	values := 0
	eachValue(r, func(name string, index int, class, datatype string, v vals) {
		if class != "PERCENTAGE" {
			return
		}
		vars[index] = true
		for i := range v {
			values++
			if f := v.float(i); (f < 0 || f > 1) && !noted[index] {
				noted[index] = true
				broken.note("a PERCENTAGE variable is outside [0, 1]", fmt.Sprintf("%s (%d): %s", name, index, v))
			}
		}
	})
	failTally(x, broken, "")
	usable := false
	for _, v := range r.vars {
		usable = usable || v.Class == "PERCENTAGE" && v.Usable != 0
	}
	if !usable {
		x.Unsupported("not measurable here: no PERCENTAGE variable")
	}
	return rulebook.Exposed(values, "PERCENTAGE values", "%s read from %s, all within [0, 1]",
		plural(values, "value", "values"), plural(len(vars), "PERCENTAGE variable", "PERCENTAGE variables"))
}

// judgePvar20: each TIMER of type MPI_DOUBLE, read by session A from
// before the traffic to its end and by session B from its allocation on,
// against MPI_Wtime across the same spans. Only a timer that grew could
// grow too fast.
func judgePvar20(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	timers, grew := 0, 0
	most, in := 0.0, 0.0
	for _, s := range r.sums {
		if s.Class != "TIMER" || s.Datatype != "MPI_DOUBLE" {
			continue
		}
		timers++
		moved := false
		for i := range s.AEnd {
			da, db := s.AEnd.float(i)-s.A0.float(i), s.BEnd.float(i)-s.B0.float(i)
			moved = moved || da > 0 || db > 0
			if da > most {
				most, in = da, s.WallA
			}
			if da > s.WallA+1e-6 || db > s.WallB+1e-6 {
				broken.note("a DOUBLE timer grew by more than the MPI_Wtime interval it was read across (not MPI_Wtime units)",
					fmt.Sprintf("%s (%d): A +%g s in %g s, B +%g s in %g s", s.Name, s.Index, da, s.WallA, db, s.WallB))
			}
		}
		if moved {
			grew++
		}
	}
	failTally(x, broken, "")
	if timers == 0 {
		x.Unsupported("not measurable here: no TIMER of type MPI_DOUBLE")
	}
	reason := fmt.Sprintf("%s read across MPI_Wtime intervals, none grew by more; %d of them grew at all", plural(timers, "TIMER of type MPI_DOUBLE", "TIMERs of type MPI_DOUBLE"), grew)
	if grew > 0 {
		reason += fmt.Sprintf(" (session A's most: +%.3g s in %.3g s)", most, in)
	}
	// only a timer that grew could have grown too fast
	return rulebook.Passed(timers, grew, "TIMERs of type MPI_DOUBLE", "%s", reason)
}
