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
			Text:     "MPI_T_pvar_handle_alloc succeeds for every listed variable, MPI_T_pvar_read of the new handle (started first where the variable is not continuous) succeeds and writes no more than its count, and the handle frees; none of it crashes",
			Exposure: pvar26Exposure.Declared(), Judge: judgePvar26},
		// continuous variables "cannot be started or stopped" (§15.3.7.5; Table 23: MPI_T_ERR_PVAR_NO_STARTSTOP)
		{ID: "PVAR-30", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "starting or stopping a handle of a continuous variable returns MPI_T_ERR_PVAR_NO_STARTSTOP",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Exposure: pvar30Exposure.Declared(), Judge: judgePvar30},
		// "If it is not possible to change the variable, the function returns MPI_T_ERR_PVAR_NO_WRITE" (§15.3.7.6)
		{ID: "PVAR-36", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "write and reset of a read-only variable return MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Exposure: pvar36Exposure.Declared(), Judge: judgePvar36},
		// "If the variable cannot be read and reset atomically, this routine returns MPI_T_ERR_PVAR_NO_ATOMIC" (§15.3.7.6)
		{ID: "PVAR-40", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:     "readreset of a variable that is not atomic returns MPI_T_ERR_PVAR_NO_ATOMIC",
			Exposure: pvar40Exposure.Declared(), Judge: judgePvar40},
		// "if the handle argument passed in is not associated with the pe_session argument, MPI_T_ERR_INVALID_HANDLE is returned"
		{ID: "PVAR-27", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:     "a handle used with a session it does not belong to gives MPI_T_ERR_INVALID_HANDLE",
			Exposure: pvar27Exposure.Declared(), Judge: judgePvar27},
		// MPI_T_PVAR_START with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are started successfully (even if there are no noncontinuous variables to be started)" (§15.3.7.5)
		{ID: "PVAR-33", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "start with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping continuous and started handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Exposure: pvar33Exposure.Declared(), Judge: judgePvar33},
		// MPI_T_PVAR_STOP with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are stopped successfully (even if there are no noncontinuous variables to be stopped)" (§15.3.7.5)
		{ID: "PVAR-34", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "stop with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping continuous handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Exposure: pvar34Exposure.Declared(), Judge: judgePvar34},
		// MPI_T_PVAR_RESET with MPI_T_PVAR_ALL_HANDLES: "the routine returns MPI_SUCCESS if all variables are reset successfully (even if there are no valid handles or all are read-only)" (§15.3.7.6)
		{ID: "PVAR-39", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "reset with MPI_T_PVAR_ALL_HANDLES returns MPI_SUCCESS, skipping read-only handles, also in a session with no handle",
			Injectors: []string{"inject_mpit_pvar_startstop"}, Exposure: pvar39Exposure.Declared(), Judge: judgePvar39},
		// readonly "is set to zero if the variable can be written or reset by the user" (§15.3.7.2)
		{ID: "PVAR-37a", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:       "write, reset and (where atomic) readreset of a writable variable (readonly = 0) succeed without a crash",
			Conformers: []string{"conform_mpit_pvar_writable"}, Exposure: pvar37aExposure.Declared(), Judge: judgePvar37a},
		// LEVEL, SIZE, watermark, COUNTER, AGGREGATE, TIMER: their values "are nonnegative", "must be nonnegative" (§15.3.7.1)
		{ID: "PVAR-12", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:     "LEVEL, SIZE, watermark, COUNTER, AGGREGATE and TIMER values are nonnegative",
			Exposure: pvar12Exposure.Declared(), Judge: judgePvar12},
		// PERCENTAGE: "The value must always be between 0.0 (resource not used at all) and 1.0 (resource completely used)." (§15.3.7.1)
		{ID: "PVAR-13", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "PERCENTAGE values lie within [0.0, 1.0]",
			Injectors: []string{"inject_mpit_pvar_values_off"}, Exposure: pvar13Exposure.Declared(), Judge: judgePvar13},
		// a TIMER of type MPI_DOUBLE is in "units ... consistent with MPI_WTIME" (§15.3.7.1)
		{ID: "PVAR-20", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "a TIMER of type MPI_DOUBLE grows by no more than the MPI_Wtime interval it was read across",
			Injectors: []string{"inject_mpit_timer_fast"}, Exposure: pvar20Exposure.Declared(), Judge: judgePvar20},
	},
})

// pvar26Exposure: every probed variable could have broken the rule (a
// failed call, a read past its count, a death): only those skipped were
// not exposed.
var pvar26Exposure = rulebook.Exposure[probeRec]{Items: "probed variables"}

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
	elems, skipped := 0, 0
	var held []probeRec
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
			held = append(held, pr)
			elems += pr.Count
		}
		if ok && v.Bound != 0 && pr.AllocRC == "MPI_SUCCESS" {
			bound = append(bound, fmt.Sprintf("%s count %d", v.Name, pr.Count))
		}
	}
	failTally(x, broken, "")
	reason := fmt.Sprintf("%s probed (of %d listed): each handle allocated, read within its count (%s in all) and freed",
		plural(len(held), "variable", "variables"), len(r.vars), plural(elems, "element", "elements"))
	if skipped > 0 {
		reason += fmt.Sprintf("; %d not probed (a datatype the fixture does not read, or bound to an object it has none of)", skipped)
	}
	if len(bound) > 0 {
		sort.Strings(bound)
		reason += "; bound to an object: " + strings.Join(bound, ", ")
	}
	return pvar26Exposure.Pass(held, "%s", reason)
}

// pvar30Exposure: each start and stop could have succeeded.
var pvar30Exposure = rulebook.Exposure[startStopRec]{Items: "continuous handles"}

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
	return pvar30Exposure.Pass(r.startstop, "%s started and stopped: each start and each stop returned MPI_T_ERR_PVAR_NO_STARTSTOP",
		plural(len(r.startstop), "continuous handle", "continuous handles"))
}

// pvar36Exposure: each write and reset could have been taken.
var pvar36Exposure = rulebook.Exposure[errRec]{Items: "writes and resets of read-only handles"}

// judgePvar36: the error cases write and reset the handle of each read-only
// variable (writing zeros).
func judgePvar36(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	errs := judgeErrs(x, r, "", "no read-only performance variable", "write_readonly", "reset_readonly")
	n := map[string]int{}
	for _, e := range errs {
		n[e.What]++
	}
	return pvar36Exposure.Pass(errs, "%s: %s and %s, each MPI_T_ERR_PVAR_NO_WRITE",
		plural(distinctVars(errs), "read-only variable", "read-only variables"), plural(n["write_readonly"], "write", "writes"), plural(n["reset_readonly"], "reset", "resets"))
}

// pvar40Exposure: a readreset of a read-only variable may answer
// MPI_T_ERR_PVAR_NO_WRITE, which a library that skips the atomic check
// answers too: only a writable variable's readreset, or one that answered
// MPI_T_ERR_PVAR_NO_ATOMIC (which only the atomic check gives), shows
// whether the check is made.
var pvar40Exposure = rulebook.Exposure[errRec]{Items: "readresets of non-atomic handles",
	When: "when the variable is writable, or the call answered MPI_T_ERR_PVAR_NO_ATOMIC (a read-only one's MPI_T_ERR_PVAR_NO_WRITE is accepted, and a library that skips the atomic check answers it too)",
	Could: func(e errRec) bool {
		return !strings.Contains(e.Want, "MPI_T_ERR_PVAR_NO_WRITE") || e.RC == "MPI_T_ERR_PVAR_NO_ATOMIC"
	}}

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
	return pvar40Exposure.Pass(errs, "readreset on %s of variables that are not atomic (%d of them read-only, which may give MPI_T_ERR_PVAR_NO_WRITE instead) returned %s",
		plural(len(errs), "handle", "handles"), readonly, rcCounts(errs))
}

// pvar27Exposure: each read could have been taken through the wrong
// session.
var pvar27Exposure = rulebook.Exposure[errRec]{Items: "reads through another session"}

// judgePvar27: the error cases read each handle of session A (one per
// variable it could allocate) through session B.
func judgePvar27(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	errs := judgeErrs(x, r, "", "no handle to try in another session", "read_other_session")
	return pvar27Exposure.Pass(errs, "%s of session A read through session B: %s",
		plural(len(errs), "handle", "handles"), rcCounts(errs))
}

// The calls of PVAR-33, PVAR-34 and PVAR-39 (judgeAllHandles): every call
// that returned could have returned another code.
var (
	pvar33Exposure = rulebook.Exposure[errRec]{Items: "start(MPI_T_PVAR_ALL_HANDLES) calls"}
	pvar34Exposure = rulebook.Exposure[errRec]{Items: "stop(MPI_T_PVAR_ALL_HANDLES) calls"}
	pvar39Exposure = rulebook.Exposure[errRec]{Items: "reset(MPI_T_PVAR_ALL_HANDLES) calls"}
)

// judgePvar33: start(MPI_T_PVAR_ALL_HANDLES) in the error cases' session A,
// whose continuous handles cannot be started and whose other handles are
// started already (nothing is left to start), and in a session with no
// handle. A death in the error cases is filed here.
func judgePvar33(x *rulebook.X) verdict.Verdict {
	return judgeAllHandles(x, "start", pvar33Exposure, func(h sessionHandles) string {
		return fmt.Sprintf("%d continuous, %d non-continuous and started before", h.continuous, h.n-h.continuous)
	})
}

// judgePvar34: stop(MPI_T_PVAR_ALL_HANDLES) after PVAR-33's start: the
// continuous handles to skip, the others to stop.
func judgePvar34(x *rulebook.X) verdict.Verdict {
	return judgeAllHandles(x, "stop", pvar34Exposure, func(h sessionHandles) string {
		return fmt.Sprintf("%d continuous, %d non-continuous and started", h.continuous, h.n-h.continuous)
	})
}

// judgePvar39: reset(MPI_T_PVAR_ALL_HANDLES) after PVAR-34's stop: the
// read-only handles to skip, the others to reset.
func judgePvar39(x *rulebook.X) verdict.Verdict {
	return judgeAllHandles(x, "reset", pvar39Exposure, func(h sessionHandles) string {
		return fmt.Sprintf("%d read-only, %d writable", h.readonly, h.n-h.readonly)
	})
}

// pvar37aExposure: each call could have failed or killed the process.
var pvar37aExposure = rulebook.Exposure[mutateCall]{Items: "writes, resets and readresets of writable handles"}

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
	atomic := 0
	var calls []mutateCall
	for _, m := range r.mutates {
		calls = append(calls, mutateCall{op: "write", class: m.Class}, mutateCall{op: "reset", class: m.Class})
		if m.WriteRC != "MPI_SUCCESS" {
			note("writing a writable variable (readonly = 0) failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.WriteRC))
		}
		if m.ResetRC != "MPI_SUCCESS" {
			note("resetting a writable variable (readonly = 0) failed", fmt.Sprintf("%s (%d): %s", m.Name, m.Index, m.ResetRC))
		}
		if m.Atomic == 1 {
			atomic++
			calls = append(calls, mutateCall{op: "readreset", class: m.Class})
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
	return pvar37aExposure.Pass(calls, "%s", reason)
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

// pvar13Exposure: any value could have been outside [0, 1].
var pvar13Exposure = rulebook.Exposure[pvarValue]{Items: "PERCENTAGE values"}

// judgePvar13: every value the traffic run read of a PERCENTAGE variable.
func judgePvar13(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	vars, noted := map[int]bool{}, map[int]bool{} // noted: one example per variable
	var values []pvarValue
	eachValue(r, func(name string, index int, class, datatype string, v vals) {
		if class != "PERCENTAGE" {
			return
		}
		vars[index] = true
		for i := range v {
			values = append(values, pvarValue{signed: !unsignedType[datatype]})
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
	return pvar13Exposure.Pass(values, "%s read from %s, all within [0, 1]",
		plural(len(values), "value", "values"), plural(len(vars), "PERCENTAGE variable", "PERCENTAGE variables"))
}

// pvar20Exposure: only a timer that grew could have grown too fast.
var pvar20Exposure = rulebook.Exposure[sumRec]{Items: "TIMERs of type MPI_DOUBLE",
	When:  "when it grew in session A's or B's handle (one that did not cannot have grown too fast)",
	Could: sumRec.grew}

// grew says whether a variable's handle in session A or B read more at
// the end of the traffic than at its start, in any element.
func (s sumRec) grew() bool {
	for i := range s.AEnd {
		if s.AEnd.float(i)-s.A0.float(i) > 0 || s.BEnd.float(i)-s.B0.float(i) > 0 {
			return true
		}
	}
	return false
}

// judgePvar20: each TIMER of type MPI_DOUBLE, read by session A from
// before the traffic to its end and by session B from its allocation on,
// against MPI_Wtime across the same spans. Only a timer that grew could
// grow too fast.
func judgePvar20(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	var timers []sumRec
	grew := 0
	most, in := 0.0, 0.0
	for _, s := range r.sums {
		if s.Class != "TIMER" || s.Datatype != "MPI_DOUBLE" {
			continue
		}
		timers = append(timers, s)
		for i := range s.AEnd {
			da, db := s.AEnd.float(i)-s.A0.float(i), s.BEnd.float(i)-s.B0.float(i)
			if da > most {
				most, in = da, s.WallA
			}
			if da > s.WallA+1e-6 || db > s.WallB+1e-6 {
				broken.note("a DOUBLE timer grew by more than the MPI_Wtime interval it was read across (not MPI_Wtime units)",
					fmt.Sprintf("%s (%d): A +%g s in %g s, B +%g s in %g s", s.Name, s.Index, da, s.WallA, db, s.WallB))
			}
		}
		if s.grew() {
			grew++
		}
	}
	failTally(x, broken, "")
	if len(timers) == 0 {
		x.Unsupported("not measurable here: no TIMER of type MPI_DOUBLE")
	}
	reason := fmt.Sprintf("%s read across MPI_Wtime intervals, none grew by more; %d of them grew at all", plural(len(timers), "TIMER of type MPI_DOUBLE", "TIMERs of type MPI_DOUBLE"), grew)
	if grew > 0 {
		reason += fmt.Sprintf(" (session A's most: +%.3g s in %.3g s)", most, in)
	}
	return pvar20Exposure.Pass(timers, "%s", reason)
}
