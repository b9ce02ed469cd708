package events

import (
	"fmt"
	"sort"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.8: MPI_T_event_get_num / _get_info (name, verbosity, element
// datatypes and displacements, enumtype, info, description, binding),
// §16.3.8.1 event sources (MPI_T_source_get_num / _get_info: ordering,
// ticks per second, maximum ticks; MPI_T_source_get_timestamp answers a
// timestamp or MPI_T_ERR_NOT_SUPPORTED), §16.3.9 categories
// (MPI_T_category_get_num_events / _get_events).
var metaCheck = harness.Define(harness.Check{
	ID:        "EVENTS-META-001",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "event types, sources and the categories listing events describe themselves consistently, and ad-hoc source timestamps do not decrease (or are not supported)",
	Injectors: []string{"inject_events_timestamp_back"},
	Run:       runMeta,
})

type metaEvent struct {
	Index     int      `json:"index"`
	RC        int      `json:"rc"`
	Name      string   `json:"name"`
	Verbosity string   `json:"verbosity"`
	Num       int      `json:"num_elements"`
	Types     []string `json:"types"`
	Sizes     []int    `json:"sizes"`
	Displs    []int64  `json:"displs"`
	Bind      string   `json:"bind"`
	IndexRC   int      `json:"get_index_rc"`
	GetIndex  int      `json:"get_index"`
}

type metaSource struct {
	Index          int      `json:"index"`
	RC             int      `json:"rc"`
	Name           string   `json:"name"`
	Ordering       string   `json:"ordering"`
	TicksPerSecond string   `json:"ticks_per_second"`
	MaxTicks       string   `json:"max_ticks"`
	Timestamps     []string `json:"timestamps"`
	TimestampRCs   []string `json:"timestamp_rcs"`
}

type metaCategory struct {
	Index       int    `json:"index"`
	Name        string `json:"name"`
	NumRC       int    `json:"num_events_rc"`
	NumEvents   int    `json:"num_events"`
	GetEventsRC int    `json:"get_events_rc"`
	Events      []int  `json:"events"`
}

type metaSummary struct {
	InitRC     int    `json:"init_rc"`
	Num        int    `json:"num"`
	SourcesRC  int    `json:"sources_rc"`
	Sources    int    `json:"sources"`
	OutOfRange string `json:"out_of_range_rc"`
}

func metaJob(x *harness.X) *jobOut {
	j := sharedJob(x, "events_event_meta", 1, nil)
	j.mustBeWhole()
	return j
}

func runMeta(x *harness.X) harness.Verdict {
	if n := x.Caps.AfterInit.Events; n < 0 {
		x.Unsupported("no MPI_T events interface: %s (library MPI %s)", x.Caps.AfterInit.Note, x.Caps.MPIVersion)
	} else if n == 0 {
		x.Unsupported("MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	j := metaJob(x)
	sums := decode[metaSummary](j, "summary")
	if len(sums) != 1 {
		panic(harness.Verdict{Status: harness.Error, Reason: "events_event_meta wrote no summary", Evidence: j.Evidence})
	}
	s := sums[0]
	if s.InitRC != 0 {
		x.Failf(jsonOf(sums), "MPI_T_init_thread / MPI_T_event_get_num returned %d", s.InitRC)
	}
	if s.OutOfRange != "invalid_index" {
		x.Failf(jsonOf(sums), "MPI_T_event_get_info(%d) (one past the last) did not return MPI_T_ERR_INVALID_INDEX", s.Num)
	}
	evs := decode[metaEvent](j, "event")
	if len(evs) != s.Num {
		panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("%d event records for %d events", len(evs), s.Num)})
	}
	for _, e := range evs {
		checkEventInfo(x, e)
	}
	// Every event instance comes from a source: events need sources.
	if s.SourcesRC != 0 || (s.Num > 0 && s.Sources < 1) {
		x.Failf(jsonOf(sums), "%d event types but MPI_T_source_get_num gives %d (rc %d)", s.Num, s.Sources, s.SourcesRC)
	}
	srcs := decode[metaSource](j, "source")
	for _, src := range srcs {
		checkSource(x, src)
	}
	cats := decode[metaCategory](j, "category")
	listed := 0
	for _, c := range cats {
		if c.NumRC != 0 {
			continue // an invalid category index is the MPI_T variables suite's matter
		}
		if c.NumEvents > 0 && c.GetEventsRC != 0 {
			x.Failf(jsonOf([]metaCategory{c}), "MPI_T_category_get_events(%d) returned %d", c.Index, c.GetEventsRC)
		}
		seen := map[int]bool{}
		for _, e := range c.Events {
			if e < 0 || e >= s.Num || seen[e] {
				x.Failf(jsonOf([]metaCategory{c}), "category %q lists event %d: out of range [0,%d) or twice", c.Name, e, s.Num)
			}
			seen[e] = true
		}
		listed += len(c.Events)
	}
	return harness.Verdict{Reason: fmt.Sprintf("%d event types, %d sources, %d category entries consistent", len(evs), len(srcs), listed)}
}

func checkEventInfo(x *harness.X, e metaEvent) {
	ev := jsonOf([]metaEvent{e})
	switch {
	case e.RC != 0:
		x.Failf(ev, "MPI_T_event_get_info(%d) returned %d", e.Index, e.RC)
	case e.Name == "":
		x.Failf(ev, "event %d has an empty name", e.Index)
	case e.Verbosity == "invalid":
		x.Failf(ev, "event %q: verbosity is no MPI_T_VERBOSITY_* constant", e.Name)
	case e.Bind == "invalid":
		x.Failf(ev, "event %q: binding is no MPI_T_BIND_* constant", e.Name)
	case e.Num < 0:
		x.Failf(ev, "event %q: %d elements", e.Name, e.Num)
	case e.IndexRC != 0 || e.GetIndex != e.Index:
		x.Failf(ev, "event %q: MPI_T_event_get_index gives %d (rc %d), not %d", e.Name, e.GetIndex, e.IndexRC, e.Index)
	}
	// Elements: real datatypes at displacements that do not overlap.
	type el struct {
		d    int64
		size int
		i    int
	}
	var els []el
	for i := range e.Types {
		if e.Types[i] == "MPI_DATATYPE_NULL" || e.Sizes[i] <= 0 {
			x.Failf(ev, "event %q: element %d has datatype %s (size %d)", e.Name, i, e.Types[i], e.Sizes[i])
		}
		if e.Displs[i] < 0 {
			x.Failf(ev, "event %q: element %d at displacement %d", e.Name, i, e.Displs[i])
		}
		els = append(els, el{e.Displs[i], e.Sizes[i], i})
	}
	sort.Slice(els, func(a, b int) bool { return els[a].d < els[b].d })
	for i := 1; i < len(els); i++ {
		if els[i-1].d+int64(els[i-1].size) > els[i].d {
			x.Failf(ev, "event %q: elements %d and %d overlap", e.Name, els[i-1].i, els[i].i)
		}
	}
}

func checkSource(x *harness.X, s metaSource) {
	ev := jsonOf([]metaSource{s})
	tps, _ := parseCount(s.TicksPerSecond)
	mt, _ := parseCount(s.MaxTicks)
	switch {
	case s.RC != 0:
		x.Failf(ev, "MPI_T_source_get_info(%d) returned %d", s.Index, s.RC)
	case s.Ordering == "invalid":
		x.Failf(ev, "source %q: ordering is neither MPI_T_SOURCE_ORDERED nor MPI_T_SOURCE_UNORDERED", s.Name)
	case tps <= 0:
		x.Failf(ev, "source %q: %d ticks per second", s.Name, tps)
	case mt <= 0:
		x.Failf(ev, "source %q: maximum ticks %d", s.Name, mt)
	}
	var prev int64 = -1 << 62
	for i, rc := range s.TimestampRCs {
		switch rc {
		case "not_supported":
			continue
		case "success":
		default:
			x.Failf(ev, "source %q: MPI_T_source_get_timestamp returned neither MPI_SUCCESS nor MPI_T_ERR_NOT_SUPPORTED", s.Name)
		}
		t, _ := parseCount(s.Timestamps[i])
		if t < prev {
			x.Failf(ev, "source %q: MPI_T_source_get_timestamp went back from %d to %d between two calls", s.Name, prev, t)
		}
		prev = t
	}
}

func parseCount(s string) (int64, bool) {
	var v int64
	_, err := fmt.Sscanf(s, "%d", &v)
	return v, err == nil
}
