package events

import (
	"fmt"
	"sort"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The judges of EVENTS-META-001 (meta.go): each judges its own records of
// the meta walk (metaJob), decoded for it by metaRecs.

// metaWalk is what the meta walk recorded about event types and sources.
type metaWalk struct {
	j    *jobOut
	sum  metaSummary
	evs  []metaEvent  // one per event type below MPI_T_event_get_num
	srcs []metaSource // one per source below MPI_T_source_get_num
}

// needEventTypes ends the rule's judgement unsupported when the implementation has no
// event types after MPI_Init (without the events interface, the rule's
// Needs stops it before its judge runs).
func needEventTypes(x *rulebook.X) {
	if x.Caps.AfterInit.Events == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
}

// metaRecs is the meta walk's summary, event types and sources:
// unsupported without event types (needEventTypes), Error when the walk
// broke (no summary, MPI_T_init_thread or MPI_T_event_get_num failed, not
// one record per event type).
func metaRecs(x *rulebook.X) *metaWalk {
	needEventTypes(x)
	return readMeta(x)
}

// readMeta is metaRecs without the need for event types: the events
// interface is enough (the suite's Needs), e.g. to ask for an index past
// the last where there is none.
func readMeta(x *rulebook.X) *metaWalk {
	j := metaJob(x)
	sums := mpi.DecodeRanked[metaSummary](j.Recs, "summary")
	if len(sums) != 1 {
		x.Errorf(j.Evidence, "events_event_meta wrote %d summary records, not 1", len(sums))
	}
	w := &metaWalk{j: j, sum: sums[0]}
	if w.sum.InitRC != 0 {
		x.Errorf(jsonOf(sums), "MPI_T_init_thread / MPI_T_event_get_num returned %d", w.sum.InitRC)
	}
	w.evs = mpi.DecodeRanked[metaEvent](j.Recs, "event")
	if len(w.evs) != w.sum.Num {
		x.Errorf(j.Evidence, "%d event records for %d events", len(w.evs), w.sum.Num)
	}
	w.srcs = mpi.DecodeRanked[metaSource](j.Recs, "source")
	return w
}

// answered are the event types MPI_T_event_get_info answered (a failed
// call is EVT-1's).
func (w *metaWalk) answered() []metaEvent {
	var out []metaEvent
	for _, e := range w.evs {
		if e.RC == 0 {
			out = append(out, e)
		}
	}
	return out
}

// answeredSources are the sources MPI_T_source_get_info answered (a failed
// call is SRC-1's).
func (w *metaWalk) answeredSources() []metaSource {
	var out []metaSource
	for _, s := range w.srcs {
		if s.RC == 0 {
			out = append(out, s)
		}
	}
	return out
}

// eventElement is element i of event type event.
type eventElement struct{ event, i int }

// elements are the elements of the event types: Error when an event
// type's datatypes, sizes and displacements are lists of different
// lengths (the fixture writes one entry per element in each).
func elements(x *rulebook.X, evs []metaEvent) []eventElement {
	var out []eventElement
	for _, e := range evs {
		if len(e.Sizes) != len(e.Types) || len(e.Displs) != len(e.Types) {
			x.Errorf(jsonOf([]metaEvent{e}), "event %d (%q): %d datatypes, %d sizes, %d displacements in its record", e.Index, e.Name, len(e.Types), len(e.Sizes), len(e.Displs))
		}
		for i := range e.Types {
			out = append(out, eventElement{e.Index, i})
		}
	}
	return out
}

// libCall is one library call the fixture made, as "name(argument)".
type libCall string

// countOf is one when n is 1, else many with n in it.
func countOf(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}

// evt2Exposure: the one out-of-range call could have succeeded.
var evt2Exposure = rulebook.Exposure[libCall]{Items: "out-of-range MPI_T_event_get_info calls"}

// EVT-2: the index one past the last is refused with MPI_T_ERR_INVALID_INDEX.
// With no event type, index 0 is already out of range: the rule is judged
// all the same.
func judgeEvt2(x *rulebook.X) verdict.Verdict {
	w := readMeta(x)
	if w.sum.OutOfRange != "invalid_index" {
		x.FailOn([]string{fmt.Sprintf("MPI_T_event_get_info(%d) (one past the last) did not return MPI_T_ERR_INVALID_INDEX (%s)", w.sum.Num, w.sum.OutOfRange)}, w.j.Evidence)
	}
	call := libCall(fmt.Sprintf("MPI_T_event_get_info(%d)", w.sum.Num))
	return evt2Exposure.Pass([]libCall{call}, "MPI_T_event_get_info(%d), one past the last of %d event types, returned MPI_T_ERR_INVALID_INDEX", w.sum.Num, w.sum.Num)
}

// evtX2Exposure: every answer could have carried a bad name, verbosity,
// binding or count.
var evtX2Exposure = rulebook.Exposure[metaEvent]{Items: "event types answering MPI_T_event_get_info"}

// EVT-X2: name, verbosity, binding and number of elements of every event
// type that answers.
func judgeEvtX2(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	evs := w.answered()
	var bad []string
	for _, e := range evs {
		switch {
		case e.Name == "":
			bad = append(bad, fmt.Sprintf("event %d has an empty name", e.Index))
		case e.Verbosity == "invalid":
			bad = append(bad, fmt.Sprintf("event %q: verbosity is no MPI_T_VERBOSITY_* constant", e.Name))
		case e.Bind == "invalid":
			bad = append(bad, fmt.Sprintf("event %q: binding is no MPI_T_BIND_* constant", e.Name))
		case e.Num < 0:
			bad = append(bad, fmt.Sprintf("event %q: %d elements", e.Name, e.Num))
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(evs) == 0 {
		return evtX2Exposure.Pass(evs, "none of the %d event types answered MPI_T_event_get_info (EVT-1's): no name, verbosity or binding judged", len(w.evs))
	}
	return evtX2Exposure.Pass(evs, "each of the %d event types answering MPI_T_event_get_info (of %d) gives a non-empty name, a verbosity and a binding among the constants, and a number of elements not below 0", len(evs), len(w.evs))
}

// evt12Exposure: every element's datatype could have been null or empty.
var evt12Exposure = rulebook.Exposure[eventElement]{Items: "event type elements"}

// EVT-12: every element has a real datatype.
func judgeEvt12(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	evs := w.answered()
	els := elements(x, evs)
	var bad []string
	for _, e := range evs {
		for i := range e.Types {
			if e.Types[i] == "MPI_DATATYPE_NULL" || e.Sizes[i] <= 0 {
				bad = append(bad, fmt.Sprintf("event %q: element %d has datatype %s (size %d)", e.Name, i, e.Types[i], e.Sizes[i]))
			}
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(els) == 0 {
		return evt12Exposure.Pass(els, "the %d event types answering MPI_T_event_get_info have no elements: no datatype judged", len(evs))
	}
	return evt12Exposure.Pass(els, "each of the %d elements of the %d event types answering MPI_T_event_get_info has a datatype other than MPI_DATATYPE_NULL, of a size above 0", len(els), len(evs))
}

// evtX3Exposure: every element's displacement could have been negative
// (and an element of a type with two or more could overlap another).
var evtX3Exposure = rulebook.Exposure[eventElement]{Items: "event type elements"}

// EVT-X3: displacements not negative, elements not overlapping.
func judgeEvtX3(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	evs := w.answered()
	els := elements(x, evs)
	var bad []string
	several := 0 // event types with two elements or more: those that can overlap
	for _, e := range evs {
		type el struct {
			d    int64
			size int
			i    int
		}
		var els []el
		for i := range e.Types {
			if e.Displs[i] < 0 {
				bad = append(bad, fmt.Sprintf("event %q: element %d at displacement %d", e.Name, i, e.Displs[i]))
			}
			els = append(els, el{e.Displs[i], e.Sizes[i], i})
		}
		if len(els) > 1 {
			several++
		}
		sort.Slice(els, func(a, b int) bool { return els[a].d < els[b].d })
		for i := 1; i < len(els); i++ {
			if els[i-1].d+int64(els[i-1].size) > els[i].d {
				bad = append(bad, fmt.Sprintf("event %q: elements %d and %d overlap", e.Name, els[i-1].i, els[i].i))
			}
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(els) == 0 {
		return evtX3Exposure.Pass(els, "the %d event types answering MPI_T_event_get_info have no elements: no displacement judged", len(evs))
	}
	return evtX3Exposure.Pass(els, "each of the %d elements of the %d event types answering MPI_T_event_get_info is at a displacement not below 0, and in the %d event types with two elements or more none overlap", len(els), len(evs), several)
}

// evt5Exposure: every answering event type's name could have been another's.
var evt5Exposure = rulebook.Exposure[metaEvent]{Items: "event type names"}

// EVT-5: no two event types share a name.
func judgeEvt5(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	evs := w.answered()
	var bad []string
	names := map[string]int{}
	for _, e := range evs {
		if first, ok := names[e.Name]; ok {
			bad = append(bad, fmt.Sprintf("event types %d and %d are both named %q", first, e.Index, e.Name))
		} else {
			names[e.Name] = e.Index
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(evs) < 2 {
		x.Unsupported("not measurable here: %d event type(s) answer MPI_T_event_get_info: no two names to compare", len(evs))
	}
	return evt5Exposure.Pass(evs, "the %d event types answering MPI_T_event_get_info (of %d) have %d different names", len(evs), len(w.evs), len(names))
}

// evt11Exposure: every displacement could have been off (the first not
// 0, a later one below the one before it).
var evt11Exposure = rulebook.Exposure[eventElement]{Items: "element displacements"}

// EVT-11: displacements start at zero and ascend.
func judgeEvt11(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	evs := w.answered()
	var bad []string
	withElements, several := 0, 0
	var displs []eventElement
	for _, e := range evs {
		for i, d := range e.Displs {
			switch {
			case i == 0 && d != 0:
				bad = append(bad, fmt.Sprintf("event %q: the first element is at displacement %d, not 0", e.Name, d))
			case i > 0 && d < e.Displs[i-1]:
				bad = append(bad, fmt.Sprintf("event %q: element %d at displacement %d, below element %d's %d", e.Name, i, d, i-1, e.Displs[i-1]))
			}
		}
		for i := range e.Displs {
			displs = append(displs, eventElement{e.Index, i})
		}
		if len(e.Displs) > 0 {
			withElements++
		}
		if len(e.Displs) > 1 {
			several++
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(displs) == 0 {
		x.Unsupported("not measurable here: no event type has elements")
	}
	return evt11Exposure.Pass(displs, "the displacements of the %d event types with elements (%d elements) start at 0, and ascend in the %d with two elements or more", withElements, len(displs), several)
}

// evt13Exposure: every call with an info could have returned MPI_INFO_NULL.
var evt13Exposure = rulebook.Exposure[metaEvent]{Items: "MPI_T_event_get_info calls with a non-NULL info"}

// EVT-13: a non-NULL info argument gets an info object.
func judgeEvt13(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	evs := w.answered()
	var bad []string
	keyed := 0
	for _, e := range evs {
		if e.InfoKeys < 0 {
			bad = append(bad, fmt.Sprintf("event %d (%q): MPI_T_event_get_info with a non-NULL info returned MPI_SUCCESS and MPI_INFO_NULL, not an info object", e.Index, e.Name))
		} else if e.InfoKeys > 0 {
			keyed++
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(evs) == 0 {
		x.Unsupported("not measurable here: no event type answers MPI_T_event_get_info")
	}
	return evt13Exposure.Pass(evs, "MPI_T_event_get_info with a non-NULL info returned an info object for %s (%d with keys)", countOf(len(evs), "the event type that answered", "each of the %d event types that answered"), keyed)
}

// src1Exposure: the count and every source index asked could have failed.
var src1Exposure = rulebook.Exposure[libCall]{Items: "calls (MPI_T_source_get_num, then MPI_T_source_get_info of each source index)"}

// SRC-1: sources exist with event types, and each answers get_info.
func judgeSrc1(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	s := w.sum
	var bad []string
	calls := []libCall{"MPI_T_source_get_num"}
	if s.SourcesRC != 0 || (s.Num > 0 && s.Sources < 1) {
		bad = append(bad, fmt.Sprintf("%d event types but MPI_T_source_get_num gives %d (rc %d)", s.Num, s.Sources, s.SourcesRC))
	}
	for _, src := range w.srcs {
		calls = append(calls, libCall(fmt.Sprintf("MPI_T_source_get_info(%d)", src.Index)))
		if src.RC != 0 {
			bad = append(bad, fmt.Sprintf("MPI_T_source_get_info(%d) returned %d", src.Index, src.RC))
		}
	}
	x.FailOn(bad, w.j.Evidence)
	return src1Exposure.Pass(calls, "with %d event types MPI_T_source_get_num gives %d, and MPI_T_source_get_info succeeded for %s", s.Num, s.Sources, countOf(len(w.srcs), "the source index asked", "each of the %d source indices asked"))
}

// src2Exposure: every answering source's ordering could have been neither.
var src2Exposure = rulebook.Exposure[metaSource]{Items: "sources answering MPI_T_source_get_info"}

// SRC-2: every source's ordering is one of the two constants.
func judgeSrc2(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	srcs := w.answeredSources()
	var bad []string
	orders := map[string]int{}
	for _, s := range srcs {
		if s.Ordering == "invalid" {
			bad = append(bad, fmt.Sprintf("source %q: ordering is neither MPI_T_SOURCE_ORDERED nor MPI_T_SOURCE_UNORDERED", s.Name))
		}
		orders[s.Ordering]++
	}
	x.FailOn(bad, w.j.Evidence)
	if len(srcs) == 0 {
		return src2Exposure.Pass(srcs, "none of the %d sources answered MPI_T_source_get_info: no ordering judged", len(w.srcs))
	}
	return src2Exposure.Pass(srcs, "%s ordered (%d) or unordered (%d)", countOf(len(srcs), "the source answering MPI_T_source_get_info is", "each of the %d sources answering MPI_T_source_get_info is"), orders["ordered"], orders["unordered"])
}

// src3Exposure: every answering source's ticks could have been 0 or less.
var src3Exposure = rulebook.Exposure[metaSource]{Items: "sources answering MPI_T_source_get_info"}

// SRC-3: ticks per second and maximum ticks above 0.
func judgeSrc3(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	srcs := w.answeredSources()
	var bad []string
	for _, s := range srcs {
		tps, _ := parseCount(s.TicksPerSecond)
		mt, _ := parseCount(s.MaxTicks)
		if tps <= 0 || mt <= 0 {
			bad = append(bad, fmt.Sprintf("source %q: %d ticks per second, maximum ticks %d", s.Name, tps, mt))
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(srcs) == 0 {
		return src3Exposure.Pass(srcs, "none of the %d sources answered MPI_T_source_get_info: no ticks judged", len(w.srcs))
	}
	return src3Exposure.Pass(srcs, "%s ticks per second and maximum ticks above 0", countOf(len(srcs), "the source answering MPI_T_source_get_info gives", "each of the %d sources answering MPI_T_source_get_info gives"))
}

// src4Exposure: every call with an info could have returned MPI_INFO_NULL.
var src4Exposure = rulebook.Exposure[metaSource]{Items: "MPI_T_source_get_info calls with a non-NULL info"}

// SRC-4: a non-NULL info argument gets an info object.
func judgeSrc4(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	srcs := w.answeredSources()
	var bad []string
	keyed := 0
	for _, s := range srcs {
		if s.InfoKeys < 0 {
			bad = append(bad, fmt.Sprintf("source %d (%q): MPI_T_source_get_info with a non-NULL info returned MPI_SUCCESS and MPI_INFO_NULL, not an info object", s.Index, s.Name))
		} else if s.InfoKeys > 0 {
			keyed++
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(w.srcs) == 0 {
		x.Unsupported("not measurable here: no source")
	}
	if len(srcs) == 0 {
		return src4Exposure.Pass(srcs, "none of the %d sources answered MPI_T_source_get_info (SRC-1's): no info object judged", len(w.srcs))
	}
	return src4Exposure.Pass(srcs, "MPI_T_source_get_info with a non-NULL info returned an info object for %s (%d with keys)", countOf(len(srcs), "the source that answered", "each of the %d sources that answered"), keyed)
}

// src5Exposure: every call could have returned another code.
var src5Exposure = rulebook.Exposure[libCall]{Items: "MPI_T_source_get_timestamp calls"}

// SRC-5: ad-hoc timestamps return MPI_SUCCESS or MPI_T_ERR_NOT_SUPPORTED.
func judgeSrc5(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	srcs := w.answeredSources()
	var bad []string
	rcs := map[string]int{}
	var calls []libCall // those that returned one of the two (any other fails)
	for _, s := range srcs {
		for _, rc := range s.TimestampRCs {
			rcs[rc]++
			if rc != "success" && rc != "not_supported" {
				bad = append(bad, fmt.Sprintf("source %q: MPI_T_source_get_timestamp returned neither MPI_SUCCESS nor MPI_T_ERR_NOT_SUPPORTED", s.Name))
				continue
			}
			calls = append(calls, libCall(fmt.Sprintf("MPI_T_source_get_timestamp(%d)", s.Index)))
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(calls) == 0 {
		return src5Exposure.Pass(calls, "the %d sources answering MPI_T_source_get_info were asked for no timestamp: no return code judged", len(srcs))
	}
	return src5Exposure.Pass(calls, "%d calls of MPI_T_source_get_timestamp on %s returned MPI_SUCCESS (%d) or MPI_T_ERR_NOT_SUPPORTED (%d)", len(calls), countOf(len(srcs), "1 source", "%d sources"), rcs["success"], rcs["not_supported"])
}

// timestampPair is two timestamps compared, the earlier first; the
// fixture's -1 is no timestamp.
type timestampPair struct{ earlier, later int64 }

// written: both timestamps of p were written (a comparison with the
// fixture's -1 says nothing of the library's clock).
func (p timestampPair) written() bool { return p.earlier != -1 && p.later != -1 }

// srcX3Exposure: only a pair of written timestamps could go back.
var srcX3Exposure = rulebook.Exposure[timestampPair]{Items: "pairs of successive ad-hoc timestamps",
	When:  "when both timestamps were written (the fixture's -1 is no timestamp: two of it cannot go back)",
	Could: timestampPair.written}

// SRC-X3: a source's successive ad-hoc timestamps do not go back.
func judgeSrcX3(x *rulebook.X) verdict.Verdict {
	w := metaRecs(x)
	srcs := w.answeredSources()
	var bad []string
	var pairs []timestampPair // successive timestamps compared
	paired := 0               // sources with a pair
	for _, s := range srcs {
		var prev int64
		got := 0
		for i, rc := range s.TimestampRCs {
			if rc != "success" {
				continue // another return code is SRC-5's
			}
			if i >= len(s.Timestamps) {
				x.Errorf(jsonOf([]metaSource{s}), "source %q: %d timestamp return codes but %d timestamps in its record", s.Name, len(s.TimestampRCs), len(s.Timestamps))
			}
			t, _ := parseCount(s.Timestamps[i])
			if got > 0 {
				pairs = append(pairs, timestampPair{prev, t})
				if t < prev {
					bad = append(bad, fmt.Sprintf("source %q: MPI_T_source_get_timestamp went back from %d to %d between two calls", s.Name, prev, t))
				}
			}
			prev = t
			got++
		}
		if got > 1 {
			paired++
		}
	}
	x.FailOn(bad, w.j.Evidence)
	if len(pairs) == 0 {
		return srcX3Exposure.Pass(pairs, "none of the %d sources answering MPI_T_source_get_info gave two ad-hoc timestamps: no pair compared", len(srcs))
	}
	return srcX3Exposure.Pass(pairs, "%d pairs of successive ad-hoc timestamps of %s (of %d answering MPI_T_source_get_info) do not go back", len(pairs), countOf(paired, "1 source", "%d sources"), len(srcs))
}

// categoryCount is a category's count of events, with the count of event
// types it is asked against.
type categoryCount struct{ events, eventTypes int }

// catX3Exposure: a category with no events is asked for none, so only one
// with events could show a failed call or a wrong entry; with no event
// type at all, any count but 0 would list an index outside [0,0), so
// every category could.
var catX3Exposure = rulebook.Exposure[categoryCount]{Items: "categories answering MPI_T_category_get_num_events",
	When:  "when it counts events, or there is no event type (then any events it listed would be out of range)",
	Could: func(c categoryCount) bool { return c.events > 0 || c.eventTypes == 0 }}

// CAT-X3: the events a category lists are valid indices, each once. Judged
// where there is no event type too: every category must then count none,
// as any index it listed would be out of range.
func judgeCatX3(x *rulebook.X) verdict.Verdict {
	w := readMeta(x)
	num := w.sum.Num
	var bad []string
	withEvents, listed := 0, 0
	var asked []categoryCount
	for _, c := range mpi.DecodeRanked[metaCategory](w.j.Recs, "category") {
		if c.NumRC != 0 {
			continue // an invalid category index is the MPI_T variables suite's matter
		}
		asked = append(asked, categoryCount{c.NumEvents, num})
		if c.NumEvents > 0 {
			withEvents++
			if c.GetEventsRC != 0 {
				bad = append(bad, fmt.Sprintf("MPI_T_category_get_events(%d) returned %d", c.Index, c.GetEventsRC))
			}
		}
		seen := map[int]bool{}
		for _, e := range c.Events {
			if e < 0 || e >= num || seen[e] {
				bad = append(bad, fmt.Sprintf("category %q lists event %d: out of range [0,%d) or twice", c.Name, e, num))
			}
			seen[e] = true
		}
		listed += len(c.Events)
	}
	x.FailOn(bad, w.j.Evidence)
	if num == 0 {
		return catX3Exposure.Pass(asked, "there is no event type, and each of the %d categories answering MPI_T_category_get_num_events counts 0 events, so lists none", len(asked))
	}
	return catX3Exposure.Pass(asked, "of %d categories answering MPI_T_category_get_num_events, MPI_T_category_get_events succeeded for %s, and the %d entries listed are event type indices below %d, none twice in a category", len(asked), countOf(withEvents, "the one with events", "the %d with events"), listed, num)
}
