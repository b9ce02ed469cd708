package events

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// Inside every callback of the probe and delivery jobs the fixture calls
// MPI_T_event_read (every element), MPI_T_event_copy, MPI_T_event_get_timestamp
// and MPI_T_event_get_source and records each result, so each rule judges its
// own calls. A crash inside a callback is CB-X1's (deliver.go): these rules
// judge the callbacks recorded before it.
var insideCheck = harness.Define(harness.Check{
	ID:    "EVENTS-INSIDE-001",
	Needs: "events",
	Title: "inside every callback MPI_T_event_read, _copy (equal to the elements read), _get_timestamp (non-decreasing for an ordered source) and _get_source (a valid index) succeed",
	Rules: []harness.Rule{
		// §15.3.8.6 (MPI_T_EVENT_READ, _COPY, _GET_TIMESTAMP, _GET_SOURCE
		// take "event_instance: event-instance handle provided to the callback
		// function"), and §15.3.8.2 (Table 22) allows them at every callback
		// safety level.
		{ID: "CB-16", Source: "MPI-5.0 §15.3.8.2, §15.3.8.6", Basis: harness.Normative,
			Text:      "inside a callback MPI_T_event_read (every element), _copy, _get_timestamp and _get_source on the instance return MPI_SUCCESS",
			Injectors: []string{"inject_events_query_bad"}, Judge: insideJudge("rc")},
		// §15.3.8.6: "MPI_T_EVENT_COPY copies the event data as a whole into
		// the user-provided buffer." §15.3.8.3: "The event data can either be
		// queried element by element with MPI_T_EVENT_READ or copied into a
		// contiguous event buffer with MPI_T_EVENT_COPY": the same data, at the
		// displacements MPI_T_EVENT_GET_INFO gives.
		{ID: "ED-2", Source: "MPI-5.0 §15.3.8.6", Basis: harness.Normative,
			Text:      "MPI_T_event_copy holds, at each element's displacement, what MPI_T_event_read gives for that element",
			Injectors: []string{"inject_events_read_corrupt"}, Judge: insideJudge("copy")},
		// §15.3.8.7: "The source_index argument returns the index of the
		// source of the event instance": an index of §15.3.8.1's sources, in
		// [0, MPI_T_source_get_num).
		{ID: "ED-7", Source: "MPI-5.0 §15.3.8.7", Basis: harness.Normative,
			Text:      "MPI_T_event_get_source in a callback gives an index below MPI_T_source_get_num",
			Injectors: []string{"inject_events_query_bad"}, Judge: insideJudge("source")},
		// §15.3.8.1: "The ordering argument [...] returns whether event
		// callbacks of this source will be invoked in chronological order,
		// i.e., the timestamps reported by MPI_T_EVENT_GET_TIMESTAMP of
		// subsequent events of the same source are monotonically increasing."
		{ID: "ED-5", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "the events of an ordered source reach their callbacks on a rank with non-decreasing timestamps",
			Injectors: []string{"inject_events_instance_ts_back"}, Judge: insideJudge("order")},
	},
})

// insideJudge judges one kind of query in every recorded callback.
func insideJudge(kind string) func(x *harness.X) harness.Verdict {
	return func(x *harness.X) harness.Verdict {
		r := needEvents(x)
		ordered := map[int]bool{}
		for _, s := range decode[metaSource](metaJob(x), "source") {
			ordered[s.Index] = s.Ordering == "ordered"
		}
		var bad, ev []string
		n, pairs := 0, 0
		for _, j := range []*jobOut{r.Probe, r.Deliver} {
			last := map[[2]int]int64{} // (rank, source) -> last timestamp
			for _, c := range decode[cbRec](j, "cb") {
				n++
				add := func(format string, args ...any) {
					bad = append(bad, fmt.Sprintf(format, args...))
					ev = append(ev, jsonOf([]cbRec{c}))
				}
				switch kind {
				case "rc":
					for e, rc := range c.ReadRCs {
						if rc != 0 {
							add("rank %d: MPI_T_event_read(%s, element %d) returned %d inside the callback", c.Rank, c.Event, e, rc)
						}
					}
					if c.CopyRC != 0 {
						add("rank %d: MPI_T_event_copy(%s) returned %d inside the callback", c.Rank, c.Event, c.CopyRC)
					}
					if c.TsRC != 0 {
						add("rank %d: MPI_T_event_get_timestamp(%s) returned %d inside the callback", c.Rank, c.Event, c.TsRC)
					}
					if c.SrcRC != 0 {
						add("rank %d: MPI_T_event_get_source(%s) returned %d inside the callback", c.Rank, c.Event, c.SrcRC)
					}
				case "copy":
					if c.CopyRC == 0 && !c.CopyOK {
						add("rank %d: MPI_T_event_copy(%s) does not hold, at each element's displacement, what MPI_T_event_read gave", c.Rank, c.Event)
					}
				case "source":
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
						if ts < prev {
							add("rank %d: ordered source %d: %s has timestamp %d after an event of the same source with %d", c.Rank, c.Src, c.Event, ts, prev)
						}
					}
					last[k] = ts
				}
			}
		}
		if len(bad) > 0 {
			x.Failf(jsonOf(ev), "%s", firstAndMore(bad))
		}
		if n == 0 {
			x.Unsupported("not measurable here: no callback ran")
		}
		if kind == "order" && pairs == 0 {
			x.Unsupported("not measurable here: no two callbacks of one ordered source on a rank (%d callbacks)", n)
		}
		what := map[string]string{"rc": "read, copied, timestamped and sourced their instance", "copy": "copied what they read", "source": "got a valid source index", "order": fmt.Sprintf("kept their ordered source's timestamps non-decreasing (%d pairs)", pairs)}[kind]
		reason := fmt.Sprintf("%d callbacks %s", n, what)
		if r.Deliver.Problem != "" {
			reason += fmt.Sprintf(" (the callbacks recorded before the delivery job ended: %s, CB-X1)", r.Deliver.Problem)
		}
		return harness.Verdict{Reason: reason}
	}
}
