package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.7: a handle for any listed variable can be allocated and read
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
// read/write/readreset, a freed session) is recorded, not judged.
var pvarOps = harness.Define(harness.Check{
	ID:        "MPIT-PVAR-OPS-001",
	Clause:    "MPI-4.1:16.3.7",
	Needs:     "mpit",
	Title:     "every performance variable can be allocated, read within its count, and freed; continuous ones refuse start/stop, read-only ones write/reset, non-atomic ones readreset, a handle of another session is MPI_T_ERR_INVALID_HANDLE; MPI_T_PVAR_ALL_HANDLES start/stop/reset succeed; values are in range and DOUBLE timers advance no faster than MPI_Wtime",
	Injectors: []string{"inject_mpit_pvar_accept_write"},
	Run:       runPvarOps,
})

func runPvarOps(x *harness.X) harness.Verdict {
	r := pvarJob(x)
	var p problems
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
			note("allocating, reading or freeing a handle killed the process", fmt.Sprintf("%s: %s", who, signalName(e.Signal)))
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
		if !anyOf(e.RC, e.Want) {
			who := e.Name
			if e.Index >= 0 {
				who = fmt.Sprintf("%s (%d)", e.Name, e.Index)
			}
			note(fmt.Sprintf("%s returned the wrong code (want %s)", e.What, strings.ReplaceAll(e.Want, "|", " or ")), fmt.Sprintf("%s: %s", strings.TrimPrefix(who, ": "), e.RC))
		}
	}
	for _, e := range r.crashed("err_exit") {
		note("the error cases killed the process", signalName(e.Signal))
	}
	for idx, e := range r.crashed("mutate_exit") {
		note("writing/resetting a writable variable (readonly = 0) killed the process", fmt.Sprintf("%s (%d): %s", r.name(idx), idx, signalName(e.Signal)))
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
				if da < 0 || db < 0 {
					note("a DOUBLE timer went down", fmt.Sprintf("%s (%d): A +%g s, B +%g s", s.Name, s.Index, da, db))
				}
			}
		}
	}
	for _, s := range r.same {
		checkRange(s.Name, s.Index, s.Class, s.A)
		checkRange(s.Name, s.Index, s.Class, s.B)
	}
	broken.into(&p, "; ")
	var ub []string
	for _, u := range r.ubs {
		ub = append(ub, fmt.Sprintf("%s %s", u.What, u.RC))
	}
	for _, e := range r.crashed("ub_exit") {
		ub = append(ub, "then died of "+signalName(e.Signal))
	}
	sort.Strings(bound)
	p.evidence = "not judged (undefined behaviour, §16.3.10): " + strings.Join(ub, ", ")
	p.fail(x, "rules broken")
	reason := fmt.Sprintf("%d variables allocated, read and freed; %d error rules hold; %d DOUBLE timers within MPI_Wtime", usable, len(r.errs)+len(r.startstop), timers)
	if len(bound) > 0 {
		reason += "; bound: " + strings.Join(bound, ", ")
	}
	if len(ub) > 0 {
		reason += "; not judged: " + strings.Join(ub, ", ")
	}
	return harness.Verdict{Reason: reason}
}
