package events

import (
	"fmt"

	"github.com/mpits/mpits/harness"
	. "github.com/onsi/gomega"
)

// MPI-4.1 §16.3.8 (Events: MPI_T_event_get_info, MPI_T_event_get_index).
var eventInfo = harness.Define(harness.Check{
	ID:        "EVENTS-INFO-001",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "for every event type, MPI_T_event_get_info succeeds and MPI_T_event_get_index round-trips its name",
	Injectors: []string{"inject_events_index_off"},
	Run:       runEventInfo,
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

func runEventInfo(x *harness.X) harness.Verdict {
	n := x.Caps.AfterInit.Events
	if n < 0 {
		x.Unsupported("no MPI_T events interface: %s (library MPI %s)", x.Caps.AfterInit.Note, x.Caps.MPIVersion)
	}
	if n == 0 {
		x.Unsupported("MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	_, recs := x.Job(harness.Job{Name: "events_event_info", Ranks: 1, Program: x.Fixture("events_event_info")})
	sums, err := harness.DecodeKind[eventSummary](recs, "summary")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(sums).To(HaveLen(1), "summary records")
	x.Expect(sums[0].InitRC).To(BeZero(), "MPI_T_init_thread / MPI_T_event_get_num")
	evs, err := harness.DecodeKind[eventRec](recs, "event")
	x.Expect(err).NotTo(HaveOccurred())
	x.Expect(evs).To(HaveLen(sums[0].Num), "one record per event type")
	for _, e := range evs {
		x.Expect(e.InfoRC).To(BeZero(), "MPI_T_event_get_info(%d)", e.Index)
		x.Expect(e.IndexRC).To(BeZero(), "MPI_T_event_get_index(%q)", e.Name)
		x.Expect(e.Got).To(Equal(e.Index), "MPI_T_event_get_index(%q)", e.Name)
	}
	return harness.Verdict{Reason: fmt.Sprintf("%d event types round-trip", len(evs))}
}
