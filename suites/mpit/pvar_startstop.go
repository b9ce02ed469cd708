package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// When handles count (MPI-5.0 §15.3.7.3, §15.3.7.5), from the traffic run
// of fixtures/c/mpit/pvars.c: session C's handles are allocated before
// traffic X and started after it, beside B's made after X; session A's are
// stopped before R3 while B's run on and D's are started just before it
// (what R3 moves); continuous handles are never started.
var pvarStartStopCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-PVAR-STARTSTOP",
	Needs: "mpit",
	Title: "continuous handles follow the library from allocation on, non-continuous ones count only once started, and a stop in one session does not stop another's handle",
	Rules: []rulebook.Rule{
		// §15.3.7.5: "Performance variables that have the continuous flag set
		// during the query procedure are continuously updated once a handle
		// has been allocated."
		{ID: "PVAR-29", Source: "MPI-5.0 §15.3.7.5", Basis: rulebook.Normative,
			Text:      "a handle of a continuous variable, never started, follows the traffic that moves the variable",
			Injectors: []string{"inject_mpit_pvar_frozen"}, Exposure: pvar29Exposure.Declared(), Judge: judgePvar29},
		// §15.3.7.5: "All other variables are in a stopped state after their
		// handle has been allocated; their values are not updated until they
		// have been started by the user." §15.3.7.1, COUNTER and AGGREGATE:
		// "The starting value for variables of this class is 0." Reading what
		// a handle made after X reads is no proof by itself: where that
		// handle counts X too, both agree on the wrong value.
		{ID: "PVAR-31", Source: "MPI-5.0 §15.3.7.5, §15.3.7.1", Basis: rulebook.Normative,
			Text:       "a handle of a non-continuous variable allocated before traffic X and started after it counts nothing of X: a COUNTER or AGGREGATE handle does not hold, right after its start, what X added (it starts at 0 and is not updated while stopped); any such handle reads what a handle made after X reads and, where it can be read before its start, what it read at allocation",
			Injectors:  []string{"inject_mpit_pvar_counts_stopped"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Exposure: pvar31Exposure.Declared(), Judge: judgePvar31},
		// §15.3.7.3: "Starting, stopping, reading, writing, or resetting a
		// variable in one performance experiment session shall not influence
		// whether a variable is started, stopped, read, written, or reset in
		// another performance experiment session."
		{ID: "PVAR-23", Source: "MPI-5.0 §15.3.7.3", Basis: rulebook.Normative,
			Text:       "stopping a handle in session A leaves session B's handle of the variable started: it counts what a handle started in session D counts",
			Injectors:  []string{"inject_mpit_pvar_stop_leaks"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Exposure: pvar23Exposure.Declared(), Judge: judgePvar23},
	},
})

// pvar29Exposure: only a variable the traffic moves could show a handle
// that does not follow it.
var pvar29Exposure = rulebook.Exposure[*follow]{Items: "continuous variables whose value the traffic determines",
	When:  "when the traffic moves the variable (its expected values differ, or a difference is expected) and its handle followed",
	Could: func(f *follow) bool { return f.moves() && f.followed() }}

// follow is a continuous variable with a ground truth: what the traffic
// should have read from it and what its handle read.
type follow struct {
	name                  string
	expected, got         map[float64]bool
	deltaWant, deltaMoved bool
}

// moves: the traffic moved the variable (expected values differ, or a
// difference is expected).
func (f *follow) moves() bool { return f.deltaWant || len(f.expected) > 1 }

// followed: the handle moved too.
func (f *follow) followed() bool { return f.deltaMoved || len(f.got) > 1 }

func judgePvar29(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	cont := map[int]bool{}
	for _, v := range r.vars {
		cont[v.Index] = v.Continuous != 0
	}
	seen := map[int]*follow{}
	for _, t := range r.truth {
		if !cont[t.Index] || t.RC != "MPI_SUCCESS" {
			continue
		}
		f := seen[t.Index]
		if f == nil {
			f = &follow{name: t.Name, expected: map[float64]bool{}, got: map[float64]bool{}}
			seen[t.Index] = f
		}
		if strings.HasSuffix(t.What, "match_attempts") { // read as a difference
			f.deltaWant = f.deltaWant || t.Expected != 0
			f.deltaMoved = f.deltaMoved || t.Got != 0
			continue
		}
		f.expected[t.Expected] = true
		f.got[t.Got] = true
	}
	var bad, ok []string
	var judged []*follow
	for idx, f := range seen {
		judged = append(judged, f)
		switch {
		case !f.moves():
		case f.followed():
			ok = append(ok, f.name)
		default:
			bad = append(bad, fmt.Sprintf("%s (%d): the traffic moves it, its handle (never started) kept reading %s", f.name, idx, keysOf(f.got, f.deltaWant)))
		}
	}
	sort.Strings(bad)
	sort.Strings(ok)
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "a continuous handle was not updated: %s", verdict.FirstAndMore(bad))
	}
	if len(ok) == 0 {
		x.Unsupported("not measurable here: no continuous variable whose value the traffic determines")
	}
	others := 0
	for _, s := range r.sums {
		if s.Continuous != 0 && !s.AEnd.same(s.A0, s.Datatype == "MPI_DOUBLE") {
			others++
		}
	}
	return pvar29Exposure.Pass(judged,
		"continuous handles never started followed the traffic: %s; %d continuous SUM-class handles moved", strings.Join(ok, ", "), others)
}

// keysOf shows the values a handle read (the differences, for deltas).
func keysOf(m map[float64]bool, delta bool) string {
	if delta && len(m) == 0 {
		return "the same value (difference 0)"
	}
	var s []string
	for k := range m {
		s = append(s, fmt.Sprint(k))
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// pvar31Exposure: only a handle of a variable that traffic X moved could
// have counted X.
var pvar31Exposure = rulebook.Exposure[unstartedRec]{Items: "handles started late",
	When:  "when traffic X moved the variable (as session A's handle saw it)",
	Could: func(u unstartedRec) bool { return !u.AMid.same(u.A0, u.Datatype == "MPI_DOUBLE") }}

func judgePvar31(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	var bad, held []string
	var judged []unstartedRec
	refused := 0
	for _, u := range r.unstarted {
		if u.StartRC != "MPI_SUCCESS" || u.RC != "MPI_SUCCESS" {
			continue // PVAR-32's and PVAR-35's
		}
		judged = append(judged, u)
		dbl := u.Datatype == "MPI_DOUBLE"
		who := fmt.Sprintf("%s (%d, %s)", u.Name, u.Index, u.Class)
		n := len(bad)
		if u.RC0 == "MPI_SUCCESS" && u.RCPre == "MPI_SUCCESS" && !u.CPre.same(u.C0, dbl) {
			bad = append(bad, fmt.Sprintf("%s: never started, read %s at allocation and %s after traffic X", who, u.C0, u.CPre))
		}
		if u.RCPre != "MPI_SUCCESS" {
			refused++
		}
		if !u.CStarted.same(u.B0, dbl) {
			bad = append(bad, fmt.Sprintf("%s: allocated before traffic X and started after it, read %s; session B's handle, made after X, %s", who, u.CStarted, u.B0))
		} else if k, ok := countedX(u); ok {
			// B reading the same proves nothing where B counts X too (a
			// handle that reads the library's running counter): a count
			// started after X that holds at least what X added counted it.
			bad = append(bad, fmt.Sprintf("%s: allocated before traffic X and started after it, read %s at its start, at least the %v that X added (session A: %s → %s); session B's handle, made after X, reads the same", who, u.CStarted, u.AMid.float(k)-u.A0.float(k), u.A0, u.AMid))
		}
		if len(bad) == n && !u.AMid.same(u.A0, dbl) {
			held = append(held, u.Name)
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "a handle was updated before it was started: %s", verdict.FirstAndMore(bad))
	}
	if len(held) == 0 {
		x.Unsupported("not measurable here: no non-continuous variable that traffic X moves (%d handles started late)", len(r.unstarted))
	}
	reason := fmt.Sprintf("%s allocated before traffic X and started after it counted nothing of X: %s", plural(len(held), "handle", "handles"), examples(uniq(held)))
	if refused > 0 {
		reason += fmt.Sprintf("; reading a handle never started returned an error for %d (not judged)", refused)
	}
	return pvar31Exposure.Pass(judged, "%s", reason)
}

// countedX finds an element of a COUNTER or AGGREGATE (exact counts; a
// TIMER may move by itself once started) that traffic X moved, as session
// A's handle saw it, and that C's handle, started after X, already holds in
// full right after its start: the element, or false.
func countedX(u unstartedRec) (int, bool) {
	if u.Class != "COUNTER" && u.Class != "AGGREGATE" {
		return 0, false
	}
	for k := range u.CStarted {
		if k >= len(u.A0) || k >= len(u.AMid) {
			break
		}
		x := u.AMid.float(k) - u.A0.float(k)
		if x > 0 && u.CStarted.float(k) >= x {
			return k, true
		}
	}
	return 0, false
}

// pvar23Exposure: only a variable R3 moves (as D's handle saw) whose B
// handle counted before the stop could show B's handle stopped by it.
var pvar23Exposure = rulebook.Exposure[lateStop]{Items: "stopped variables with a handle in session D",
	When:  "when R3 moves the variable (as D's handle saw), B's handle was seen counting before the stop, and it counted on across R3",
	Could: func(s lateStop) bool { return s.r3Moves && s.bCountedBefore && s.bCountedOn }}

// lateStop is a variable stopped in session A beside a handle of session D
// started then: what R3 did to D's handle and to B's.
type lateStop struct {
	r3Moves        bool // D's handle moved across R3
	bCountedBefore bool // B's handle moved between its allocation and A's stop
	bCountedOn     bool // B's handle moved across R3
}

// judgePvar23: R3 runs after session A's handles were stopped (and D's
// started); B's, started at allocation and never stopped, must count what
// D's count. A stop that reached B's handle shows as B frozen while D
// moves, whatever the stop did to A's own handle: a stop sent to the wrong
// session's handle leaves A counting on (PVAR-32's fault as well) and B
// frozen. B frozen is blamed on the operations in sessions A and D only
// where B's handle was seen counting before them (traffic P and R2 moved it,
// sum record): a handle that never counted is not one a stop elsewhere
// stopped.
func judgePvar23(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	countedBefore := map[int]bool{} // B's handle moved between its allocation and A's stop
	for _, s := range r.sums {
		if s.RCB == "MPI_SUCCESS" && !s.BEnd.same(s.B0, s.Datatype == "MPI_DOUBLE") {
			countedBefore[s.Index] = true
		}
	}
	var bad, ran []string
	var judged []lateStop
	aRan := 0
	unseen := 0 // R3 moves it, but B's handle was never seen counting before the stop
	for _, s := range r.stops {
		if s.DOK == 0 {
			continue
		}
		dbl := s.Datatype == "MPI_DOUBLE"
		judged = append(judged, lateStop{!s.DLater.same(s.DBefore, dbl), countedBefore[s.Index], !s.BLater.same(s.BBefore, dbl)})
		if s.DLater.same(s.DBefore, dbl) {
			continue // R3 does not move it
		}
		if !countedBefore[s.Index] {
			unseen++
			continue
		}
		aHeld := s.ALater.same(s.AStopped, dbl)
		if !aHeld {
			aRan++
		}
		if s.BLater.same(s.BBefore, dbl) {
			a := "A's held"
			if !aHeld {
				a = fmt.Sprintf("A's read %s → %s: the stop did not hold A", s.AStopped, s.ALater)
			}
			bad = append(bad, fmt.Sprintf("%s (%d): B's handle, started and counting before (traffic P, R2), read %s → %s across R3 after A's handle was stopped (%s), while D's, started then, read %s → %s", s.Name, s.Index, s.BBefore, s.BLater, a, s.DBefore, s.DLater))
		} else {
			ran = append(ran, s.Name)
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "stopping a handle in session A stopped session B's: %s", verdict.FirstAndMore(bad))
	}
	if len(ran) == 0 && unseen > 0 {
		x.Unsupported("not measurable here: for all %d variables R3 moves, session B's handle was not seen counting before A's stop (traffic P and R2 did not move it): a frozen B could not be told from one that never counted", unseen)
	}
	if len(ran) == 0 {
		x.Unsupported("not measurable here: no non-continuous SUM-class variable that R3 moves (%d stopped)", len(r.stops))
	}
	reason := fmt.Sprintf("%s of session B counted on across R3 after session A's were stopped: %s", plural(len(ran), "handle", "handles"), examples(uniq(ran)))
	if aRan > 0 {
		reason += fmt.Sprintf("; the stop did not hold A's own handle for %d of them (PVAR-32's), and B's counting on shows it did not go to B's instead", aRan)
	}
	if unseen > 0 {
		reason += fmt.Sprintf("; %d more that R3 moves not judged: B's handle was not seen counting before the stop", unseen)
	}
	return pvar23Exposure.Pass(judged, "%s", reason)
}
