package events

import (
	"fmt"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T_event_get_info and MPI_T_event_get_index for every event type
// (MPI-5.0 §15.3.8.3). The fixture (fixtures/c/events/event_info.c) records
// every event type's calls, so each rule judges its own.
var eventInfo = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-INFO",
	Needs: "events",
	Title: "for every event type, MPI_T_event_get_info succeeds and MPI_T_event_get_index round-trips its name",
	Rules: []rulebook.Rule{
		// §15.3.8.3: "An MPI implementation exports a set of N event types
		// through the MPI tool information interface. If N is zero, then the
		// MPI implementation does not export any event types; otherwise, the
		// provided event types are indexed from 0 to N-1. This index number is
		// used in subsequent calls to identify a specific event type."
		{ID: "EVT-1", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info succeeds for every index below MPI_T_event_get_num",
			Injectors: []string{"inject_events_get_info_fail"},
			Exposure:  evt1Exposure.Declared(), Judge: judgeEvt1},
		// §15.3.8.3: "MPI_T_EVENT_GET_INDEX returns the index of an event type
		// identified by a known event type name."
		{ID: "EVT-3", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_index of an event type's name (as MPI_T_event_get_info gives it) succeeds and returns that event type's index",
			Injectors: []string{"inject_events_index_off"},
			Exposure:  evt3Exposure.Declared(), Judge: judgeEvt3},
	},
})

type eventRec struct {
	Index   int    `json:"index"`
	Name    string `json:"name"`
	InfoRC  int    `json:"info_rc"`
	IndexRC int    `json:"index_rc"`
	Got     int    `json:"got"`
}

type eventSummary struct {
	InitRC int `json:"init_rc"`
	Num    int `json:"num"`
}

// eventInfoRecs runs the fixture once for both rules and returns its event
// records (Error when the job broke or the records do not cover every type).
func eventInfoRecs(x *rulebook.X) []eventRec {
	n := x.Caps.AfterInit.Events
	if n == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	j := sharedJob(x, "events_event_info", 1, nil)
	j.mustBeWhole(x)
	sums := mpi.DecodeRanked[eventSummary](j.Recs, "summary")
	if len(sums) != 1 {
		x.Errorf(j.Evidence, "%d summary records, not 1", len(sums))
	}
	if sums[0].InitRC != 0 {
		x.Errorf(jsonOf(sums), "MPI_T_init_thread / MPI_T_event_get_num returned %d", sums[0].InitRC)
	}
	evs := mpi.DecodeRanked[eventRec](j.Recs, "event")
	if len(evs) != sums[0].Num {
		x.Errorf(j.Evidence, "%d event records for %d event types", len(evs), sums[0].Num)
	}
	if len(evs) == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 in the fixture")
	}
	return evs
}

// evt1Exposure: every index below the count could have been refused.
var evt1Exposure = rulebook.Exposure[eventRec]{Items: "MPI_T_event_get_info calls"}

func judgeEvt1(x *rulebook.X) verdict.Verdict {
	evs := eventInfoRecs(x)
	var bad []string
	for _, e := range evs {
		if e.InfoRC != 0 {
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_info(%d) returned %d (MPI_T_event_get_num gives %d)", e.Index, e.InfoRC, len(evs)))
		}
	}
	if len(bad) > 0 {
		x.Failf(jsonOf(evs), "%s", verdict.FirstAndMore(bad))
	}
	return evt1Exposure.Pass(evs, "MPI_T_event_get_info succeeds for all %d event types", len(evs))
}

// evt3Exposure: every name MPI_T_event_get_info gave could have been
// looked up wrong (the event types without a name are not judged).
var evt3Exposure = rulebook.Exposure[eventRec]{Items: "MPI_T_event_get_index calls"}

func judgeEvt3(x *rulebook.X) verdict.Verdict {
	evs := eventInfoRecs(x)
	var bad []string
	var named []eventRec
	for _, e := range evs {
		if e.InfoRC != 0 {
			continue // no name to look up: EVT-1's matter
		}
		named = append(named, e)
		switch {
		case e.IndexRC != 0:
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_index(%q) returned %d", e.Name, e.IndexRC))
		case e.Got != e.Index:
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_index(%q) gives %d, not %d", e.Name, e.Got, e.Index))
		}
	}
	if len(bad) > 0 {
		x.Failf(jsonOf(evs), "%s", verdict.FirstAndMore(bad))
	}
	if len(named) == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_info gave no event type's name")
	}
	return evt3Exposure.Pass(named, "%d event type names round-trip through MPI_T_event_get_index", len(named))
}
