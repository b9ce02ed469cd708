package events

import (
	"fmt"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Event types, sources and the categories that list events, from one run of
// fixtures/c/events/event_meta.c (MPI-5.0 §15.3.8.1, §15.3.8.3, §15.3.9).
// Each rule's judge (meta_judges.go) judges its own records of the walk.
var metaCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-META-001",
	Needs: "events",
	Title: "event types, sources and the categories listing events describe themselves consistently, and ad-hoc source timestamps do not decrease (or are not supported)",
	Rules: []rulebook.Rule{
		// §15.3.8.3: "This routine returns MPI_SUCCESS on success and returns
		// MPI_T_ERR_INVALID_INDEX if event_index does not match a valid event
		// type index provided by the implementation at the time of the call."
		{ID: "EVT-2", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info with the index one past the last returns MPI_T_ERR_INVALID_INDEX",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  evt2Exposure.Declared(), Judge: judgeEvt2},
		// §15.3.8.3 (MPI_T_EVENT_GET_INFO): the name, the verbosity level (one of
		// §15.3.1's constants) and the binding (§15.3.2) of the event type.
		{ID: "EVT-X2", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "every event type's get_info gives a non-empty name, a verbosity and a binding among the constants, and a number of elements not below 0",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  evtX2Exposure.Declared(), Judge: judgeEvtX2},
		// §15.3.8.3: array_of_datatypes holds "the MPI basic datatypes" of the
		// elements.
		{ID: "EVT-12", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "every element of an event type has a real datatype (not MPI_DATATYPE_NULL, size above 0)",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  evt12Exposure.Declared(), Judge: judgeEvt12},
		// §15.3.8.3: array_of_displacements gives "the byte displacement of each
		// element" in the event's buffer.
		{ID: "EVT-X3", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "element displacements are not negative and no two elements overlap",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  evtX3Exposure.Declared(), Judge: judgeEvtX3},
		// §15.3.8.1: every event instance carries its source; event types imply
		// sources, and MPI_T_SOURCE_GET_INFO answers every index below the count.
		{ID: "SRC-1", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "with event types present there is a source, and MPI_T_source_get_info succeeds for every source index",
			Injectors: []string{"inject_events_source_info_fails"},
			Exposure:  src1Exposure.Declared(), Judge: judgeSrc1},
		// §15.3.8.1: ordering is MPI_T_SOURCE_ORDERED or MPI_T_SOURCE_UNORDERED.
		{ID: "SRC-2", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "every source's ordering is MPI_T_SOURCE_ORDERED or MPI_T_SOURCE_UNORDERED",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  src2Exposure.Declared(), Judge: judgeSrc2},
		// §15.3.8.1: ticks_per_second and max_ticks describe the source's
		// timestamps.
		{ID: "SRC-3", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "every source's ticks per second and maximum ticks are above 0",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  src3Exposure.Declared(), Judge: judgeSrc3},
		// §15.3.8.1: "The call returns MPI_SUCCESS and a current timestamp in the
		// argument timestamp if the source supports ad-hoc generation of
		// timestamps. ... The call returns MPI_T_ERR_NOT_SUPPORTED if the source
		// does not support the ad-hoc generation of timestamps."
		{ID: "SRC-5", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "MPI_T_source_get_timestamp returns MPI_SUCCESS or MPI_T_ERR_NOT_SUPPORTED",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  src5Exposure.Declared(), Judge: judgeSrc5},
		// The same sentence: a current timestamp, so a later call's is not
		// earlier.
		{ID: "SRC-X3", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "two ad-hoc timestamps of one source, one after the other, do not go back",
			Injectors: []string{"inject_events_timestamp_back"},
			Exposure:  srcX3Exposure.Declared(), Judge: judgeSrcX3},
		// §15.3.8.3: "The name of the event type must be unique with respect
		// to all other names for event types used by the MPI implementation."
		{ID: "EVT-5", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "no two event types have the same name",
			Injectors: []string{"inject_events_name_clash"},
			Exposure:  evt5Exposure.Declared(), Judge: judgeEvt5},
		// §15.3.8.3: "For the latter case, the argument
		// array_of_displacements returns an array of byte displacements in the
		// event buffer in ascending order starting with zero." (Two elements
		// at one displacement overlap: EVT-X3's.)
		{ID: "EVT-11", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "an event type's element displacements start at zero and ascend (none below the one before it)",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  evt11Exposure.Declared(), Judge: judgeEvt11},
		// §15.3.8.3: "If the argument to info provided by the user is the
		// NULL pointer, this argument is ignored, otherwise an MPI
		// implementation is required to return all hints that are supported
		// by the implementation for a registration handle for this event type
		// and have default values specified; [...] If no such hints exist, a
		// handle to a newly created info object is returned that contains no
		// key/value pair." ("MPI can optionally return an info object" before
		// it is the optional argument: a NULL info is ignored.)
		{ID: "EVT-13", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info with a non-NULL info argument returns an info object (an empty one when there are no hints), never MPI_INFO_NULL",
			Injectors: []string{"inject_events_out_args"},
			Exposure:  evt13Exposure.Declared(), Judge: judgeEvt13},
		// §15.3.8.1 (MPI_T_SOURCE_GET_INFO): "If the argument to info provided
		// by the user is the NULL pointer, this argument is ignored, otherwise
		// an MPI implementation is required to return all hints that are
		// supported by the implementation for this source and have default
		// values specified; [...] If no such hints exist, a handle to a newly
		// created info object is returned that contains no key/value pair."
		{ID: "SRC-4", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "MPI_T_source_get_info with a non-NULL info argument returns an info object (an empty one when there are no hints), never MPI_INFO_NULL",
			Injectors: []string{"inject_events_out_args"},
			Exposure:  src4Exposure.Declared(), Judge: judgeSrc4},
		// §15.3.9.2: "The index values returned in indices by ...
		// MPI_T_CATEGORY_GET_EVENTS ... can be used as input to ...
		// MPI_T_EVENT_GET_INFO".
		{ID: "CAT-X3", Source: "MPI-5.0 §15.3.9.2", Basis: rulebook.Normative,
			Text:      "MPI_T_category_get_events succeeds and lists valid event type indices, each once",
			Injectors: []string{"inject_events_meta_broken"},
			Exposure:  catX3Exposure.Declared(), Judge: judgeCatX3},
	},
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
	InfoKeys  int      `json:"info_keys"` // -1: MPI_INFO_NULL came back
	SigRC     int      `json:"sig_rc"`
	Sig       string   `json:"sig"` // everything a second call said (event_meta_again.h)
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
	InfoKeys       int      `json:"info_keys"` // -1: MPI_INFO_NULL came back
	Rate           struct {
		RC0  string `json:"rc0"`
		RC1  string `json:"rc1"`
		T0   string `json:"t0"`
		T1   string `json:"t1"`
		LoNs string `json:"lo_ns"`
		HiNs string `json:"hi_ns"`
	} `json:"rate"` // two timestamps 50 ms apart, bracketed by the system clock
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

// metaJob is the meta job of x's implementation: the walks and the items of
// fixtures/c/events/event_meta.c, run again from the item after any the
// process died in (each run once, whichever rule asks first); the records
// of every run together. A death outside the items is an Error.
func metaJob(x *rulebook.X) *jobOut {
	const name = "events_event_meta"
	res := x.LaunchResuming(mpi.Job{Name: name, Ranks: 1, Program: x.Fixture(name)})
	all := &mpi.Records{Fixture: name}
	for _, r := range res.Records {
		all.All = append(all.All, r.All...)
	}
	j := &jobOut{Name: name, Recs: all, Died: res.Items()}
	j.Evidence = fmt.Sprintf("%s: %d run(s)", name, len(res.Records))
	for _, d := range res.Died {
		j.Evidence += fmt.Sprintf("; died in item %d (%s)", d.Item, d.How)
	}
	return j
}

func parseCount(s string) (int64, bool) {
	var v int64
	_, err := fmt.Sscanf(s, "%d", &v)
	return v, err == nil
}
