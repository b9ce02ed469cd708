package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The judges of MPIT-SESSION (sessions.go), one a rule, each from the
// records of pvarJob: the traffic run's sum, same, stop and truth records
// (sessions A, made before traffic X, and B, made after it) and the items
// run's mutate records (write, reset, readreset in session A beside a
// handle of session B). Each says how many items it judged and how many of
// them could have shown a breach. The sentences of the standard each judges
// are quoted above its rule in sessions.go.

// pvar14aExposure: what the library counted before session A is not
// known, so only where traffic X had moved the variable would a handle
// starting from the running value not read 0.
var pvar14aExposure = rulebook.Exposure[sumRec]{Items: "non-continuous " + sumClassNames + " variables",
	When:  "when traffic X had moved the variable before session B's handle was made (a handle starting from the running value would not read 0 then)",
	Could: sumRec.movedInX}

// judgePvar14a (§15.3.7.1): a non-continuous COUNTER, AGGREGATE or TIMER
// handle, started at allocation, reads 0 then, in session A (before traffic
// X) and in session B (after it).
func judgePvar14a(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	sums := sessionSums(r, false)
	broken := tally{}
	var fromX []string
	for _, s := range sums {
		if !s.A0.zero() {
			broken.note("a non-continuous (started at allocation) handle does not start at 0", fmt.Sprintf("%s: session A reads %s right away", s.who(), s.A0))
		}
		if !s.B0.zero() {
			broken.note("a non-continuous (started at allocation) handle made after traffic X does not start at 0", fmt.Sprintf("%s: session B reads %s right away (A read %s then)", s.who(), s.B0, s.AMid))
		}
		if s.movedInX() {
			fromX = append(fromX, s.label())
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, nonContinuousSum, "probe_exit")
	if len(sums) == 0 {
		unsupportedHere(x, "no non-continuous "+sumClassNames+" variable", crashed)
	}
	return pvar14aExposure.Pass(sums,
		"the handles of %s read 0 right after allocation in session A (before traffic X) and in session B (after it); %s had counted traffic X when B's handle was made, where a handle starting from the running value would not read 0%s",
		plural(len(sums), "non-continuous "+sumClassNames+" variable", "non-continuous "+sumClassNames+" variables"), counted(fromX), crashed)
}

// pvar14bExposure: only a variable whose two readings would read
// differently tells them apart.
var pvar14bExposure = rulebook.Exposure[sumRec]{Items: "continuous " + sumClassNames + " variables",
	When:  "when a handle reads other than 0 at allocation, B's does not count only the later traffic, or traffic X had moved the variable (where reading 1 and reading 2 read differently)",
	Could: sumRec.tellsReadingsApart}

// tellsReadingsApart says whether a continuous variable reads differently
// under reading 1 (0 at allocation) and reading 2 (the running value).
func (s sumRec) tellsReadingsApart() bool {
	return !s.A0.zero() || !s.B0.zero() || !s.countsOnlyLater() || s.movedInX()
}

// judgePvar14b (§15.3.7.1): which reading of a continuous handle's starting
// value the library follows (an interpretation: never fails). Reading 1: it
// reads 0 at allocation and counts from there; reading 2: it reads the
// running value.
func judgePvar14b(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	sums := sessionSums(r, true)
	running := tally{}
	var fromX []string
	for _, s := range sums {
		if !s.A0.zero() {
			running.note("a continuous handle does not start at 0", fmt.Sprintf("%s: session A reads %s right away", s.who(), s.A0))
		}
		if !s.B0.zero() {
			running.note("a continuous handle made after traffic X does not start at 0", fmt.Sprintf("%s: session B reads %s right away (A read %s then)", s.who(), s.B0, s.AMid))
		}
		if !s.countsOnlyLater() {
			running.note("a continuous handle of session B does not count only the traffic after it was made", fmt.Sprintf("%s: A %s → %s → %s, B %s → %s", s.who(), s.A0, s.AMid, s.AEnd, s.B0, s.BEnd))
		}
		if s.movedInX() {
			fromX = append(fromX, s.label())
		}
	}
	crashed := notMeasured(r, continuousSum, "probe_exit")
	if len(sums) == 0 {
		unsupportedHere(x, "no continuous "+sumClassNames+" variable", crashed)
	}
	what := fmt.Sprintf("%s (%d counted traffic X before session B's handle was made)",
		plural(len(sums), "continuous "+sumClassNames+" variable", "continuous "+sumClassNames+" variables"), len(fromX))
	if len(running) > 0 {
		var seen []string
		for note, ex := range running {
			seen = append(seen, note+": "+examples(ex))
		}
		sort.Strings(seen)
		return pvar14bExposure.Pass(sums, "%s", "reading 2 (a continuous handle reads the running value), of "+what+": "+strings.Join(seen, "; ")+crashed)
	}
	reason := "reading 1 (continuous handles start at 0 too), of " + what + ": each read 0 at allocation in session A (before traffic X) and in session B (after it), and B's counted only the traffic after it (A_end = A_mid + B_end)"
	if len(fromX) == 0 {
		reason += "; none had counted anything when B's handle was made, so the two readings would read alike here"
	} else {
		reason += fmt.Sprintf("; B's read 0 where the running value was not: %s", counted(fromX))
	}
	return pvar14bExposure.Pass(sums, "%s", reason+crashed)
}

// pvar24Exposure: B counting X too shows where X moved the variable, B not
// counting Y where Y did (in A's or B's handle); a watermark whose level
// never moved leaves every mark alike.
var pvar24Exposure = rulebook.Exposure[sumRec]{Items: "non-continuous " + sumClassNames + " variables and watermarks",
	When:  "when the traffic moved the variable in A's or B's handle (a watermark: when any of its marks left where A's started)",
	Could: sumRec.movedInSessions}

// movedInSessions says whether the traffic moved a variable as sessions A
// and B saw it: a SUM-class one in X (A) or Y (A or B), a watermark at any
// of its reads.
func (s sumRec) movedInSessions() bool {
	dbl := s.double()
	if sumClasses[s.Class] {
		return s.movedInX() || !s.AEnd.same(s.AMid, dbl) || !s.BEnd.same(s.B0, dbl)
	}
	return !s.AEnd.same(s.A0, dbl) || !s.BEnd.same(s.A0, dbl) || !s.B0.same(s.A0, dbl) || !s.AMid.same(s.A0, dbl)
}

// judgePvar24 (§15.3.7.3): a non-continuous SUM-class handle of session B,
// made after traffic X, counts only the later traffic Y while session A's
// counts both (A_end = A_mid + B_end). Session independence also holds
// watermarks: A's high-water mark, started earlier, is at least B's (a
// low-water mark at most).
func judgePvar24(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	sums := sessionSums(r, false)
	broken := tally{}
	var fromX []string
	inY := 0
	for _, s := range sums {
		if !s.countsOnlyLater() {
			broken.note("session B does not count only the traffic after its handle was made (A_end ≠ A_mid + B_end)", fmt.Sprintf("%s: A %s → %s → %s, B %s → %s", s.who(), s.A0, s.AMid, s.AEnd, s.B0, s.BEnd))
		}
		if s.movedInX() {
			fromX = append(fromX, s.label())
		}
		if !s.BEnd.same(s.B0, s.double()) {
			inY++
		}
	}
	judged := append([]sumRec{}, sums...)
	marks, marksMoved := 0, 0
	for _, s := range r.sums {
		if sumClasses[s.Class] || !bothRead(s.RCA, s.RCB) {
			continue
		}
		judged = append(judged, s)
		marks++
		if s.movedInSessions() {
			marksMoved++
		}
		hwm := s.Class == "HIGHWATERMARK"
		for i := range s.AEnd {
			a, b := s.AEnd.float(i), s.BEnd.float(i)
			if (hwm && a < b) || (!hwm && a > b) {
				broken.note("a watermark started earlier is not beyond one started later", fmt.Sprintf("%s: A %s, B %s", s.who(), s.AEnd, s.BEnd))
			}
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, nonContinuousSum, "probe_exit")
	if len(sums) == 0 {
		unsupportedHere(x, "no non-continuous "+sumClassNames+" variable", crashed)
	}
	reason := fmt.Sprintf("%s: session A's handle (made before traffic X) read A_end = A_mid + B_end, session B's (made after X) counted only the later traffic; %s had counted traffic X, which B's left out; %d moved in B's (traffic Y)",
		plural(len(sums), "non-continuous "+sumClassNames+" variable", "non-continuous "+sumClassNames+" variables"), counted(fromX), inY)
	if marks > 0 {
		reason += fmt.Sprintf("; %s: A's, started earlier, at or beyond B's (%d of them moved)", plural(marks, "watermark", "watermarks"), marksMoved)
	}
	return pvar24Exposure.Pass(judged, "%s", reason+crashed)
}

// pvar19Exposure: a variable reading 0 in both sessions reads the same
// whether the value is the resource's or each session's own.
var pvar19Exposure = rulebook.Exposure[sameRec]{Items: levelClassNames + " variables",
	When:  "when both sessions read it alike and other than 0 (0 in both reads the same whether the value is the resource's or each session's own)",
	Could: func(s sameRec) bool { return s.A.same(s.B, s.Datatype == "MPI_DOUBLE") && !s.A.zero() }}

// judgePvar19 (§15.3.7.1): STATE, LEVEL, SIZE and PERCENTAGE variables read
// the same in sessions A and B at one moment.
func judgePvar19(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	unread := 0
	var compared []sameRec
	var nonzero []string
	for _, s := range r.same {
		if !bothRead(s.RCA, s.RCB) {
			unread++ // PVAR-35's
			continue
		}
		compared = append(compared, s)
		if !s.A.same(s.B, s.Datatype == "MPI_DOUBLE") {
			broken.note(s.Class+" variables read differently in two sessions at the same moment", fmt.Sprintf("%s (%d): A %s, B %s", s.Name, s.Index, s.A, s.B))
		} else if !s.A.zero() {
			nonzero = append(nonzero, s.Name)
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, levelClass, "probe_exit")
	if len(r.same) == 0 {
		unsupportedHere(x, "no "+levelClassNames+" variable", crashed)
	}
	reason := fmt.Sprintf("%s read the same in sessions A and B at one moment; %s read other than 0, where a value of each session's own would show",
		plural(len(compared), levelClassNames+" variable", levelClassNames+" variables"), counted(nonzero))
	if unread > 0 {
		reason += fmt.Sprintf("; %d could not be read (PVAR-35)", unread)
	}
	return pvar19Exposure.Pass(compared, "%s", reason+crashed)
}

// pvar32Exposure: only a variable R3 moved could show a stopped handle
// that counts on.
var pvar32Exposure = rulebook.Exposure[stopRec]{Items: "handles stopped in session A",
	When:  "when traffic R3 moved the variable (in session B's or D's handle)",
	Could: stopRec.movedInR3}

// movedInR3 says whether traffic R3 moved the variable, as session B's
// handle (or D's, where it was read) saw it.
func (s stopRec) movedInR3() bool {
	dbl := s.Datatype == "MPI_DOUBLE"
	return !s.BLater.same(s.BBefore, dbl) || (s.DOK != 0 && !s.DLater.same(s.DBefore, dbl))
}

// judgePvar32 (§15.3.7.5): a handle stopped in session A keeps its value
// through traffic R3 while session B's handle of the variable counts on.
func judgePvar32(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	var moved []string
	for _, s := range r.stops {
		dbl := s.Datatype == "MPI_DOUBLE"
		if !s.ALater.same(s.AStopped, dbl) {
			broken.note("a handle stopped in session A kept counting", fmt.Sprintf("%s (%d): A stopped at %s, later %s (B %s → %s)", s.Name, s.Index, s.AStopped, s.ALater, s.BBefore, s.BLater))
		}
		if s.movedInR3() {
			moved = append(moved, stopLabel(r, s))
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, nonContinuousSum, "probe_exit")
	if len(r.stops) == 0 {
		unsupportedHere(x, "no non-continuous "+sumClassNames+" variable to stop", crashed)
	}
	reason := fmt.Sprintf("%s stopped in session A kept their value through traffic R3; session B's (or D's) handle of %s counted R3 meanwhile",
		plural(len(r.stops), "handle", "handles"), counted(moved))
	if len(moved) == 0 {
		reason += ", so R3 moved none of these variables"
	}
	return pvar32Exposure.Pass(r.stops, "%s", reason+crashed)
}

// pvar35Exposure: each read returned a code, which could have been an
// error.
var pvar35Exposure = rulebook.Exposure[readInBoth]{Items: "variables read in sessions A and B"}

// readInBoth is a variable whose handles sessions A and B both read.
type readInBoth struct {
	index int
	name  string
}

// judgePvar35 (§15.3.7.6): MPI_T_pvar_read succeeds on the handles of both
// sessions.
func judgePvar35(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	sums, marks, levels := 0, 0, 0
	var read []readInBoth
	for _, s := range r.sums {
		switch {
		case !bothRead(s.RCA, s.RCB):
			broken.note("reading a handle failed", fmt.Sprintf("%s: %s / %s", s.who(), s.RCA, s.RCB))
			continue
		case sumClasses[s.Class]:
			sums++
		default:
			marks++
		}
		read = append(read, readInBoth{s.Index, s.Name})
	}
	for _, s := range r.same {
		if !bothRead(s.RCA, s.RCB) {
			broken.note("reading a handle failed", fmt.Sprintf("%s: %s / %s", s.Name, s.RCA, s.RCB))
		} else {
			levels++
			read = append(read, readInBoth{s.Index, s.Name})
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, anyVariable, "probe_exit")
	if sums+len(r.same) == 0 {
		unsupportedHere(x, "no COUNTER, AGGREGATE, TIMER, STATE, LEVEL, SIZE or PERCENTAGE variable to read", crashed)
	}
	reason := fmt.Sprintf("MPI_T_pvar_read returned MPI_SUCCESS on the handles of sessions A and B of %d %s variables (read at the end of the traffic) and %d %s variables (read side by side)",
		sums, sumClassNames, levels, levelClassNames)
	if marks > 0 {
		reason += fmt.Sprintf(", and of %s", plural(marks, "watermark", "watermarks"))
	}
	return pvar35Exposure.Pass(read, "%s", reason+crashed)
}

// pvar16Exposure: a reading before a phase's traffic that is not 0 leaves
// the phase out (libraryOwn) rather than fail it: it cannot show a wrong
// value.
var pvar16Exposure = rulebook.Exposure[truthRec]{Items: "readings of variables the traffic determines",
	When:  "when read after the phase's traffic began (one before it that is not 0 leaves the phase out rather than fail it)",
	Could: func(t truthRec) bool { return !strings.HasPrefix(t.Point, "before_") }}

// judgePvar16 (quality): the variables whose values the traffic determines
// (MPICH's and Open MPI's queue lengths, MPICH's match attempts) read what it
// implies, except in a phase whose queue held entries of the library's own
// before the traffic.
func judgePvar16(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	own := libraryOwn(r)
	broken := tally{}
	var matched []string
	var judged []truthRec
	skipped := 0
	for _, t := range r.truth {
		if own[truthPhase(t.Point)] != "" {
			skipped++
			continue
		}
		judged = append(judged, t)
		if t.RC != "MPI_SUCCESS" || t.Got != t.Expected {
			broken.note("a variable the traffic determines has the wrong value",
				fmt.Sprintf("%s %s at %s: %v, expected %v (%s)", t.What, t.Name, t.Point, t.Got, t.Expected, t.RC))
		} else {
			matched = append(matched, fmt.Sprintf("%s %s=%v", t.Name, strings.ReplaceAll(t.Point, "_", " "), t.Expected))
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, truthVariable, "probe_exit")
	if len(r.truth) == 0 {
		unsupportedHere(x, "no variable whose value the traffic determines", crashed)
	}
	matched = uniq(matched)
	reason := fmt.Sprintf("%s of variables the traffic determines read what it implies", plural(len(matched), "reading", "readings"))
	if len(matched) > 0 {
		reason += ": " + strings.Join(matched, ", ")
	}
	if skipped > 0 {
		var why []string
		for _, w := range own {
			why = append(why, w)
		}
		sort.Strings(why)
		reason += fmt.Sprintf("; %s not judged: %s", plural(skipped, "reading", "readings"), strings.Join(why, "; "))
	}
	return pvar16Exposure.Pass(judged, "%s", reason+crashed)
}

// pvar25Exposure: a write that reached B would show (B would read the
// value written, its own plus 7); a reset or readreset only where it would
// take B's COUNTER, AGGREGATE or TIMER handle from other than 0 to 0
// (whatever it did to A's own handle: one sent to the wrong session's
// handle leaves A's as it was).
var pvar25Exposure = rulebook.Exposure[mutateCall]{Items: "writes, resets and readresets in session A",
	When: "for a write always; for a reset or readreset when session B's " + sumClassNames + " handle read other than 0 before it (resetting the variable itself would show)",
	Could: func(c mutateCall) bool {
		return c.op == "write" || (sumClasses[c.class] && !c.bBefore.zero())
	}}

// mutateCall is one successful write, reset or readreset of a handle in
// session A (the items run), beside session B's handle of the variable.
type mutateCall struct {
	op      string // "write", "reset" or "readreset"
	class   string
	bBefore vals // what session B's handle read just before the call
}

// judgePvar25 (§15.3.7.3): write, reset and readreset of a handle in session
// A leave session B's handle of the variable as it was.
func judgePvar25(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	writes, resets, readresets := 0, 0, 0
	bMoved := 0 // resets and readresets of SUM-class handles while B read other than 0: a reset of the variable itself would show
	var calls []mutateCall
	for _, m := range r.mutates {
		dbl := m.double()
		if m.WriteRC == "MPI_SUCCESS" {
			writes++
			calls = append(calls, mutateCall{"write", m.Class, m.B0})
			if !m.BAfterWrite.same(m.B0, dbl) {
				broken.note("writing in session A changed session B", fmt.Sprintf("%s: B %s → %s", m.who(), m.B0, m.BAfterWrite))
			}
		}
		if m.ResetRC == "MPI_SUCCESS" {
			resets++
			calls = append(calls, mutateCall{"reset", m.Class, m.BAfterWrite})
			if sumClasses[m.Class] && !m.BAfterWrite.zero() {
				bMoved++
			}
			if !m.BAfterReset.same(m.BAfterWrite, dbl) {
				broken.note("resetting in session A changed session B", fmt.Sprintf("%s: B %s → %s", m.who(), m.BAfterWrite, m.BAfterReset))
			}
		}
		if m.ReadresetRC == "MPI_SUCCESS" {
			readresets++
			calls = append(calls, mutateCall{"readreset", m.Class, m.BAfterReset})
			if sumClasses[m.Class] && !m.BAfterReset.zero() {
				bMoved++
			}
			if !m.BAfterReadreset.same(m.BAfterReset, dbl) {
				broken.note("readreset in session A changed session B", fmt.Sprintf("%s: B %s → %s", m.who(), m.BAfterReset, m.BAfterReadreset))
			}
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, writable, "probe_exit", "mutate_exit")
	if writes+resets+readresets == 0 {
		unsupportedHere(x, "no writable performance variable accepted a write, a reset or a readreset", crashed)
	}
	return pvar25Exposure.Pass(calls,
		"session B's handle read the same before and after %s, %s and %s in session A (B's "+sumClassNames+" handle read other than 0 before %d of the resets and readresets, where resetting the variable itself would show)%s",
		plural(writes, "write", "writes"), plural(resets, "reset", "resets"), plural(readresets, "readreset", "readresets"), bMoved, crashed)
}

// pvar37Exposure: the value written is not the one read before, so a
// write that did nothing would show in every written handle.
var pvar37Exposure = rulebook.Exposure[mutateRec]{Items: "written handles"}

// judgePvar37 (§15.3.7.6, MPI_T_PVAR_WRITE): a handle reads back the value
// written to it.
func judgePvar37(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	var written []string
	var handles []mutateRec
	for _, m := range r.mutates {
		if m.WriteRC != "MPI_SUCCESS" {
			continue
		}
		written = append(written, m.Name)
		handles = append(handles, m)
		if !m.AAfterWrite.same(m.Written, m.double()) {
			broken.note("a written handle does not read the value written", fmt.Sprintf("%s: wrote %s, read %s", m.who(), m.Written, m.AAfterWrite))
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, writable, "probe_exit", "mutate_exit")
	if len(written) == 0 {
		unsupportedHere(x, "no writable performance variable accepted a write", crashed)
	}
	return pvar37Exposure.Pass(handles, "%s read back the value written to it (what it read before plus 7 in each element, 7.5 for a double): %s%s",
		plural(len(written), "written handle", "written handles"), examples(written), crashed)
}

// pvar38Exposure: a reset of a handle at its starting value cannot be told
// from one that does nothing.
var pvar38Exposure = rulebook.Exposure[mutateRec]{Items: "successful resets of COUNTER, AGGREGATE, TIMER, STATE, LEVEL, SIZE or PERCENTAGE handles",
	When:  "when the handle was away from its starting value before the reset (a " + sumClassNames + " handle not at 0, a " + levelClassNames + " handle not at what session B's read)",
	Could: mutateRec.awayBeforeReset}

// awayBeforeReset says whether session A's handle, written just before,
// was away from its starting value when reset: not 0 for a SUM class, not
// what session B's handle read for a level class.
func (m mutateRec) awayBeforeReset() bool {
	switch {
	case sumClasses[m.Class]:
		return !m.AAfterWrite.zero()
	case levelClasses[m.Class]:
		return !m.AAfterWrite.same(m.BAfterWrite, m.double())
	}
	return false
}

// judgePvar38 (§15.3.7.6, MPI_T_PVAR_RESET): after a successful reset a
// COUNTER, AGGREGATE or TIMER handle reads 0, a STATE, LEVEL, SIZE or
// PERCENTAGE handle the current value (what session B's reads). Only resets
// of handles away from their starting value count: one of a SUM-class handle
// reading 0 before it, or of a level-class handle reading what B's reads,
// cannot be told from a reset that does nothing.
func judgePvar38(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	var shown []string
	var resets []mutateRec
	idle := 0
	for _, m := range r.mutates {
		if m.ResetRC != "MPI_SUCCESS" {
			continue
		}
		dbl := m.double()
		sum, level := sumClasses[m.Class], levelClasses[m.Class]
		if sum || level {
			resets = append(resets, m)
		}
		if sum && !m.AAfterReset.zero() {
			broken.note("a reset SUM-class handle does not read its starting value 0", fmt.Sprintf("%s: %s", m.who(), m.AAfterReset))
		}
		if level && !m.AAfterReset.same(m.BAfterReset, dbl) {
			broken.note("a reset handle does not read the current value", fmt.Sprintf("%s (%s): %s, session B %s", m.who(), m.Class, m.AAfterReset, m.BAfterReset))
		}
		switch {
		case sum && !m.AAfterWrite.zero():
			shown = append(shown, fmt.Sprintf("%s %s → %s", m.Name, m.AAfterWrite, m.AAfterReset))
		case level && !m.AAfterWrite.same(m.BAfterWrite, dbl):
			shown = append(shown, fmt.Sprintf("%s %s → %s (B %s)", m.Name, m.AAfterWrite, m.AAfterReset, m.BAfterReset))
		case sum || level:
			idle++
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, resettable, "probe_exit", "mutate_exit")
	if len(shown) == 0 {
		why := "no writable COUNTER, AGGREGATE, TIMER, STATE, LEVEL, SIZE or PERCENTAGE variable away from its starting value accepted a reset"
		if idle > 0 {
			why += fmt.Sprintf(" (%s at its starting value did, which shows nothing)", plural(idle, "handle", "handles"))
		}
		unsupportedHere(x, why, crashed)
	}
	reason := fmt.Sprintf("%s away from the starting value read it after a successful reset: %s", plural(len(shown), "handle", "handles"), examples(shown))
	if idle > 0 {
		reason += fmt.Sprintf("; %s reset at the starting value already (which shows nothing) not counted", plural(idle, "handle", "handles"))
	}
	return pvar38Exposure.Pass(resets, "%s", reason+crashed)
}

// pvar41Exposure: a readreset could show a breach where it had something
// to return (the value written just before it) or to reset (a handle away
// from its starting value).
var pvar41Exposure = rulebook.Exposure[mutateRec]{Items: "successful readresets",
	When:  "when the handle was written just before it (the value to return) or was away from its starting value (not brought back by the reset before)",
	Could: mutateRec.readresetCouldShow}

// readresetCouldShow says whether a readreset had a value to return (a
// write just before it) or a handle away from its starting value to reset.
func (m mutateRec) readresetCouldShow() bool {
	return m.WriteRC == "MPI_SUCCESS" || m.awayBeforeReadreset()
}

// awayBeforeReadreset says whether the handle was away from its starting
// value before the readreset: written just before it (a SUM or level
// class), or not brought back by the reset before.
func (m mutateRec) awayBeforeReadreset() bool {
	sum, level := sumClasses[m.Class], levelClasses[m.Class]
	return ((sum || level) && m.WriteRC == "MPI_SUCCESS") || (sum && !m.AAfterReset.zero()) || (level && !m.AAfterReset.same(m.BAfterReset, m.double()))
}

// judgePvar41 (§15.3.7.6, MPI_T_PVAR_READRESET): a successful readreset
// returns what a read would (the value just written) and leaves the handle at
// its starting value (0, or for a level-class handle what session B's reads).
func judgePvar41(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	broken := tally{}
	var readresets []mutateRec
	returned, left, away := 0, 0, 0
	for _, m := range r.mutates {
		if m.ReadresetRC != "MPI_SUCCESS" {
			continue
		}
		readresets = append(readresets, m)
		dbl := m.double()
		sum, level := sumClasses[m.Class], levelClasses[m.Class]
		if m.awayBeforeReadreset() {
			away++
		}
		if sum {
			left++
			if !m.AAfterReadreset.zero() {
				broken.note("after readreset a SUM-class handle does not read 0", fmt.Sprintf("%s: %s", m.who(), m.AAfterReadreset))
			}
		}
		if level {
			left++
			if !m.AAfterReadreset.same(m.BAfterReadreset, dbl) {
				broken.note("after readreset a handle does not read the current value", fmt.Sprintf("%s (%s): %s, session B %s", m.who(), m.Class, m.AAfterReadreset, m.BAfterReadreset))
			}
		}
		if m.WriteRC == "MPI_SUCCESS" {
			returned++
			if !m.ReadresetValue.same(m.Written, dbl) {
				broken.note("readreset did not return what a read would (the value just written)", fmt.Sprintf("%s: wrote %s, readreset returned %s", m.who(), m.Written, m.ReadresetValue))
			}
		}
	}
	failNoted(x, broken)
	crashed := notMeasured(r, atomicWritable, "probe_exit", "mutate_exit")
	if len(readresets) == 0 {
		unsupportedHere(x, "no atomic writable performance variable accepted a readreset", crashed)
	}
	return pvar41Exposure.Pass(readresets, "%s of atomic handles: %d returned the value written just before it, %d left the handle at its starting value (a %s handle at 0, a %s handle at session B's value), %d of them away from it before the readreset%s",
		plural(len(readresets), "successful readreset", "successful readresets"), returned, left, sumClassNames, levelClassNames, away, crashed)
}
