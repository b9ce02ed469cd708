package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
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
var sessionsCheck = harness.Define(harness.Check{
	ID:        "MPIT-SESSION-001",
	Clause:    "MPI-4.1:16.3.7",
	Needs:     "mpit",
	Title:     "on traffic with known counts, a SUM-class handle of session A (made before traffic X) and one of session B (made after) read X+Y and Y, start at 0, stop only in their session; write, reset and readreset act on one session; STATE/LEVEL/SIZE/PERCENTAGE read the same in every session; queue lengths and match attempts equal the traffic's",
	Injectors: []string{"inject_mpit_pvar_frozen"},
	Run:       runSessions,
})

var sumClasses = set("COUNTER", "AGGREGATE", "TIMER")

func runSessions(x *harness.X) harness.Verdict {
	r := pvarJob(x)
	var p problems
	broken := tally{}
	note := broken.note
	nsum, ncont, changed := 0, 0, 0
	for _, s := range r.sums {
		who := fmt.Sprintf("%s (%d, %s)", s.Name, s.Index, s.Class)
		if s.RCA != "MPI_SUCCESS" || s.RCB != "MPI_SUCCESS" {
			note("reading a handle failed", fmt.Sprintf("%s: %s / %s", who, s.RCA, s.RCB))
			continue
		}
		dbl := s.Datatype == "MPI_DOUBLE"
		if !sumClasses[s.Class] {
			// watermarks: A started earlier has seen at least what B has
			hwm := s.Class == "HIGHWATERMARK"
			for i := range s.AEnd {
				a, b := s.AEnd.float(i), s.BEnd.float(i)
				if (hwm && a < b) || (!hwm && a > b) {
					note("a watermark started earlier is not beyond one started later", fmt.Sprintf("%s: A %s, B %s", who, s.AEnd, s.BEnd))
				}
			}
			continue
		}
		nsum++
		if s.Continuous != 0 {
			ncont++
		}
		kind := "non-continuous (started at allocation)"
		if s.Continuous != 0 {
			kind = "continuous"
		}
		if !s.A0.zero() {
			note("a "+kind+" handle does not start at 0", fmt.Sprintf("%s: session A reads %s right away", who, s.A0))
		}
		if !s.B0.zero() {
			note("a "+kind+" handle made after traffic X does not start at 0", fmt.Sprintf("%s: session B reads %s right away (A read %s then)", who, s.B0, s.AMid))
		}
		// B counts only Y: A_end = A_mid + B_end (B_0 = 0)
		if !s.AEnd.same(s.AMid.plus(s.BEnd, dbl), dbl) {
			note("session B does not count only the traffic after its handle was made (A_end ≠ A_mid + B_end)",
				fmt.Sprintf("%s: A %s → %s → %s, B %s → %s", who, s.A0, s.AMid, s.AEnd, s.B0, s.BEnd))
		}
		if !s.AEnd.same(s.A0, dbl) {
			changed++
		}
	}
	for _, s := range r.same {
		if s.RCA != "MPI_SUCCESS" || s.RCB != "MPI_SUCCESS" {
			note("reading a handle failed", fmt.Sprintf("%s: %s / %s", s.Name, s.RCA, s.RCB))
		} else if !s.A.same(s.B, s.Datatype == "MPI_DOUBLE") {
			note(s.Class+" variables read differently in two sessions at the same moment", fmt.Sprintf("%s (%d): A %s, B %s", s.Name, s.Index, s.A, s.B))
		}
	}
	stopsMeaningful := 0
	for _, s := range r.stops {
		dbl := s.Datatype == "MPI_DOUBLE"
		if !s.ALater.same(s.AStopped, dbl) {
			note("a handle stopped in session A kept counting", fmt.Sprintf("%s (%d): A stopped at %s, later %s (B %s → %s)", s.Name, s.Index, s.AStopped, s.ALater, s.BBefore, s.BLater))
		}
		if !s.BLater.same(s.BBefore, dbl) {
			stopsMeaningful++
		}
	}
	var truths []string
	for _, t := range r.truth {
		if t.RC != "MPI_SUCCESS" || t.Got != t.Expected {
			note("a variable the traffic determines has the wrong value",
				fmt.Sprintf("%s %s at %s: %v, expected %v (%s)", t.What, t.Name, t.Point, t.Got, t.Expected, t.RC))
		} else {
			truths = append(truths, fmt.Sprintf("%s %s=%v", t.Name, strings.ReplaceAll(t.Point, "_", " "), t.Expected))
		}
	}
	// write, reset, readreset in A must leave B alone (writable variables)
	mutated := 0
	for _, m := range r.mutates {
		who := fmt.Sprintf("%s (%d)", m.Name, m.Index)
		dbl := m.Datatype == "MPI_DOUBLE"
		if m.WriteRC == "MPI_SUCCESS" {
			mutated++
			if !m.BAfterWrite.same(m.B0, dbl) {
				note("writing in session A changed session B", fmt.Sprintf("%s: B %s → %s", who, m.B0, m.BAfterWrite))
			}
			if !m.AAfterWrite.same(m.Written, dbl) {
				note("a written handle does not read the value written", fmt.Sprintf("%s: wrote %s, read %s", who, m.Written, m.AAfterWrite))
			}
		}
		if m.ResetRC == "MPI_SUCCESS" {
			if !m.BAfterReset.same(m.BAfterWrite, dbl) {
				note("resetting in session A changed session B", fmt.Sprintf("%s: B %s → %s", who, m.BAfterWrite, m.BAfterReset))
			}
			if sumClasses[m.Class] && !m.AAfterReset.zero() {
				note("a reset SUM-class handle does not read its starting value 0", fmt.Sprintf("%s: %s", who, m.AAfterReset))
			}
		}
		if m.ReadresetRC == "MPI_SUCCESS" {
			if !m.BAfterReadreset.same(m.BAfterReset, dbl) {
				note("readreset in session A changed session B", fmt.Sprintf("%s: B %s → %s", who, m.BAfterReset, m.BAfterReadreset))
			}
			if sumClasses[m.Class] && !m.AAfterReadreset.zero() {
				note("after readreset a SUM-class handle does not read 0", fmt.Sprintf("%s: %s", who, m.AAfterReadreset))
			}
		}
	}
	var untested []string
	for idx, e := range r.crashed("mutate_exit") {
		untested = append(untested, fmt.Sprintf("%s (write died of %s)", r.name(idx), signalName(e.Signal)))
	}
	for idx, e := range r.crashed("probe_exit") {
		untested = append(untested, fmt.Sprintf("%s (handle allocation died of %s)", r.name(idx), signalName(e.Signal)))
	}
	broken.into(&p, "; ")
	p.fail(x, "rules broken")
	reason := fmt.Sprintf("%s (%d continuous, %d changed by the traffic): A=X+Y, B=Y, both from 0; %d STATE/LEVEL/SIZE/PERCENTAGE equal across sessions; %d stopped handles held while the other session counted",
		plural(nsum, "SUM-class variable", "SUM-class variables"), ncont, changed, len(r.same), stopsMeaningful)
	if len(truths) > 0 {
		reason += "; ground truth " + strings.Join(uniq(truths), ", ")
	} else {
		reason += "; no variable with a known ground truth"
	}
	if mutated > 0 {
		reason += fmt.Sprintf("; write/reset isolated for %d writable variables", mutated)
	}
	sort.Strings(untested)
	if len(untested) > 0 {
		reason += "; not measured (see MPIT-PVAR-OPS-001): " + strings.Join(untested, ", ")
	}
	return harness.Verdict{Reason: reason}
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
