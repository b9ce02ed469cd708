package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
)

// MPI-4.1 §16.3.7 (Performance Experiment Sessions, classes, starting and
// stopping): "Starting, stopping, reading, writing, or resetting a variable
// in one performance experiment session shall not influence whether a
// variable is started, stopped, read, written, or reset in another"; the
// starting value of COUNTER, AGGREGATE and TIMER "is 0" ("the value that is
// assigned to the variable the first time that it is used or whenever it is
// reset"), so a handle made after traffic X counts from 0; continuous
// variables "are continuously updated once a handle has been allocated", the
// others "are in a stopped state after their handle has been allocated; their
// values are not updated until they have been started"; a watermark's
// starting value is "the current utilization level of the resource at the
// time that the variable is started or reset"; STATE, LEVEL, SIZE and
// PERCENTAGE describe the current state of a resource (the same in every
// session). Seed 004 describes MPICH's intended design for exactly this
// (accum/offset per handle).
var sessionsCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-SESSION",
	Needs: "mpit",
	Title: "on traffic with known counts, a SUM-class handle of session A (made before traffic X) and one of session B (made after) read X+Y and Y, start at 0, stop only in their session; write, reset and readreset act on one session; STATE/LEVEL/SIZE/PERCENTAGE read the same in every session; queue lengths and match attempts equal the traffic's",
	Rules: []rulebook.Rule{
		// §15.3.7.1: the starting value of COUNTER, AGGREGATE and TIMER "is 0"
		// ("the value that is assigned to the variable the first time that it
		// is used"); non-continuous variables "are in a stopped state after
		// their handle has been allocated". (Reset: PVAR-38, readreset: PVAR-41.)
		{ID: "PVAR-14a", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:       "a non-continuous COUNTER, AGGREGATE or TIMER handle reads 0 after allocation (before and after traffic)",
			Injectors:  []string{"inject_mpit_pvar_frozen"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Exposure: pvar14aExposure.Declared(), Judge: judgePvar14a},
		// The same sentences, for continuous variables "continuously updated
		// once a handle has been allocated": whether such a handle reads 0 at
		// allocation or the running value, MPI Forum issue #268 leaves open.
		{ID: "PVAR-14b", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Interpretation,
			Text:     "a continuous COUNTER, AGGREGATE or TIMER handle reads 0 at allocation and counts from there (reading 1), or reads the running value (reading 2): which the library follows",
			Exposure: pvar14bExposure.Declared(), Judge: judgePvar14b},
		// §15.3.7.3: "Starting, stopping, reading, writing, or resetting a
		// variable in one performance experiment session shall not influence
		// whether a variable is started, stopped, read, written, or reset in
		// another": a non-continuous handle of session B made after traffic X
		// counts only what came after.
		{ID: "PVAR-24", Source: "MPI-5.0 §15.3.7.3", Basis: rulebook.Normative,
			Text:       "a non-continuous SUM-class handle of session B made after traffic X counts only later traffic while session A's counts all (A_end = A_mid + B_end)",
			Injectors:  []string{"inject_mpit_pvar_frozen"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Exposure: pvar24Exposure.Declared(), Judge: judgePvar24},
		// The same sentence: write, reset and readreset are per session.
		{ID: "PVAR-25", Source: "MPI-5.0 §15.3.7.3", Basis: rulebook.Normative,
			Text:      "write, reset and readreset of a handle in session A leave session B's handle of the variable alone",
			Injectors: []string{"inject_mpit_pvar_reset_leaks"}, Exposure: pvar25Exposure.Declared(), Judge: judgePvar25},
		// §15.3.7.1: STATE, LEVEL, SIZE and PERCENTAGE describe the current
		// state or utilization of a resource.
		{ID: "PVAR-19", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "STATE, LEVEL, SIZE and PERCENTAGE variables read the same in two sessions at one moment",
			Injectors: []string{"inject_mpit_pvar_session_skew"}, Exposure: pvar19Exposure.Declared(), Judge: judgePvar19},
		// §15.3.7.5: a stopped handle is not updated ("their values are not
		// updated until they have been started" and after MPI_T_PVAR_STOP).
		{ID: "PVAR-32", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:       "a handle stopped in session A keeps its value while session B's handle of the variable counts on",
			Injectors:  []string{"inject_mpit_pvar_frozen"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Exposure: pvar32Exposure.Declared(), Judge: judgePvar32},
		// §15.3.7.6 (MPI_T_PVAR_WRITE): "sets the value" of the variable.
		{ID: "PVAR-37", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:      "a writable performance variable's handle reads back the value written to it",
			Injectors: []string{"inject_mpit_pvar_frozen"}, Exposure: pvar37Exposure.Declared(), Judge: judgePvar37},
		// §15.3.7.6: MPI_T_PVAR_READ on a valid handle.
		{ID: "PVAR-35", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_read succeeds on the handles of both sessions",
			Injectors: []string{"inject_mpit_pvar_read_fails"}, Exposure: pvar35Exposure.Declared(), Judge: judgePvar35},
		// §15.3.7.6: "The MPI_T_PVAR_RESET call sets the performance variable
		// with the handle identified by the parameter handle to its starting
		// value specified in Section Performance Variable Classes" (0 for
		// COUNTER, AGGREGATE, TIMER; the current state, level, size or
		// percentage for STATE, LEVEL, SIZE, PERCENTAGE).
		{ID: "PVAR-38", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:       "after a successful reset, a COUNTER, AGGREGATE or TIMER handle reads 0 and a STATE, LEVEL, SIZE or PERCENTAGE handle reads the current value (what another session's handle reads)",
			Injectors:  []string{"inject_mpit_pvar_reset_noop"},
			Conformers: []string{"conform_mpit_pvar_writable"}, Exposure: pvar38Exposure.Declared(), Judge: judgePvar38},
		// §15.3.7.6 (MPI_T_PVAR_READRESET): "This call atomically combines
		// the functionality of MPI_T_PVAR_READ and MPI_T_PVAR_RESET with the
		// same semantics as if these two calls were called separately."
		{ID: "PVAR-41", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "a successful readreset of an atomic variable returns the value just written (what a read would) and leaves the handle at its starting value",
			Injectors: []string{"inject_mpit_pvar_reset_noop"}, Exposure: pvar41Exposure.Declared(), Judge: judgePvar41},
		// What a variable counts is the implementation's own description of it
		// (its name and desc), not the standard's: quality.
		{ID: "PVAR-16", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Quality,
			Text:      "variables whose meaning the traffic determines (MPICH's queue lengths and match attempts) read what the traffic implies",
			Injectors: []string{"inject_mpit_pvar_frozen"}, Exposure: pvar16Exposure.Declared(), Judge: judgePvar16},
	},
})

// The records of pvarJob the session rules share, and how each judge of
// sessions_judges.go reads them.

var sumClasses = set("COUNTER", "AGGREGATE", "TIMER")

// levelClasses read the current state of a resource: their starting value
// is that state (§15.3.7.1).
var levelClasses = set("STATE", "LEVEL", "SIZE", "PERCENTAGE")

const (
	sumClassNames   = "COUNTER, AGGREGATE or TIMER"
	levelClassNames = "STATE, LEVEL, SIZE or PERCENTAGE"
)

// truthNames are the variables whose values the traffic run's traffic
// determines (the truth records of fixtures/c/mpit/pvars.c).
var truthNames = set("unexpected_recvq_length", "pml_ob1_unexpected_msgq_length", "posted_recvq_length",
	"pml_ob1_posted_recvq_length", "unexpected_recvq_match_attempts", "posted_recvq_match_attempts")

func bothRead(rca, rcb string) bool { return rca == "MPI_SUCCESS" && rcb == "MPI_SUCCESS" }

// sessionSums are the COUNTER, AGGREGATE and TIMER variables of the traffic
// run, continuous or not as asked, whose handles both sessions read (a read
// that failed is PVAR-35's).
func sessionSums(r *pvarRecs, continuous bool) []sumRec {
	var out []sumRec
	for _, s := range r.sums {
		if sumClasses[s.Class] && (s.Continuous != 0) == continuous && bothRead(s.RCA, s.RCB) {
			out = append(out, s)
		}
	}
	return out
}

func (s sumRec) who() string     { return fmt.Sprintf("%s (%d, %s)", s.Name, s.Index, s.Class) }
func (s sumRec) double() bool    { return s.Datatype == "MPI_DOUBLE" }
func (m mutateRec) who() string  { return fmt.Sprintf("%s (%d)", m.Name, m.Index) }
func (m mutateRec) double() bool { return m.Datatype == "MPI_DOUBLE" }

// label names a variable in a list by class and name: MPICH names a TIMER
// and a COUNTER alike.
func (s sumRec) label() string { return s.Class + " " + s.Name }

// stopLabel is label for a stop record (which has no class).
func stopLabel(r *pvarRecs, s stopRec) string {
	if v, ok := listedVar(r, s.Index); ok {
		return v.Class + " " + s.Name
	}
	return s.Name
}

// movedInX says whether session A's handle counted traffic X (the traffic
// before session B's handle was made): there a handle of B that started
// from the running value would not read what one starting at 0 reads.
func (s sumRec) movedInX() bool { return !s.AMid.same(s.A0, s.double()) }

// countsOnlyLater says whether session B's handle, made after traffic X,
// counted only the traffic after it: A_end = A_mid + B_end.
func (s sumRec) countsOnlyLater() bool {
	return s.AEnd.same(s.AMid.plus(s.BEnd, s.double()), s.double())
}

// libraryOwn says, per phase of the ground truth (truthPhase), why it is not
// judged: a queue that holds entries of the library's own before the
// phase's traffic (a receive an RMA fence left posted) makes that phase's
// values the library's business, not the traffic's.
func libraryOwn(r *pvarRecs) map[string]string {
	own := map[string]string{}
	for _, t := range r.truth {
		if strings.HasPrefix(t.Point, "before_") && t.RC == "MPI_SUCCESS" && t.Got != 0 {
			entries := "entries"
			if t.Got == 1 {
				entries = "entry"
			}
			own[truthPhase(t.Point)] = fmt.Sprintf("%s held %v %s of the library's own before the %s", t.Name, t.Got, entries, truthPhase(t.Point))
		}
	}
	return own
}

// truthPhase is the traffic a ground-truth reading belongs to
// (fixtures/c/mpit/pvars.c): the unexpected messages or the posted receives.
func truthPhase(point string) string {
	switch point {
	case "before_posting", "after_posting", "arrivals", "after_arrivals":
		return "posted receives"
	}
	return "unexpected messages"
}

// notMeasured names the variables a rule would have judged (those of for)
// that the items run died in (kinds: probe_exit, the handle's allocation,
// which leaves the variable out of the traffic run too; mutate_exit, its
// write, reset and readreset): "" when none.
func notMeasured(r *pvarRecs, of func(pvarListed) bool, kinds ...string) string {
	what := map[string]string{"probe_exit": "handle allocation", "mutate_exit": "write/reset item"}
	var names []string
	for _, kind := range kinds {
		for idx, e := range r.crashed(kind) {
			if v, ok := listedVar(r, idx); ok && !of(v) {
				continue
			}
			names = append(names, fmt.Sprintf("%s (%s died of %s)", r.name(idx), what[kind], e.How))
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return "; not measured (see MPIT-PVAR-OPS): " + strings.Join(names, ", ")
}

// listedVar is the variable of that index as the traffic run listed it.
func listedVar(r *pvarRecs, index int) (pvarListed, bool) {
	for _, v := range r.vars {
		if v.Index == index {
			return v, true
		}
	}
	return pvarListed{}, false
}

// The variables each kind of rule would judge, for notMeasured.
func nonContinuousSum(v pvarListed) bool { return sumClasses[v.Class] && v.Continuous == 0 }
func continuousSum(v pvarListed) bool    { return sumClasses[v.Class] && v.Continuous != 0 }
func levelClass(v pvarListed) bool       { return levelClasses[v.Class] }
func anyVariable(pvarListed) bool        { return true }
func truthVariable(v pvarListed) bool    { return truthNames[v.Name] }
func writable(v pvarListed) bool         { return v.Readonly == 0 }
func resettable(v pvarListed) bool {
	return v.Readonly == 0 && (sumClasses[v.Class] || levelClasses[v.Class])
}
func atomicWritable(v pvarListed) bool { return v.Readonly == 0 && v.Atomic != 0 }

// failNoted ends the rule with Fail on the problems noted: each problem with
// its first examples, the first in the reason.
func failNoted(x *rulebook.X, broken tally) {
	var p rulebook.Problems
	broken.into(&p, "; ")
	p.FailOn(x)
}

// unsupportedHere ends the rule as not measurable, naming the variables of
// its kind the items run died in.
func unsupportedHere(x *rulebook.X, why, crashed string) {
	x.Unsupported("not measurable here: %s%s", why, crashed)
}

// counted is how many items a list holds and the first three of them:
// "none", or "5 (a, b, c, …)".
func counted(list []string) string {
	switch {
	case len(list) == 0:
		return "none"
	case len(list) > 3:
		return fmt.Sprintf("%d (%s, …)", len(list), strings.Join(list[:3], ", "))
	}
	return fmt.Sprintf("%d (%s)", len(list), strings.Join(list, ", "))
}
