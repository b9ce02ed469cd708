package events

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Inside every callback of the probe and delivery jobs the fixture calls
// MPI_T_event_read (every element), MPI_T_event_copy (into a buffer with
// guard bytes after the extent), MPI_T_event_get_timestamp,
// MPI_T_event_get_source and MPI_T_source_get_timestamp of that source, and
// once, in the probe job's cb_pvar sub-phase, the pvar calls of Table 22;
// it records each result, so each rule judges its own calls. A crash inside
// a callback is also CB-X1's (deliver.go). The fixture announces each query
// (MPITS_CALL): after the failures the callbacks recorded, a rank that died
// in one fails the rule that governs it (ED-1 MPI_T_event_read, ED-2
// MPI_T_event_copy, ED-4 MPI_T_event_get_timestamp, ED-7
// MPI_T_event_get_source) and leaves the others not judged, so the callback
// that died never counts towards a pass. A death the records do not place
// leaves these rules judging the callbacks recorded before it.
var insideCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-INSIDE",
	Needs: "events",
	Title: "inside every callback MPI_T_event_read, _copy (equal to the elements read, nothing past the extent), _get_timestamp (non-decreasing for an ordered source, not later than the source's clock) and _get_source (a valid index) succeed, and no call of Table 22 returns MPI_T_ERR_NOT_ACCESSIBLE",
	Rules: []rulebook.Rule{
		// §15.3.8.2: "All functions with the prefix MPI_T, except those listed
		// in Table 22, may return the return code MPI_T_ERR_NOT_ACCESSIBLE to
		// indicate that the user may not access this function at this time.
		// The functions (and their respective PMPI versions) listed in Table 22
		// are exceptions to this rule and shall not return
		// MPI_T_ERR_NOT_ACCESSIBLE." Table 22 lists MPI_T_EVENT_COPY,
		// _GET_SOURCE, _GET_TIMESTAMP and _READ.
		{ID: "CB-16", Source: "MPI-5.0 §15.3.8.2", Basis: rulebook.Normative,
			Text:      "inside a callback MPI_T_event_read, _copy, _get_timestamp and _get_source never return MPI_T_ERR_NOT_ACCESSIBLE",
			Injectors: []string{"inject_events_in_cb_refused"},
			Exposure:  cb16Exposure.Declared(), Judge: insideJudge("rc")},
		// §15.3.8.6: "MPI_T_EVENT_READ allows users to copy one element of the
		// event data to a user-specified buffer at a time." with
		// "event_instance: event-instance handle provided to the callback
		// function": inside the callback every element can be read.
		{ID: "ED-1", Source: "MPI-5.0 §15.3.8.6", Basis: rulebook.Normative,
			Text:      "inside a callback MPI_T_event_read of every element of the instance returns MPI_SUCCESS",
			Governs:   []string{"MPI_T_event_read"},
			Injectors: []string{"inject_events_in_cb_refused", "inject_events_read_element_crash"},
			Exposure:  ed1Exposure.Declared(), Judge: insideJudge("read")},
		// §15.3.8.7: "MPI_T_EVENT_GET_TIMESTAMP returns the timestamp of when
		// the event was initially observed by the implementation."
		{ID: "ED-4", Source: "MPI-5.0 §15.3.8.7", Basis: rulebook.Normative,
			Text:      "inside a callback MPI_T_event_get_timestamp of the instance returns MPI_SUCCESS",
			Governs:   []string{"MPI_T_event_get_timestamp"},
			Injectors: []string{"inject_events_in_cb_refused"},
			Exposure:  ed4Exposure.Declared(), Judge: insideJudge("timestamp")},
		// §15.3.8.6: "The user must ensure that the buffer is of at least the
		// size of the extent of the event type, which can be computed from the
		// type and displacement information returned by the corresponding call
		// to MPI_T_EVENT_GET_INFO.": a buffer of that size suffices, so the
		// copy writes nothing past the extent. It governs no call: a copy
		// that dies wrote nothing the fixture can see, so it is ED-2's fail
		// and leaves this rule not judged.
		{ID: "ED-3", Source: "MPI-5.0 §15.3.8.6", Basis: rulebook.Normative,
			Text:      "MPI_T_event_copy writes nothing past the extent MPI_T_event_get_info describes (256 guard bytes after it stay untouched)",
			Injectors: []string{"inject_events_copy_overrun"},
			Exposure:  ed3Exposure.Declared(), Judge: insideJudge("guard")},
		// §15.3.8.7: "MPI_T_EVENT_GET_TIMESTAMP returns the timestamp of when
		// the event was initially observed by the implementation." §15.3.8.1:
		// "a user can obtain a current timestamp using
		// MPI_T_SOURCE_GET_TIMESTAMP": an instance observed before its callback
		// ran is not later than its source's current timestamp read there.
		{ID: "ED-6", Source: "MPI-5.0 §15.3.8.7", Basis: rulebook.Normative,
			Text:      "an instance's MPI_T_event_get_timestamp is not later than MPI_T_source_get_timestamp of its source read after it in the callback",
			Injectors: []string{"inject_events_timestamp_back"},
			Exposure:  ed6Exposure.Declared(), Judge: insideJudge("observed")},
		// §15.3.8.2, the same sentence: Table 22 also lists MPI_T_PVAR_READ,
		// _READRESET, _RESET, _START, _STOP, _WRITE and
		// MPI_T_SOURCE_GET_TIMESTAMP. (Other errors, e.g.
		// MPI_T_ERR_PVAR_NO_WRITE on a read-only variable, are not judged.)
		{ID: "CB-17", Source: "MPI-5.0 §15.3.8.2", Basis: rulebook.Normative,
			Text:      "inside a callback MPI_T_pvar_start, _stop, _read, _write, _reset, _readreset and MPI_T_source_get_timestamp never return MPI_T_ERR_NOT_ACCESSIBLE",
			Injectors: []string{"inject_events_in_cb_refused"},
			Exposure:  cb17Exposure.Declared(), Judge: judgeCB17},
		// §15.3.8.6: "MPI_T_EVENT_COPY copies the event data as a whole into
		// the user-provided buffer." §15.3.8.3: "The event data can either be
		// queried element by element with MPI_T_EVENT_READ or copied into a
		// contiguous event buffer with MPI_T_EVENT_COPY": the same data, at the
		// displacements MPI_T_EVENT_GET_INFO gives.
		{ID: "ED-2", Source: "MPI-5.0 §15.3.8.6", Basis: rulebook.Normative,
			Text:      "MPI_T_event_copy in a callback returns MPI_SUCCESS and holds, at each element's displacement, what MPI_T_event_read gives for that element",
			Governs:   []string{"MPI_T_event_copy"},
			Injectors: []string{"inject_events_read_corrupt", "inject_events_query_bad"},
			Exposure:  ed2Exposure.Declared(), Judge: insideJudge("copy")},
		// §15.3.8.7: "The source_index argument returns the index of the
		// source of the event instance": an index of §15.3.8.1's sources, in
		// [0, MPI_T_source_get_num).
		{ID: "ED-7", Source: "MPI-5.0 §15.3.8.7", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_source in a callback returns MPI_SUCCESS and an index below MPI_T_source_get_num",
			Governs:   []string{"MPI_T_event_get_source"},
			Injectors: []string{"inject_events_query_bad"},
			Exposure:  ed7Exposure.Declared(), Judge: insideJudge("source")},
		// §15.3.8.1: "The ordering argument [...] returns whether event
		// callbacks of this source will be invoked in chronological order,
		// i.e., the timestamps reported by MPI_T_EVENT_GET_TIMESTAMP of
		// subsequent events of the same source are monotonically increasing."
		{ID: "ED-5", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "the events of an ordered source reach their callbacks on a rank with non-decreasing timestamps",
			Injectors: []string{"inject_events_instance_ts_back"},
			Exposure:  ed5Exposure.Declared(), Judge: insideJudge("order")},
	},
})

// callbackQuery is one query of its instance a callback made, with its
// return code.
type callbackQuery struct {
	fn string
	rc int
}

// The exposures of insideJudge's rules. Every query made could have
// returned MPI_T_ERR_NOT_ACCESSIBLE or failed, every copy called could
// have differed from the elements read; a copy's guard bytes are judged
// only where it succeeded; a timestamp compared with the fixture's -1 (no
// timestamp) says nothing of the library's clock.
var (
	cb16Exposure = rulebook.Exposure[callbackQuery]{Items: "queries of the instance in callbacks"}
	ed1Exposure  = rulebook.Exposure[callbackQuery]{Items: "MPI_T_event_read calls in callbacks"}
	ed4Exposure  = rulebook.Exposure[callbackQuery]{Items: "MPI_T_event_get_timestamp calls in callbacks"}
	ed3Exposure  = rulebook.Exposure[callbackQuery]{Items: "MPI_T_event_copy calls in callbacks",
		When:  "when the copy succeeded (only then are its guard bytes judged)",
		Could: func(q callbackQuery) bool { return q.rc == 0 }}
	ed6Exposure = rulebook.Exposure[timestampPair]{Items: "instance timestamps compared with their source's",
		When:  "when both timestamps were written (a comparison with the fixture's -1, no timestamp, says nothing of the library's clock)",
		Could: timestampPair.written}
	ed2Exposure = rulebook.Exposure[callbackQuery]{Items: "MPI_T_event_copy calls in callbacks"}
	ed7Exposure = rulebook.Exposure[callbackQuery]{Items: "MPI_T_event_get_source calls in callbacks"}
	ed5Exposure = rulebook.Exposure[timestampPair]{Items: "pairs of successive instance timestamps of an ordered source",
		When:  "when both timestamps were written (a comparison with the fixture's -1, no timestamp, says nothing of the library's clock)",
		Could: timestampPair.written}
)

// insideJudge judges one kind of query in every recorded callback.
func insideJudge(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := needEvents(x)
		if kind == "rc" {
			needNADefined(x, r)
		}
		ordered := map[int]bool{}
		for _, s := range mpi.DecodeRanked[metaSource](metaJob(x).Recs, "source") {
			ordered[s.Index] = s.Ordering == "ordered"
		}
		var bad, ev []string
		n, pairs := 0, 0
		// The items each kind judged: "rc" the queries made, "read" the
		// elements read, "timestamp" and "source" the calls, "copy" and
		// "guard" the copies called, "observed" and "order" the pairs
		// compared.
		var queries []callbackQuery
		var compared []timestampPair
		for _, j := range []*jobOut{r.Probe, r.Deliver} {
			last := map[[2]int]int64{} // (rank, source) -> last timestamp
			for _, c := range mpi.DecodeRanked[cbRec](j.Recs, "cb") {
				n++
				add := func(format string, args ...any) {
					bad = append(bad, fmt.Sprintf(format, args...))
					ev = append(ev, jsonOf([]cbRec{c}))
				}
				switch kind {
				case "rc":
					// MPI_T_event_read of every element, MPI_T_event_copy
					// unless not called (-1: no event type known, -2: no
					// room), _get_timestamp and _get_source.
					for _, rc := range c.ReadRCs {
						queries = append(queries, callbackQuery{"MPI_T_event_read", rc})
					}
					if c.CopyRC != -1 && c.CopyRC != -2 {
						queries = append(queries, callbackQuery{"MPI_T_event_copy", c.CopyRC})
					}
					queries = append(queries, callbackQuery{"MPI_T_event_get_timestamp", c.TsRC}, callbackQuery{"MPI_T_event_get_source", c.SrcRC})
					for _, q := range []string{"read", "copy", "timestamp", "source"} {
						if c.NA[q] {
							add("rank %d: %s inside the callback of %s returned MPI_T_ERR_NOT_ACCESSIBLE", c.Rank, queryName[q], c.Event)
						}
					}
				case "read":
					for e, rc := range c.ReadRCs {
						queries = append(queries, callbackQuery{"MPI_T_event_read", rc})
						if rc != 0 {
							add("rank %d: MPI_T_event_read(%s, element %d) returned %d inside the callback", c.Rank, c.Event, e, rc)
						}
					}
				case "timestamp":
					queries = append(queries, callbackQuery{"MPI_T_event_get_timestamp", c.TsRC})
					if c.TsRC != 0 {
						add("rank %d: MPI_T_event_get_timestamp(%s) returned %d inside the callback", c.Rank, c.Event, c.TsRC)
					}
				case "guard":
					if c.CopyRC == -2 {
						continue // an extent past the fixture's buffer: not copied
					}
					if c.CopyRC != -1 { // -1: no event type known, not called
						queries = append(queries, callbackQuery{"MPI_T_event_copy", c.CopyRC})
					}
					if c.CopyRC == 0 {
						pairs++ // a copy that succeeded: its guard bytes were judged
					}
					if c.CopyRC == 0 && c.GuardAt >= 0 {
						add("rank %d: MPI_T_event_copy(%s) wrote byte %d past the extent %d that MPI_T_event_get_info describes", c.Rank, c.Event, c.GuardAt, c.Extent)
					}
				case "observed":
					if c.TsRC != 0 || c.NowRC != "MPI_SUCCESS" {
						continue
					}
					ts, _ := parseCount(c.Ts)
					now, _ := parseCount(c.Now)
					pairs++
					compared = append(compared, timestampPair{ts, now})
					if ts > now {
						add("rank %d: %s has timestamp %d, later than MPI_T_source_get_timestamp(%d) read after it in the callback, %d", c.Rank, c.Event, ts, c.Src, now)
					}
				case "copy":
					if c.CopyRC != -2 {
						queries = append(queries, callbackQuery{"MPI_T_event_copy", c.CopyRC})
					}
					if c.CopyRC != 0 && c.CopyRC != -2 {
						add("rank %d: MPI_T_event_copy(%s) returned %d inside the callback", c.Rank, c.Event, c.CopyRC)
					}
					if c.CopyRC == 0 && !c.CopyOK {
						add("rank %d: MPI_T_event_copy(%s) does not hold, at each element's displacement, what MPI_T_event_read gave", c.Rank, c.Event)
					}
				case "source":
					queries = append(queries, callbackQuery{"MPI_T_event_get_source", c.SrcRC})
					if c.SrcRC != 0 {
						add("rank %d: MPI_T_event_get_source(%s) returned %d inside the callback", c.Rank, c.Event, c.SrcRC)
					}
					if c.SrcRC == 0 && (c.Src < 0 || c.Src >= r.Sources) {
						add("rank %d: MPI_T_event_get_source(%s) gave %d; MPI_T_source_get_num gives %d", c.Rank, c.Event, c.Src, r.Sources)
					}
				case "order":
					if c.TsRC != 0 || c.SrcRC != 0 || !ordered[c.Src] {
						continue
					}
					ts, _ := parseCount(c.Ts)
					k := [2]int{c.Rank, c.Src}
					if prev, ok := last[k]; ok {
						pairs++
						compared = append(compared, timestampPair{prev, ts})
						if ts < prev {
							add("rank %d: ordered source %d: %s has timestamp %d after an event of the same source with %d", c.Rank, c.Src, c.Event, ts, prev)
						}
					}
					last[k] = ts
				}
			}
		}
		if len(bad) > 0 {
			x.Failf(jsonOf(ev), "%s", verdict.FirstAndMore(bad))
		}
		r.Deliver.placeCrash(x)
		if n == 0 {
			x.Unsupported("not measurable here: no callback ran")
		}
		if kind == "order" && pairs == 0 {
			x.Unsupported("not measurable here: no two callbacks of one ordered source on a rank (%d callbacks)", n)
		}
		if kind == "guard" && pairs == 0 {
			x.Unsupported("not measurable here: no callback's MPI_T_event_copy succeeded on an event type whose extent fits the fixture's buffer (%d callbacks)", n)
		}
		if kind == "observed" && pairs == 0 {
			x.Unsupported("not measurable here: in none of %d callbacks did both MPI_T_event_get_timestamp and MPI_T_source_get_timestamp succeed (%s)", n, nowRCs(r))
		}
		what := map[string]string{"rc": "queried their instance without MPI_T_ERR_NOT_ACCESSIBLE", "read": "read every element", "timestamp": "got their instance's timestamp", "guard": fmt.Sprintf("copied their instance within its extent (%d copies)", pairs), "observed": fmt.Sprintf("had a timestamp not later than their source's current one (%d pairs)", pairs), "copy": "copied what they read", "source": "got a valid source index", "order": fmt.Sprintf("kept their ordered source's timestamps non-decreasing (%d pairs)", pairs)}[kind]
		reason := fmt.Sprintf("%d callbacks %s", n, what)
		if r.Deliver.Problem != "" {
			reason += fmt.Sprintf(" (the callbacks recorded before the delivery job ended: %s, CB-X1)", r.Deliver.Problem)
		}
		switch kind {
		case "rc":
			return cb16Exposure.Pass(queries, "%s", reason)
		case "read":
			return ed1Exposure.Pass(queries, "%s", reason)
		case "timestamp":
			return ed4Exposure.Pass(queries, "%s", reason)
		case "guard":
			return ed3Exposure.Pass(queries, "%s", reason)
		case "observed":
			return ed6Exposure.Pass(compared, "%s", reason)
		case "copy":
			return ed2Exposure.Pass(queries, "%s", reason)
		case "source":
			return ed7Exposure.Pass(queries, "%s", reason)
		}
		return ed5Exposure.Pass(compared, "%s", reason) // order
	}
}

var queryName = map[string]string{"read": "MPI_T_event_read", "copy": "MPI_T_event_copy", "timestamp": "MPI_T_event_get_timestamp", "source": "MPI_T_event_get_source", "source_timestamp": "MPI_T_source_get_timestamp"}

// nowRCs names what MPI_T_source_get_timestamp returned in the callbacks.
func nowRCs(r *eventsRun) string {
	seen := map[string]int{}
	for _, j := range []*jobOut{r.Probe, r.Deliver} {
		for _, c := range mpi.DecodeRanked[cbRec](j.Recs, "cb") {
			seen["MPI_T_source_get_timestamp "+c.NowRC]++
			if c.TsRC != 0 {
				seen[fmt.Sprintf("MPI_T_event_get_timestamp %d", c.TsRC)]++
			}
		}
	}
	var out []string
	for k, v := range seen {
		out = append(out, fmt.Sprintf("%s x%d", k, v))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// cb17Exposure: every call returned a code, and any could have been
// MPI_T_ERR_NOT_ACCESSIBLE.
var cb17Exposure = rulebook.Exposure[libCall]{Items: "calls in callbacks (MPI_T_source_get_timestamp and pvar calls)"}

// judgeCB17 judges MPI_T_source_get_timestamp in every callback and the
// pvar calls of the probe job's cb_pvar sub-phase.
func judgeCB17(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	needNADefined(x, r)
	var bad, ev []string
	var made []libCall
	nts, npv := 0, 0
	for _, j := range []*jobOut{r.Probe, r.Deliver} {
		for _, c := range mpi.DecodeRanked[cbRec](j.Recs, "cb") {
			if c.NowRC == "" || c.NowRC == "not_called" {
				continue
			}
			nts++
			made = append(made, "MPI_T_source_get_timestamp")
			if c.NA["source_timestamp"] {
				bad = append(bad, fmt.Sprintf("rank %d: MPI_T_source_get_timestamp(%d) inside the callback of %s returned MPI_T_ERR_NOT_ACCESSIBLE", c.Rank, c.Src, c.Event))
				ev = append(ev, jsonOf([]cbRec{c}))
			}
		}
	}
	calls := []string{"start", "stop", "read", "write", "reset", "readreset"}
	for _, p := range mpi.DecodeRanked[cbpvarRec](r.Probe.Recs, "cbpvar") {
		npv++
		for _, q := range calls {
			made = append(made, libCall("MPI_T_pvar_"+q))
			if p.NA[q] {
				bad = append(bad, fmt.Sprintf("rank %d: MPI_T_pvar_%s(%s) inside a callback returned MPI_T_ERR_NOT_ACCESSIBLE", p.Rank, q, p.Pvar))
				ev = append(ev, jsonOf([]cbpvarRec{p}))
			}
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, ""), "%s", verdict.FirstAndMore(bad))
	}
	r.Deliver.placeCrash(x)
	if nts == 0 && npv == 0 {
		x.Unsupported("not measurable here: no callback called MPI_T_source_get_timestamp or a pvar call (%s)", pvarChoice(r))
	}
	reason := fmt.Sprintf("%d MPI_T_source_get_timestamp calls in callbacks", nts)
	if npv > 0 {
		var got []string
		for _, p := range mpi.DecodeRanked[cbpvarRec](r.Probe.Recs, "cbpvar") {
			for _, q := range calls {
				got = append(got, q+" "+p.Calls[q])
			}
			reason += fmt.Sprintf("; pvar %s in a callback: %s", p.Pvar, strings.Join(got, ", "))
			break
		}
	} else {
		reason += "; no pvar call (" + pvarChoice(r) + ")"
	}
	return cb17Exposure.Pass(made, "%s: none returned MPI_T_ERR_NOT_ACCESSIBLE", reason)
}

// pvarChoice says which performance variable the probe job chose.
func pvarChoice(r *eventsRun) string {
	for _, p := range mpi.DecodeRanked[pvarRec](r.Probe.Recs, "pvar") {
		if !p.Used {
			return fmt.Sprintf("no usable pvar: index %d %q, session rc %d, handle rc %d, count %d", p.Index, p.Name, p.SessionRC, p.HandleRC, p.Count)
		}
		return fmt.Sprintf("pvar %q", p.Name)
	}
	return "the probe job reached no cb_pvar phase"
}

// needNADefined ends the rule's judgement unsupported when the implementation's mpi.h
// has no MPI_T_ERR_NOT_ACCESSIBLE: no return code can be told to be it.
func needNADefined(x *rulebook.X, r *eventsRun) {
	if !r.NADefined {
		x.Unsupported("not measurable here: mpi.h defines no MPI_T_ERR_NOT_ACCESSIBLE (library MPI %s), so no return code can be that error class", x.Caps.MPIVersion)
	}
}
