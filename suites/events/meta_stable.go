package events

import (
	"fmt"
	"math"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// What MPI_T says about event types and sources holds over the run: the
// meta job (fixtures/c/events/event_meta.c, event_meta_again.h) walks them,
// does some MPI activity and walks them again, and reads each source's clock
// twice 50 ms apart. Each rule judges its own records.
var stableCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-META-002",
	Needs: "events",
	Title: "event types and sources hold still over the run (the same information, no index lost, counts that do not go down) and a source's clock ticks as it declares",
	Rules: []rulebook.Rule{
		// §15.3.8.3: "After a successful call to MPI_T_EVENT_GET_INFO for a
		// particular event type, subsequent calls to this routine that query
		// information about the same event type must return the same
		// information."
		{ID: "EVT-6", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info of an event type, called again after some MPI activity, gives the same name, verbosity, elements (datatypes, displacements), enumeration, binding, description and info key count",
			Injectors: []string{"inject_events_meta_drift"},
			Exposure:  evt6Exposure.Declared(), Judge: judgeSameInfo},
		// §15.3.8.3: "An MPI implementation is allowed to increase the number
		// of event types during the execution of an MPI process. However, MPI
		// implementations are not allowed to change the index of an event type
		// or to delete an event type once it has been made visible to the user"
		{ID: "EVT-14", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "after some MPI activity MPI_T_event_get_num is not lower, every event type seen before still answers MPI_T_event_get_info, and MPI_T_event_get_index of its name gives the same index",
			Injectors: []string{"inject_events_meta_drift"},
			Exposure:  evt14Exposure.Declared(), Judge: judgeEventsStay},
		// §15.3.8.1: "An MPI implementation is allowed to increase the number
		// of sources during the execution of an MPI process. However, MPI
		// implementations are not allowed to change the index of an event
		// source or to delete an event source once it has been made visible to
		// the user"
		{ID: "SRC-8", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "after some MPI activity MPI_T_source_get_num is not lower and every source seen before still answers MPI_T_source_get_info at its index, with its name",
			Injectors: []string{"inject_events_meta_drift"},
			Exposure:  src8Exposure.Declared(), Judge: judgeSourcesStay},
		// §15.3.8.1: "The ticks_per_seconds argument returns the number of
		// ticks elapsed in one second for the timer used for the specific
		// source." "The max_ticks argument returns the largest number of ticks
		// reported by this source as a timestamp before the value overflows."
		{ID: "SRC-7", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "a source's ad-hoc timestamps advance by its ticks_per_second per second (within 10 % over 50 ms, the interval bracketed by the system's monotonic clock) and none exceeds its max_ticks",
			Injectors: []string{"inject_events_clock_fast"},
			Exposure:  src7Exposure.Declared(), Judge: judgeClock},
	},
})

type againSummary struct {
	NumRC     int `json:"num_rc"`
	Num       int `json:"num"`
	SourcesRC int `json:"sources_rc"`
	Sources   int `json:"sources"`
}

type eventAgain struct {
	Index    int    `json:"index"`
	RC       int    `json:"rc"`
	Sig      string `json:"sig"`
	IndexRC  int    `json:"get_index_rc"`
	GetIndex int    `json:"get_index"`
}

type sourceAgain struct {
	Index int    `json:"index"`
	RC    int    `json:"rc"`
	Name  string `json:"name"`
}

// againRecs is the meta walk and the walk after it (Error when the second
// walk is missing: the job ended before the items, which resuming reports).
func againRecs(x *rulebook.X) (*jobOut, metaSummary, againSummary) {
	w := metaRecs(x) // unsupported without event types, Error on a broken walk
	j, sum := w.j, w.sum
	again := mpi.DecodeRanked[againSummary](j.Recs, "again")
	if len(again) != 1 {
		x.Errorf(j.Evidence, "events_event_meta wrote %d \"again\" records, not 1", len(again))
	}
	return j, sum, again[0]
}

// evt6Exposure: every event type asked twice could have answered otherwise.
var evt6Exposure = rulebook.Exposure[eventAgain]{Items: "event types asked twice"}

func judgeSameInfo(x *rulebook.X) verdict.Verdict {
	j, _, _ := againRecs(x)
	first := map[int]metaEvent{}
	for _, e := range mpi.DecodeRanked[metaEvent](j.Recs, "event") {
		if e.RC == 0 && e.SigRC == 0 {
			first[e.Index] = e
		}
	}
	var bad []string
	var twice []eventAgain
	for _, a := range mpi.DecodeRanked[eventAgain](j.Recs, "event_again") {
		e, ok := first[a.Index]
		if !ok || a.RC != 0 {
			continue // a failed call is EVT-1's, a vanished type EVT-14's
		}
		twice = append(twice, a)
		if a.Sig != e.Sig {
			bad = append(bad, fmt.Sprintf("event %d (%q): first %s; later %s", a.Index, e.Name, e.Sig, a.Sig))
		}
	}
	x.FailOn(bad, "")
	if len(twice) == 0 {
		x.Unsupported("not measurable here: no event type answered MPI_T_event_get_info twice")
	}
	return evt6Exposure.Pass(twice, "%d event types answered the same before and after some MPI activity", len(twice))
}

// laterAnswer is one answer of the later walk: the count (count true,
// with before the count seen in the first walk) or an item seen before.
type laterAnswer struct {
	count  bool
	before int
}

// keptOrLowered: an item seen before could have vanished or moved, a
// later count could have gone down only from a count above 0.
func (a laterAnswer) keptOrLowered() bool { return !a.count || a.before > 0 }

// laterAnswers is the later count, then one answer per item seen before.
func laterAnswers(before, seen int) []laterAnswer {
	out := []laterAnswer{{count: true, before: before}}
	for i := 0; i < seen; i++ {
		out = append(out, laterAnswer{})
	}
	return out
}

// evt14Exposure: see keptOrLowered.
var evt14Exposure = rulebook.Exposure[laterAnswer]{Items: "later answers (MPI_T_event_get_num, then each event type seen before)",
	When:  "for each event type seen before, and for the later count when the count before was above 0 (a count of 0 cannot go down)",
	Could: laterAnswer.keptOrLowered}

func judgeEventsStay(x *rulebook.X) verdict.Verdict {
	j, sum, again := againRecs(x)
	var bad []string
	if again.NumRC != 0 || again.Num < sum.Num {
		bad = append(bad, fmt.Sprintf("MPI_T_event_get_num gave %d, later %d (rc %d)", sum.Num, again.Num, again.NumRC))
	}
	names := map[int]string{}
	for _, e := range mpi.DecodeRanked[metaEvent](j.Recs, "event") {
		if e.RC == 0 {
			names[e.Index] = e.Name
		}
	}
	seen := 0 // event types seen in the first walk and asked again
	for _, a := range mpi.DecodeRanked[eventAgain](j.Recs, "event_again") {
		name, ok := names[a.Index]
		if ok {
			seen++
		}
		switch {
		case !ok:
			continue // never visible: EVT-1's
		case a.RC != 0:
			bad = append(bad, fmt.Sprintf("event %d (%q) answered MPI_T_event_get_info, later it returned %d", a.Index, name, a.RC))
		case a.IndexRC != 0:
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_index(%q) returned %d after some MPI activity", name, a.IndexRC))
		case a.GetIndex != a.Index:
			bad = append(bad, fmt.Sprintf("event %q was at index %d, later MPI_T_event_get_index gives %d", name, a.Index, a.GetIndex))
		}
	}
	x.FailOn(bad, jsonOf(mpi.DecodeRanked[eventAgain](j.Recs, "event_again")))
	return evt14Exposure.Pass(laterAnswers(sum.Num, seen), "%d event types, later %d, each still at its index", sum.Num, again.Num)
}

// src8Exposure: see keptOrLowered.
var src8Exposure = rulebook.Exposure[laterAnswer]{Items: "later answers (MPI_T_source_get_num, then each source seen before)",
	When:  "for each source seen before, and for the later count when the count before was above 0 (a count of 0 cannot go down)",
	Could: laterAnswer.keptOrLowered}

func judgeSourcesStay(x *rulebook.X) verdict.Verdict {
	j, sum, again := againRecs(x)
	var bad []string
	if sum.SourcesRC != 0 {
		x.Unsupported("not measurable here: MPI_T_source_get_num returned %d", sum.SourcesRC)
	}
	if again.SourcesRC != 0 || again.Sources < sum.Sources {
		bad = append(bad, fmt.Sprintf("MPI_T_source_get_num gave %d, later %d (rc %d)", sum.Sources, again.Sources, again.SourcesRC))
	}
	names := map[int]string{}
	for _, s := range mpi.DecodeRanked[metaSource](j.Recs, "source") {
		if s.RC == 0 {
			names[s.Index] = s.Name
		}
	}
	seen := 0 // sources seen in the first walk and asked again
	for _, a := range mpi.DecodeRanked[sourceAgain](j.Recs, "source_again") {
		name, ok := names[a.Index]
		if ok {
			seen++
		}
		switch {
		case !ok:
			continue // never visible: SRC-1's
		case a.RC != 0:
			bad = append(bad, fmt.Sprintf("source %d (%q) answered MPI_T_source_get_info, later it returned %d", a.Index, name, a.RC))
		case a.Name != name:
			bad = append(bad, fmt.Sprintf("source %d was %q, later %q", a.Index, name, a.Name))
		}
	}
	x.FailOn(bad, jsonOf(mpi.DecodeRanked[sourceAgain](j.Recs, "source_again")))
	if sum.Sources == 0 && again.Sources == 0 {
		x.Unsupported("not measurable here: no source")
	}
	return src8Exposure.Pass(laterAnswers(sum.Sources, seen), "%d sources, later %d, each still at its index with its name", sum.Sources, again.Sources)
}

// src7Exposure: every source clock read could have ticked off its rate or
// past its max_ticks.
var src7Exposure = rulebook.Exposure[metaSource]{Items: "source clocks read 50 ms apart"}

// judgeClock compares each source's ticks over a bracketed 50 ms with its
// ticks_per_second, and every ad-hoc timestamp with its max_ticks.
func judgeClock(x *rulebook.X) verdict.Verdict {
	j := metaRecs(x).j
	var bad, ok []string
	var read []metaSource // the sources in ok
	for _, s := range mpi.DecodeRanked[metaSource](j.Recs, "source") {
		tps, _ := parseCount(s.TicksPerSecond)
		max, _ := parseCount(s.MaxTicks)
		if s.RC != 0 || tps <= 0 || max <= 0 {
			continue // SRC-1's, SRC-3's
		}
		r := s.Rate
		if r.RC0 != "MPI_SUCCESS" || r.RC1 != "MPI_SUCCESS" {
			continue // no ad-hoc timestamps (SRC-5: MPI_T_ERR_NOT_SUPPORTED)
		}
		t0, _ := parseCount(r.T0)
		t1, _ := parseCount(r.T1)
		for i, t := range append(timestampsOf(s), t0, t1) {
			if t > max {
				bad = append(bad, fmt.Sprintf("source %q: ad-hoc timestamp %d (read %d) is above max_ticks %d", s.Name, t, i+1, max))
			}
		}
		lo, _ := parseCount(r.LoNs)
		hi, _ := parseCount(r.HiNs)
		// The ticks the declared rate gives for the bracketed interval, with
		// 10 % and a tick either way.
		want := func(ns int64, f float64) float64 { return float64(ns) * f * float64(tps) / 1e9 }
		got := float64(t1 - t0)
		if got < want(lo, 0.9)-1 || got > want(hi, 1.1)+1 {
			bad = append(bad, fmt.Sprintf("source %q: %d ticks in %.1f to %.1f ms; at the declared %d ticks per second that is %.0f to %.0f ticks (measured rate about %.3g per second)",
				s.Name, t1-t0, float64(lo)/1e6, float64(hi)/1e6, tps, want(lo, 1), want(hi, 1), got*1e9/math.Max(float64(hi+lo)/2, 1)))
			continue
		}
		read = append(read, s)
		ok = append(ok, fmt.Sprintf("%s: %d ticks in %.1f-%.1f ms at %d/s", s.Name, t1-t0, float64(lo)/1e6, float64(hi)/1e6, tps))
	}
	x.FailOn(bad, jsonOf(mpi.DecodeRanked[metaSource](j.Recs, "source")))
	if len(read) == 0 {
		x.Unsupported("not measurable here: no source gives ad-hoc timestamps (or none declares its ticks)")
	}
	return src7Exposure.Pass(read, "%s", strings.Join(ok, "; "))
}

func timestampsOf(s metaSource) []int64 {
	var out []int64
	for i, t := range s.Timestamps {
		if i < len(s.TimestampRCs) && s.TimestampRCs[i] == "success" {
			v, _ := parseCount(t)
			out = append(out, v)
		}
	}
	return out
}
