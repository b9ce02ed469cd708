package events

import (
	"fmt"
	"sort"

	"github.com/mpits/mpits/harness"
)

// Event types, sources and the categories that list events, from one run of
// fixtures/c/events/event_meta.c (MPI-5.0 §15.3.8.1, §15.3.8.3, §15.3.9).
var metaCheck = harness.Define(harness.Check{
	ID:    "EVENTS-META-001",
	Needs: "events",
	Title: "event types, sources and the categories listing events describe themselves consistently, and ad-hoc source timestamps do not decrease (or are not supported)",
	Rules: []harness.Rule{
		// §15.3.8.3: "This routine returns MPI_SUCCESS on success and returns
		// MPI_T_ERR_INVALID_INDEX if event_index does not match a valid event
		// type index provided by the implementation at the time of the call."
		{ID: "EVT-2", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "MPI_T_event_get_info with the index one past the last returns MPI_T_ERR_INVALID_INDEX",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("EVT-2")},
		// §15.3.8.3 (MPI_T_EVENT_GET_INFO): the name, the verbosity level (one of
		// §15.3.1's constants) and the binding (§15.3.2) of the event type.
		{ID: "EVT-X2", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "every event type's get_info gives a non-empty name, a verbosity and a binding among the constants, and a number of elements not below 0",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("EVT-X2")},
		// §15.3.8.3: array_of_datatypes holds "the MPI basic datatypes" of the
		// elements.
		{ID: "EVT-12", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "every element of an event type has a real datatype (not MPI_DATATYPE_NULL, size above 0)",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("EVT-12")},
		// §15.3.8.3: array_of_displacements gives "the byte displacement of each
		// element" in the event's buffer.
		{ID: "EVT-X3", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "element displacements are not negative and no two elements overlap",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("EVT-X3")},
		// §15.3.8.1: every event instance carries its source; event types imply
		// sources, and MPI_T_SOURCE_GET_INFO answers every index below the count.
		{ID: "SRC-1", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "with event types present there is a source, and MPI_T_source_get_info succeeds for every source index",
			Injectors: []string{"inject_events_source_info_fails"}, Judge: metaRule("SRC-1")},
		// §15.3.8.1: ordering is MPI_T_SOURCE_ORDERED or MPI_T_SOURCE_UNORDERED.
		{ID: "SRC-2", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "every source's ordering is MPI_T_SOURCE_ORDERED or MPI_T_SOURCE_UNORDERED",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("SRC-2")},
		// §15.3.8.1: ticks_per_second and max_ticks describe the source's
		// timestamps.
		{ID: "SRC-3", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "every source's ticks per second and maximum ticks are above 0",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("SRC-3")},
		// §15.3.8.1: "The call returns MPI_SUCCESS and a current timestamp in the
		// argument timestamp if the source supports ad-hoc generation of
		// timestamps. ... The call returns MPI_T_ERR_NOT_SUPPORTED if the source
		// does not support the ad-hoc generation of timestamps."
		{ID: "SRC-5", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "MPI_T_source_get_timestamp returns MPI_SUCCESS or MPI_T_ERR_NOT_SUPPORTED",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("SRC-5")},
		// The same sentence: a current timestamp, so a later call's is not
		// earlier.
		{ID: "SRC-X3", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "two ad-hoc timestamps of one source, one after the other, do not go back",
			Injectors: []string{"inject_events_timestamp_back"}, Judge: metaRule("SRC-X3")},
		// §15.3.8.3: "The name of the event type must be unique with respect
		// to all other names for event types used by the MPI implementation."
		{ID: "EVT-5", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "no two event types have the same name",
			Injectors: []string{"inject_events_name_clash"}, Judge: metaRule("EVT-5")},
		// §15.3.8.3: "For the latter case, the argument
		// array_of_displacements returns an array of byte displacements in the
		// event buffer in ascending order starting with zero." (Two elements
		// at one displacement overlap: EVT-X3's.)
		{ID: "EVT-11", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "an event type's element displacements start at zero and ascend (none below the one before it)",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("EVT-11")},
		// §15.3.8.3: "If the argument to info provided by the user is the
		// NULL pointer, this argument is ignored, otherwise an MPI
		// implementation is required to return all hints that are supported
		// by the implementation for a registration handle for this event type
		// and have default values specified; [...] If no such hints exist, a
		// handle to a newly created info object is returned that contains no
		// key/value pair." ("MPI can optionally return an info object" before
		// it is the optional argument: a NULL info is ignored.)
		{ID: "EVT-13", Source: "MPI-5.0 §15.3.8.3", Basis: harness.Normative,
			Text:      "MPI_T_event_get_info with a non-NULL info argument returns an info object (an empty one when there are no hints), never MPI_INFO_NULL",
			Injectors: []string{"inject_events_out_args"}, Judge: metaRule("EVT-13")},
		// §15.3.8.1 (MPI_T_SOURCE_GET_INFO): "If the argument to info provided
		// by the user is the NULL pointer, this argument is ignored, otherwise
		// an MPI implementation is required to return all hints that are
		// supported by the implementation for this source and have default
		// values specified; [...] If no such hints exist, a handle to a newly
		// created info object is returned that contains no key/value pair."
		{ID: "SRC-4", Source: "MPI-5.0 §15.3.8.1", Basis: harness.Normative,
			Text:      "MPI_T_source_get_info with a non-NULL info argument returns an info object (an empty one when there are no hints), never MPI_INFO_NULL",
			Injectors: []string{"inject_events_out_args"}, Judge: metaRule("SRC-4")},
		// §15.3.9.2: "The index values returned in indices by ...
		// MPI_T_CATEGORY_GET_EVENTS ... can be used as input to ...
		// MPI_T_EVENT_GET_INFO".
		{ID: "CAT-X3", Source: "MPI-5.0 §15.3.9.2", Basis: harness.Normative,
			Text:      "MPI_T_category_get_events succeeds and lists valid event type indices, each once",
			Injectors: []string{"inject_events_meta_broken"}, Judge: metaRule("CAT-X3")},
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
func metaJob(x *harness.X) *jobOut {
	const name = "events_event_meta"
	res := x.LaunchResuming(harness.Job{Name: name, Ranks: 1, Program: x.Fixture(name)})
	all := &harness.Records{Fixture: name}
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

// metaRule judges one rule from what runMeta files under it.
func metaRule(rule string) func(x *harness.X) harness.Verdict {
	return func(x *harness.X) harness.Verdict {
		found, reason, j := runMeta(x)
		x.FailOn(found[rule], j.Evidence)
		if why, ok := unmeasured(rule, j); ok {
			x.Unsupported("not measurable here: %s", why)
		}
		return harness.Verdict{Reason: reason}
	}
}

// unmeasured says why a rule of the meta walk had nothing to act on.
func unmeasured(rule string, j *jobOut) (string, bool) {
	evs, srcs := decode[metaEvent](j, "event"), decode[metaSource](j, "source")
	named, elements := 0, 0
	for _, e := range evs {
		if e.RC == 0 {
			named++
			elements += len(e.Displs)
		}
	}
	switch {
	case rule == "EVT-5" && named < 2:
		return fmt.Sprintf("%d event type(s) answer MPI_T_event_get_info: no two names to compare", named), true
	case rule == "EVT-11" && elements == 0:
		return "no event type has elements", true
	case rule == "EVT-13" && named == 0:
		return "no event type answers MPI_T_event_get_info", true
	case rule == "SRC-4" && len(srcs) == 0:
		return "no source", true
	}
	return "", false
}

// runMeta files every problem of the meta job under the rule it breaks.
func runMeta(x *harness.X) (map[string][]string, string, *jobOut) {
	if n := x.Caps.AfterInit.Events; n < 0 {
		x.Unsupported("no MPI_T events interface: %s (library MPI %s)", x.Caps.AfterInit.Note, x.Caps.MPIVersion)
	} else if n == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	j := metaJob(x)
	sums := decode[metaSummary](j, "summary")
	if len(sums) != 1 {
		x.Errorf(j.Evidence, "events_event_meta wrote no summary")
	}
	s := sums[0]
	if s.InitRC != 0 {
		x.Errorf(jsonOf(sums), "MPI_T_init_thread / MPI_T_event_get_num returned %d", s.InitRC)
	}
	found := map[string][]string{}
	add := func(rule, format string, args ...any) {
		found[rule] = append(found[rule], fmt.Sprintf(format, args...))
	}
	if s.OutOfRange != "invalid_index" {
		add("EVT-2", "MPI_T_event_get_info(%d) (one past the last) did not return MPI_T_ERR_INVALID_INDEX (%s)", s.Num, s.OutOfRange)
	}
	evs := decode[metaEvent](j, "event")
	if len(evs) != s.Num {
		x.Errorf(j.Evidence, "%d event records for %d events", len(evs), s.Num)
	}
	names := map[string]int{}
	for _, e := range evs {
		checkEventInfo(e, add)
		if e.RC != 0 {
			continue
		}
		if first, ok := names[e.Name]; ok {
			add("EVT-5", "event types %d and %d are both named %q", first, e.Index, e.Name)
		} else {
			names[e.Name] = e.Index
		}
	}
	if s.SourcesRC != 0 || (s.Num > 0 && s.Sources < 1) {
		add("SRC-1", "%d event types but MPI_T_source_get_num gives %d (rc %d)", s.Num, s.Sources, s.SourcesRC)
	}
	srcs := decode[metaSource](j, "source")
	for _, src := range srcs {
		checkSource(src, add)
	}
	cats := decode[metaCategory](j, "category")
	listed := 0
	for _, c := range cats {
		if c.NumRC != 0 {
			continue // an invalid category index is the MPI_T variables suite's matter
		}
		if c.NumEvents > 0 && c.GetEventsRC != 0 {
			add("CAT-X3", "MPI_T_category_get_events(%d) returned %d", c.Index, c.GetEventsRC)
		}
		seen := map[int]bool{}
		for _, e := range c.Events {
			if e < 0 || e >= s.Num || seen[e] {
				add("CAT-X3", "category %q lists event %d: out of range [0,%d) or twice", c.Name, e, s.Num)
			}
			seen[e] = true
		}
		listed += len(c.Events)
	}
	return found, fmt.Sprintf("%d event types, %d sources, %d category entries consistent", len(evs), len(srcs), listed), j
}

func checkEventInfo(e metaEvent, add func(rule, format string, args ...any)) {
	if e.RC != 0 {
		return // every index answering get_info is EVT-1's
	}
	if e.InfoKeys < 0 {
		add("EVT-13", "event %d (%q): MPI_T_event_get_info with a non-NULL info returned MPI_SUCCESS and MPI_INFO_NULL, not an info object", e.Index, e.Name)
	}
	for i, d := range e.Displs {
		switch {
		case i == 0 && d != 0:
			add("EVT-11", "event %q: the first element is at displacement %d, not 0", e.Name, d)
		case i > 0 && d < e.Displs[i-1]:
			add("EVT-11", "event %q: element %d at displacement %d, below element %d's %d", e.Name, i, d, i-1, e.Displs[i-1])
		}
	}
	switch {
	case e.Name == "":
		add("EVT-X2", "event %d has an empty name", e.Index)
	case e.Verbosity == "invalid":
		add("EVT-X2", "event %q: verbosity is no MPI_T_VERBOSITY_* constant", e.Name)
	case e.Bind == "invalid":
		add("EVT-X2", "event %q: binding is no MPI_T_BIND_* constant", e.Name)
	case e.Num < 0:
		add("EVT-X2", "event %q: %d elements", e.Name, e.Num)
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
			add("EVT-12", "event %q: element %d has datatype %s (size %d)", e.Name, i, e.Types[i], e.Sizes[i])
		}
		if e.Displs[i] < 0 {
			add("EVT-X3", "event %q: element %d at displacement %d", e.Name, i, e.Displs[i])
		}
		els = append(els, el{e.Displs[i], e.Sizes[i], i})
	}
	sort.Slice(els, func(a, b int) bool { return els[a].d < els[b].d })
	for i := 1; i < len(els); i++ {
		if els[i-1].d+int64(els[i-1].size) > els[i].d {
			add("EVT-X3", "event %q: elements %d and %d overlap", e.Name, els[i-1].i, els[i].i)
		}
	}
}

func checkSource(s metaSource, add func(rule, format string, args ...any)) {
	tps, _ := parseCount(s.TicksPerSecond)
	mt, _ := parseCount(s.MaxTicks)
	if s.RC != 0 {
		add("SRC-1", "MPI_T_source_get_info(%d) returned %d", s.Index, s.RC)
		return
	}
	if s.InfoKeys < 0 {
		add("SRC-4", "source %d (%q): MPI_T_source_get_info with a non-NULL info returned MPI_SUCCESS and MPI_INFO_NULL, not an info object", s.Index, s.Name)
	}
	if s.Ordering == "invalid" {
		add("SRC-2", "source %q: ordering is neither MPI_T_SOURCE_ORDERED nor MPI_T_SOURCE_UNORDERED", s.Name)
	}
	if tps <= 0 || mt <= 0 {
		add("SRC-3", "source %q: %d ticks per second, maximum ticks %d", s.Name, tps, mt)
	}
	var prev int64 = -1 << 62
	for i, rc := range s.TimestampRCs {
		switch rc {
		case "not_supported":
			continue
		case "success":
		default:
			add("SRC-5", "source %q: MPI_T_source_get_timestamp returned neither MPI_SUCCESS nor MPI_T_ERR_NOT_SUPPORTED", s.Name)
			continue
		}
		t, _ := parseCount(s.Timestamps[i])
		if t < prev {
			add("SRC-X3", "source %q: MPI_T_source_get_timestamp went back from %d to %d between two calls", s.Name, prev, t)
		}
		prev = t
	}
}

func parseCount(s string) (int64, bool) {
	var v int64
	_, err := fmt.Sscanf(s, "%d", &v)
	return v, err == nil
}
