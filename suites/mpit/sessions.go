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
	ID:    "MPIT-SESSION-001",
	Needs: "mpit",
	Title: "on traffic with known counts, a SUM-class handle of session A (made before traffic X) and one of session B (made after) read X+Y and Y, start at 0, stop only in their session; write, reset and readreset act on one session; STATE/LEVEL/SIZE/PERCENTAGE read the same in every session; queue lengths and match attempts equal the traffic's",
	Rules: []harness.Rule{
		// §15.3.7.1: the starting value of COUNTER, AGGREGATE and TIMER "is 0"
		// ("the value that is assigned to the variable the first time that it
		// is used"); non-continuous variables "are in a stopped state after
		// their handle has been allocated". (Reset: PVAR-38, readreset: PVAR-41.)
		{ID: "PVAR-14a", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Normative,
			Text:       "a non-continuous COUNTER, AGGREGATE or TIMER handle reads 0 after allocation (before and after traffic)",
			Injectors:  []string{"inject_mpit_pvar_frozen"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Judge: sessionRule("PVAR-14a")},
		// The same sentences, for continuous variables "continuously updated
		// once a handle has been allocated": whether such a handle reads 0 at
		// allocation or the running value, MPI Forum issue #268 leaves open.
		{ID: "PVAR-14b", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Interpretation,
			Text:  "a continuous COUNTER, AGGREGATE or TIMER handle reads 0 at allocation and counts from there (reading 1), or reads the running value (reading 2): which the library follows",
			Judge: judgePvar14b},
		// §15.3.7.3: "Starting, stopping, reading, writing, or resetting a
		// variable in one performance experiment session shall not influence
		// whether a variable is started, stopped, read, written, or reset in
		// another": a non-continuous handle of session B made after traffic X
		// counts only what came after.
		{ID: "PVAR-24", Source: "MPI-5.0 §15.3.7.3", Basis: harness.Normative,
			Text:       "a non-continuous SUM-class handle of session B made after traffic X counts only later traffic while session A's counts all (A_end = A_mid + B_end)",
			Injectors:  []string{"inject_mpit_pvar_frozen"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Judge: sessionRule("PVAR-24")},
		// The same sentence: write, reset and readreset are per session.
		{ID: "PVAR-25", Source: "MPI-5.0 §15.3.7.3", Basis: harness.Normative,
			Text:      "write, reset and readreset of a handle in session A leave session B's handle of the variable alone",
			Injectors: []string{"inject_mpit_pvar_frozen"}, Judge: sessionRule("PVAR-25")},
		// §15.3.7.1: STATE, LEVEL, SIZE and PERCENTAGE describe the current
		// state or utilization of a resource.
		{ID: "PVAR-19", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Normative,
			Text:      "STATE, LEVEL, SIZE and PERCENTAGE variables read the same in two sessions at one moment",
			Injectors: []string{"inject_mpit_pvar_session_skew"}, Judge: sessionRule("PVAR-19")},
		// §15.3.7.5: a stopped handle is not updated ("their values are not
		// updated until they have been started" and after MPI_T_PVAR_STOP).
		{ID: "PVAR-32", Source: "MPI-5.0 §15.3.7.5", Basis: harness.Normative,
			Text:       "a handle stopped in session A keeps its value while session B's handle of the variable counts on",
			Injectors:  []string{"inject_mpit_pvar_frozen"},
			Conformers: []string{"conform_mpit_pvar_handles"}, Judge: sessionRule("PVAR-32")},
		// §15.3.7.6 (MPI_T_PVAR_WRITE): "sets the value" of the variable.
		{ID: "PVAR-37", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: harness.Normative,
			Text:      "a writable performance variable's handle reads back the value written to it",
			Injectors: []string{"inject_mpit_pvar_frozen"}, Judge: sessionRule("PVAR-37")},
		// §15.3.7.6: MPI_T_PVAR_READ on a valid handle.
		{ID: "PVAR-35", Source: "MPI-5.0 §15.3.7.6", Basis: harness.Normative,
			Text:      "MPI_T_pvar_read succeeds on the handles of both sessions",
			Injectors: []string{"inject_mpit_pvar_read_fails"}, Judge: sessionRule("PVAR-35")},
		// §15.3.7.6: "The MPI_T_PVAR_RESET call sets the performance variable
		// with the handle identified by the parameter handle to its starting
		// value specified in Section Performance Variable Classes" (0 for
		// COUNTER, AGGREGATE, TIMER; the current state, level, size or
		// percentage for STATE, LEVEL, SIZE, PERCENTAGE).
		{ID: "PVAR-38", Source: "MPI-5.0 §15.3.7.6", Basis: harness.Normative,
			Text:       "after a successful reset, a COUNTER, AGGREGATE or TIMER handle reads 0 and a STATE, LEVEL, SIZE or PERCENTAGE handle reads the current value (what another session's handle reads)",
			Injectors:  []string{"inject_mpit_pvar_reset_noop"},
			Conformers: []string{"conform_mpit_pvar_writable"}, Judge: sessionRule("PVAR-38")},
		// §15.3.7.6 (MPI_T_PVAR_READRESET): "This call atomically combines
		// the functionality of MPI_T_PVAR_READ and MPI_T_PVAR_RESET with the
		// same semantics as if these two calls were called separately."
		{ID: "PVAR-41", Source: "MPI-5.0 §15.3.7.6", Basis: harness.Normative,
			Text:      "a successful readreset of an atomic variable returns the value just written (what a read would) and leaves the handle at its starting value",
			Injectors: []string{"inject_mpit_pvar_reset_noop"}, Judge: sessionRule("PVAR-41")},
		// What a variable counts is the implementation's own description of it
		// (its name and desc), not the standard's: quality.
		{ID: "PVAR-16", Source: "MPI-5.0 §15.3.7.1", Basis: harness.Quality,
			Text:      "variables whose meaning the traffic determines (MPICH's queue lengths and match attempts) read what the traffic implies",
			Injectors: []string{"inject_mpit_pvar_frozen"}, Judge: sessionRule("PVAR-16")},
	},
})

// sessionRuleOf maps the problems runSessions notes to the rule each breaks.
var sessionRuleOf = map[string]string{
	"a non-continuous (started at allocation) handle does not start at 0":                         "PVAR-14a",
	"a non-continuous (started at allocation) handle made after traffic X does not start at 0":    "PVAR-14a",
	"a reset SUM-class handle does not read its starting value 0":                                 "PVAR-38",
	"a reset handle does not read the current value":                                              "PVAR-38",
	"after readreset a SUM-class handle does not read 0":                                          "PVAR-41",
	"after readreset a handle does not read the current value":                                    "PVAR-41",
	"readreset did not return what a read would (the value just written)":                         "PVAR-41",
	"a continuous handle does not start at 0":                                                     "PVAR-14b",
	"a continuous handle made after traffic X does not start at 0":                                "PVAR-14b",
	"session B does not count only the traffic after its handle was made (A_end ≠ A_mid + B_end)": "PVAR-24",
	"a continuous handle of session B does not count only the traffic after it was made":          "PVAR-14b",
	"writing in session A changed session B":                                                      "PVAR-25",
	"resetting in session A changed session B":                                                    "PVAR-25",
	"readreset in session A changed session B":                                                    "PVAR-25",
	"a handle stopped in session A kept counting":                                                 "PVAR-32",
	"a written handle does not read the value written":                                            "PVAR-37",
	"reading a handle failed":                                                                     "PVAR-35",
	"a variable the traffic determines has the wrong value":                                       "PVAR-16",
}

func sessionRuleFor(note string) string {
	if r, ok := sessionRuleOf[note]; ok {
		return r
	}
	if strings.HasSuffix(note, "variables read differently in two sessions at the same moment") {
		return "PVAR-19"
	}
	return "PVAR-24"
}

// sessionRule judges one rule from the session job's problems.
func sessionRule(rule string) func(x *harness.X) harness.Verdict {
	return func(x *harness.X) harness.Verdict {
		broken, reason, counts := runSessions(x)
		broken.failFor(x, rule, sessionRuleFor, "")
		if why := counts.measured(rule); why != "" {
			x.Unsupported("%s", why)
		}
		return harness.Verdict{Reason: reason}
	}
}

func judgePvar14b(x *harness.X) harness.Verdict {
	broken, reason, counts := runSessions(x)
	if why := counts.measured("PVAR-14b"); why != "" {
		x.Unsupported("%s", why)
	}
	var seen []string
	for note, ex := range broken {
		if sessionRuleFor(note) == "PVAR-14b" {
			seen = append(seen, note+": "+examples(ex))
		}
	}
	if len(seen) > 0 {
		sort.Strings(seen)
		return harness.Verdict{Reason: "reading 2 (a continuous handle reads the running value): " + strings.Join(seen, "; ")}
	}
	return harness.Verdict{Reason: "reading 1 (continuous handles start at 0 too): " + reason}
}

var sumClasses = set("COUNTER", "AGGREGATE", "TIMER")

// levelClasses read the current state of a resource: their starting value
// is that state (§15.3.7.1).
var levelClasses = set("STATE", "LEVEL", "SIZE", "PERCENTAGE")

// runSessions notes every problem of the session job under the rule it
// breaks (sessionRuleOf), and says what was measured.
func runSessions(x *harness.X) (tally, string, sessionCounts) {
	r := pvarJob(x)
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
			what := "session B does not count only the traffic after its handle was made (A_end ≠ A_mid + B_end)"
			if s.Continuous != 0 {
				what = "a continuous handle of session B does not count only the traffic after it was made"
			}
			note(what, fmt.Sprintf("%s: A %s → %s → %s, B %s → %s", who, s.A0, s.AMid, s.AEnd, s.B0, s.BEnd))
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
	// A queue that holds entries of the library's own before a phase's
	// traffic (a receive an RMA fence left posted) makes that phase's values
	// the library's business, not the traffic's: not judged, and said so.
	own := map[string]string{}
	for _, t := range r.truth {
		if strings.HasPrefix(t.Point, "before_") && t.RC == "MPI_SUCCESS" && t.Got != 0 {
			own[truthPhase(t.Point)] = fmt.Sprintf("%s held %v entries of the library's own before the %s", t.Name, t.Got, truthPhase(t.Point))
		}
	}
	for _, why := range own {
		truths = append(truths, "not judged: "+why)
	}
	for _, t := range r.truth {
		if own[truthPhase(t.Point)] != "" {
			continue
		}
		if t.RC != "MPI_SUCCESS" || t.Got != t.Expected {
			note("a variable the traffic determines has the wrong value",
				fmt.Sprintf("%s %s at %s: %v, expected %v (%s)", t.What, t.Name, t.Point, t.Got, t.Expected, t.RC))
		} else {
			truths = append(truths, fmt.Sprintf("%s %s=%v", t.Name, strings.ReplaceAll(t.Point, "_", " "), t.Expected))
		}
	}
	// write, reset, readreset in A must leave B alone (writable variables)
	mutated, resets, idleResets, readresets := 0, 0, 0, 0
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
			if levelClasses[m.Class] && !m.AAfterReset.same(m.BAfterReset, dbl) {
				note("a reset handle does not read the current value", fmt.Sprintf("%s (%s): %s, session B %s", who, m.Class, m.AAfterReset, m.BAfterReset))
			}
			// A reset of a handle already at its starting value cannot
			// be told from one that does nothing: only the others count.
			if (sumClasses[m.Class] && !m.AAfterWrite.zero()) || (levelClasses[m.Class] && !m.AAfterWrite.same(m.BAfterWrite, dbl)) {
				resets++
			} else if sumClasses[m.Class] || levelClasses[m.Class] {
				idleResets++
			}
		}
		if m.ReadresetRC == "MPI_SUCCESS" {
			if !m.BAfterReadreset.same(m.BAfterReset, dbl) {
				note("readreset in session A changed session B", fmt.Sprintf("%s: B %s → %s", who, m.BAfterReset, m.BAfterReadreset))
			}
			if sumClasses[m.Class] && !m.AAfterReadreset.zero() {
				note("after readreset a SUM-class handle does not read 0", fmt.Sprintf("%s: %s", who, m.AAfterReadreset))
			}
			if levelClasses[m.Class] && !m.AAfterReadreset.same(m.BAfterReadreset, dbl) {
				note("after readreset a handle does not read the current value", fmt.Sprintf("%s (%s): %s, session B %s", who, m.Class, m.AAfterReadreset, m.BAfterReadreset))
			}
			if m.WriteRC == "MPI_SUCCESS" && !m.ReadresetValue.same(m.Written, dbl) {
				note("readreset did not return what a read would (the value just written)", fmt.Sprintf("%s: wrote %s, readreset returned %s", who, m.Written, m.ReadresetValue))
			}
			readresets++
		}
	}
	var untested []string
	for idx, e := range r.crashed("mutate_exit") {
		untested = append(untested, fmt.Sprintf("%s (write died of %s)", r.name(idx), e.How))
	}
	for idx, e := range r.crashed("probe_exit") {
		untested = append(untested, fmt.Sprintf("%s (handle allocation died of %s)", r.name(idx), e.How))
	}
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
	return broken, reason, sessionCounts{sum: nsum, cont: ncont, same: len(r.same), stops: len(r.stops), mutated: mutated, truths: len(r.truth), resets: resets, idleResets: idleResets, readresets: readresets}
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

// sessionCounts is how many variables each part of the session job had to
// judge.
type sessionCounts struct{ sum, cont, same, stops, mutated, truths, resets, idleResets, readresets int }

// measured says what a rule had to act on, or why nothing.
func (c sessionCounts) measured(rule string) string {
	n, what := 0, ""
	switch rule {
	case "PVAR-14a", "PVAR-24":
		n, what = c.sum-c.cont, "no non-continuous COUNTER, AGGREGATE or TIMER variable"
	case "PVAR-14b":
		n, what = c.cont, "no continuous COUNTER, AGGREGATE or TIMER variable"
	case "PVAR-19":
		n, what = c.same, "no STATE, LEVEL, SIZE or PERCENTAGE variable"
	case "PVAR-32":
		n, what = c.stops, "no variable to stop"
	case "PVAR-25", "PVAR-37":
		n, what = c.mutated, "no writable performance variable accepted a write"
	case "PVAR-35":
		n, what = c.sum+c.same, "no performance variable to read"
	case "PVAR-16":
		n, what = c.truths, "no variable whose value the traffic determines"
	case "PVAR-38":
		n, what = c.resets, "no writable COUNTER, AGGREGATE, TIMER, STATE, LEVEL, SIZE or PERCENTAGE variable away from its starting value accepted a reset"
		if c.idleResets > 0 {
			what += fmt.Sprintf(" (%s at its starting value did, which shows nothing)", plural(c.idleResets, "handle", "handles"))
		}
	case "PVAR-41":
		n, what = c.readresets, "no atomic writable performance variable accepted a readreset"
	}
	if n > 0 {
		return ""
	}
	return "not measurable here: " + what
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
