package mpit

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// How the values of one handle move between reads, by class (MPI-5.0
// §15.3.7.1), from the traffic run of fixtures/c/mpit/pvars.c: each handle
// of sessions A, B and D is read several times while it is started (or
// continuous) and never reset.
var pvarValuesCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-PVAR-VALUES",
	Needs: "mpit",
	Title: "COUNTER, AGGREGATE and TIMER values never decrease between resets; high-water marks never fall, low-water marks never rise",
	Rules: []rulebook.Rule{
		// §15.3.7.1, COUNTER, AGGREGATE and TIMER: "The value of a variable
		// of this class increases monotonically from the initialization or
		// reset of the performance variable."
		{ID: "PVAR-15", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "a COUNTER, AGGREGATE or TIMER handle never reads less than it read before, as long as it is not reset",
			Injectors: []string{"inject_mpit_pvar_values_off"}, Exposure: pvar15Exposure.Declared(), Judge: judgeMonotone(sumNeverDown, pvar15Exposure)},
		// §15.3.7.1: a HIGHWATERMARK "is nonnegative and grows monotonically
		// from the initialization or reset of the variable"; a LOWWATERMARK
		// "is nonnegative and decreases monotonically from the initialization
		// or reset of the variable".
		{ID: "PVAR-17", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "a HIGHWATERMARK handle never reads less, a LOWWATERMARK handle never more, than it read before, as long as it is not reset",
			Injectors: []string{"inject_mpit_pvar_values_off"}, Exposure: pvar17Exposure.Declared(), Judge: judgeMonotone(marksKeepDirection, pvar17Exposure)},
		// §15.3.7.1, MPI_T_PVAR_CLASS_HIGHWATERMARK and _LOWWATERMARK: "The
		// starting value is the current utilization level of the resource at
		// the time that the variable is started or reset."
		{ID: "PVAR-18", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "right after a reset, a HIGHWATERMARK handle reads no more (a LOWWATERMARK no less) than a handle of the same variable started before and never reset: the current level, not what was seen before",
			Injectors: []string{"inject_mpit_watermark_reset"}, Exposure: pvar18Exposure.Declared(), Judge: judgePvar18},
	},
})

// judgeMonotone checks every handle's reads in order: for PVAR-15 the SUM
// classes never go down, for PVAR-17 high-water marks never down and
// low-water marks never up.
// monotone is the classes a monotonicity rule judges and, per class,
// whether it must not go down (false) or up (true).
type monotone struct {
	classes string          // as the reasons name them
	down    map[string]bool // class → the direction it must not go is up
}

var (
	sumNeverDown       = monotone{"COUNTER, AGGREGATE or TIMER", map[string]bool{"COUNTER": false, "AGGREGATE": false, "TIMER": false}}
	marksKeepDirection = monotone{"HIGHWATERMARK or LOWWATERMARK", map[string]bool{"HIGHWATERMARK": false, "LOWWATERMARK": true}}
)

// The exposures of PVAR-15 and PVAR-17 (judgeMonotone): only a variable
// that moved could have moved the wrong way.
var (
	pvar15Exposure = rulebook.Exposure[sumRec]{Items: sumNeverDown.classes + " variables",
		When: "when session A's handle moved over the traffic", Could: sumRec.movedInA}
	pvar17Exposure = rulebook.Exposure[sumRec]{Items: marksKeepDirection.classes + " variables",
		When: "when session A's handle moved over the traffic", Could: sumRec.movedInA}
)

// movedInA says whether session A's handle read otherwise at the end of
// the traffic than at its start.
func (s sumRec) movedInA() bool { return !s.AEnd.same(s.A0, s.double()) }

// judgeMonotone judges that no handle of m's classes moved the wrong way
// between two reads; a variable that never moved could not have, so a run
// where none moved is not measurable. Its pass goes through e, the rule's
// exposure.
func judgeMonotone(m monotone, e rulebook.Exposure[sumRec]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := pvarJob(x)
		broken := tally{}
		var vars []sumRec
		moved := 0
		for _, s := range r.sums {
			if s.RCA != "MPI_SUCCESS" || s.RCB != "MPI_SUCCESS" {
				continue // PVAR-35's
			}
			down, ok := m.down[s.Class] // the direction the class must not go
			if !ok {
				continue
			}
			vars = append(vars, s)
			who := fmt.Sprintf("%s (%d, %s)", s.Name, s.Index, s.Class)
			dbl := s.Datatype == "MPI_DOUBLE"
			seqs := map[string][]vals{"session A": {s.A0, s.AMid, s.AEnd}, "session B": {s.B0, s.BEnd}}
			for _, st := range r.stops {
				if st.Index == s.Index && st.Name == s.Name {
					// B runs on through R3; D is started just before it
					seqs["session B"] = append(seqs["session B"], st.BBefore, st.BLater)
					if st.DOK != 0 {
						seqs["session D"] = []vals{st.DBefore, st.DLater}
					}
				}
			}
			if s.movedInA() {
				moved++
			}
			for _, who2 := range []string{"session A", "session B", "session D"} {
				seq := seqs[who2]
				for k := 1; k < len(seq); k++ {
					if i, ok := against(seq[k-1], seq[k], dbl, down); !ok {
						what := "went down"
						if down {
							what = "went up"
						}
						broken.note(fmt.Sprintf("a %s handle %s between two reads", s.Class, what),
							fmt.Sprintf("%s, %s: element %d read %s then %s", who, who2, i, seq[k-1][i], seq[k][i]))
					}
				}
			}
		}
		var p rulebook.Problems
		broken.into(&p, "; ")
		p.FailOn(x)
		if len(vars) == 0 {
			x.Unsupported("not measurable here: no %s variable was read", m.classes)
		}
		if moved == 0 {
			x.Unsupported("not measurable here: none of the %s read moved under the traffic, so none could have moved the wrong way", plural(len(vars), m.classes+" variable", m.classes+" variables"))
		}
		return e.Pass(vars, "%s moved by the traffic (of %d read) kept their direction across every read", plural(moved, m.classes+" variable", m.classes+" variables"), len(vars))
	}
}

// against says whether b is not below a (not above, when down), element by
// element, and else the first element that is.
func against(a, b vals, double, down bool) (int, bool) {
	for i := range a {
		if i >= len(b) {
			break
		}
		lo, hi := a, b
		if down {
			lo, hi = b, a
		}
		if less(hi[i], lo[i], double) {
			return i, false
		}
	}
	return 0, true
}

// less compares two recorded numbers: integers exactly, doubles within a
// rounding tolerance.
func less(a, b json.Number, double bool) bool {
	if !double {
		if x, err := strconv.ParseInt(string(a), 10, 64); err == nil {
			if y, err := strconv.ParseInt(string(b), 10, 64); err == nil {
				return x < y
			}
		}
		if x, err := strconv.ParseUint(string(a), 10, 64); err == nil {
			if y, err := strconv.ParseUint(string(b), 10, 64); err == nil {
				return x < y
			}
		}
	}
	x, _ := a.Float64()
	y, _ := b.Float64()
	return x < y-tol(x, y)
}

// pvar18Exposure: a reset that kept what it had seen would read beyond
// the current level after it too, but only where A's handle read beyond
// it before the reset; one already within it cannot tell.
var pvar18Exposure = rulebook.Exposure[mutateRec]{Items: "watermark resets",
	When:  "when session A's handle read beyond what session B's (never reset) read, before the reset",
	Could: mutateRec.markBeyondBeforeReset}

// markBeyondBeforeReset says whether a watermark's handle in session A
// read beyond what B's read after A's reset (above it for a high-water
// mark, below for a low-water one), before the reset.
func (m mutateRec) markBeyondBeforeReset() bool {
	_, within := against(m.AAfterWrite, m.BAfterReset, m.double(), m.Class == "LOWWATERMARK")
	return !within
}

// judgePvar18: the walk says first whether there are watermark variables
// at all (the traffic job is not launched for nothing); then, from the
// mutate items of the pvar job: session A's handle is reset while session
// B's, started at the same time, is not. B has seen every level since its
// start, the current one included, so a high-water mark of A right after
// the reset (the current level) reads at most B's, a low-water mark at
// least B's.
func judgePvar18(x *rulebook.X) verdict.Verdict {
	w := walk(x)
	n, wm := 0, 0
	for _, v := range w.pvars {
		if v.RC != "MPI_SUCCESS" {
			continue
		}
		n++
		if v.Class == "HIGHWATERMARK" || v.Class == "LOWWATERMARK" {
			wm++
		}
	}
	if n == 0 {
		x.Unsupported("not measurable here: MPI_T_pvar_get_num gives %d after MPI_Init, no performance variable answers get_info", w.summary.Pvars)
	}
	if wm == 0 {
		x.Unsupported("not measurable here: none of the %d performance variables is of class HIGHWATERMARK or LOWWATERMARK", n)
	}
	r := pvarJob(x)
	broken := tally{}
	var judged []mutateRec
	away := 0
	for _, m := range r.mutates {
		down := m.Class == "LOWWATERMARK"
		if (m.Class != "HIGHWATERMARK" && !down) || m.ResetRC != "MPI_SUCCESS" || len(m.AAfterReset) == 0 || len(m.BAfterReset) == 0 {
			continue
		}
		judged = append(judged, m)
		// A's handle read beyond B's (the written value + 7) before the
		// reset
		if m.markBeyondBeforeReset() {
			away++
		}
		if i, ok := against(m.AAfterReset, m.BAfterReset, m.Datatype == "MPI_DOUBLE", down); !ok {
			what := "above"
			if down {
				what = "below"
			}
			broken.note("a watermark reads "+what+" the current level right after a reset",
				fmt.Sprintf("%s (%d, %s): element %d read %s after the reset, a handle never reset %s", m.Name, m.Index, m.Class, i, m.AAfterReset[i], m.BAfterReset[i]))
		}
	}
	var p rulebook.Problems
	broken.into(&p, "; ")
	p.FailOn(x)
	if len(judged) == 0 {
		x.Unsupported("not measurable here: no reset of the %d watermark variables succeeded", wm)
	}
	return pvar18Exposure.Pass(judged, "%s read, right after a reset, within what a handle never reset has seen; %d of them read beyond it before the reset",
		plural(len(judged), "watermark variable", "watermark variables"), away)
}
