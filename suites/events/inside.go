package events

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.8 ("Reading Event Data", "Event Meta Data"): inside the
// callback the event instance handle is valid, and MPI_T_event_read (one
// element), MPI_T_event_copy (all data, laid out by the displacements),
// MPI_T_event_get_timestamp and MPI_T_event_get_source (an index of an
// event source) query it; an ordered source (MPI_T_SOURCE_ORDERED) delivers
// its events with non-decreasing timestamps.
var insideCheck = harness.Define(harness.Check{
	ID:        "EVENTS-INSIDE-001",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "inside every callback MPI_T_event_read, _copy (equal to the elements read), _get_timestamp (non-decreasing for an ordered source) and _get_source (a valid index) succeed",
	Injectors: []string{"inject_events_read_corrupt"},
	Run:       runInside,
})

func runInside(x *harness.X) harness.Verdict {
	r := needEvents(x)
	ordered := map[int]bool{}
	for _, s := range decode[metaSource](metaJob(x), "source") {
		ordered[s.Index] = s.Ordering == "ordered"
	}
	n := 0
	for _, j := range []*jobOut{r.Probe, r.Deliver} {
		cbs := decode[cbRec](j, "cb")
		last := map[[2]int]int64{} // (rank, source) -> last timestamp
		for _, c := range cbs {
			ev := jsonOf([]cbRec{c})
			for e, rc := range c.ReadRCs {
				if rc != 0 {
					x.Failf(ev, "rank %d: MPI_T_event_read(%s, element %d) returned %d inside the callback", c.Rank, c.Event, e, rc)
				}
			}
			switch {
			case c.CopyRC != 0:
				x.Failf(ev, "rank %d: MPI_T_event_copy(%s) returned %d inside the callback", c.Rank, c.Event, c.CopyRC)
			case !c.CopyOK:
				x.Failf(ev, "rank %d: MPI_T_event_copy(%s) does not hold, at each element's displacement, what MPI_T_event_read gave", c.Rank, c.Event)
			case c.TsRC != 0:
				x.Failf(ev, "rank %d: MPI_T_event_get_timestamp(%s) returned %d inside the callback", c.Rank, c.Event, c.TsRC)
			case c.SrcRC != 0:
				x.Failf(ev, "rank %d: MPI_T_event_get_source(%s) returned %d inside the callback", c.Rank, c.Event, c.SrcRC)
			case c.Src < 0 || c.Src >= r.Sources:
				x.Failf(ev, "rank %d: MPI_T_event_get_source(%s) gave %d; MPI_T_source_get_num gives %d", c.Rank, c.Event, c.Src, r.Sources)
			}
			ts, _ := parseCount(c.Ts)
			k := [2]int{c.Rank, c.Src}
			if prev, ok := last[k]; ok && ordered[c.Src] && ts < prev {
				x.Failf(ev, "rank %d: ordered source %d: %s has timestamp %d after an event of the same source with %d", c.Rank, c.Src, c.Event, ts, prev)
			}
			last[k] = ts
			n++
		}
	}
	if c := crashInCallback(r.Deliver); c != "" {
		x.Failf(r.Deliver.Evidence, "%s", c)
	}
	r.Deliver.mustBeWhole()
	return harness.Verdict{Reason: fmt.Sprintf("%d callbacks read, copied, timestamped and sourced their instance", n)}
}
