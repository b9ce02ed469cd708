package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Calls with NULL, short or invalid arguments, and a handle on every event
// type: the items of the meta job (fixtures/c/events/event_meta_args.h),
// each of which the process may die in (the harness runs it again from the
// next). The calls that need no event type (unknown names, invalid source
// indices and handles) are judged wherever the events interface exists.
var callsCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-CALLS",
	Needs: "events",
	Title: "MPI_T_event_get_info takes NULL and short arguments as §15.3.8.3 says, unknown names, invalid source indices and invalid handles are refused with the codes the text names, and every event type gives a handle and a callback",
	Rules: []rulebook.Rule{
		// §15.3.8.3: "If any INOUT or OUT argument to MPI_T_EVENT_GET_INFO is
		// a NULL pointer, the implementation will ignore the argument and not
		// return a value for the specific argument." "This routine returns
		// MPI_SUCCESS on success and returns MPI_T_ERR_INVALID_INDEX if
		// event_index does not match a valid event type index provided by
		// the implementation at the time of the call." A NULL argument is
		// ignored whatever the index: where there is no event type, index 0
		// is refused for its index alone.
		{ID: "EVT-7", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info with any one of its eleven INOUT/OUT arguments NULL (num_elements with both arrays) returns MPI_SUCCESS (MPI_T_ERR_INVALID_INDEX where the index names no event type) and does not crash",
			Injectors: []string{"inject_events_out_args"},
			Exposure:  evt7Exposure.Declared(), Judge: judgeNullArgs},
		// §15.3.8.3: "If the user passes the NULL pointer for num_elements,
		// the arguments num_elements, array_of_datatypes, and
		// array_of_displacements are ignored." (Also asked where there is
		// no event type, of index 0: judged, but such a call, like one on an
		// event type without elements, has no element it could write.)
		{ID: "EVT-8", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info with num_elements NULL writes nothing into the array_of_datatypes and array_of_displacements it is given",
			Injectors: []string{"inject_events_out_args"},
			Exposure:  evt8Exposure.Declared(), Judge: judgeNumNull},
		// §15.3.8.3: "Unless the user passes the NULL pointer for
		// num_elements, the function returns the number of elements required
		// for this event type."
		{ID: "EVT-9", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info with num_elements below the event type's count (0 and count - 1) succeeds and returns the count in num_elements",
			Injectors: []string{"inject_events_out_args"},
			Exposure:  evt9Exposure.Declared(), Judge: shortJudge("count", evt9Exposure)},
		// §15.3.8.3: "If the number of elements used by the event type is
		// larger than the value of num_elements provided by the user, the
		// number of datatype handles and displacements returned in the
		// corresponding arrays is truncated to the value of num_elements
		// passed in by the user."
		{ID: "EVT-10", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_info with num_elements below the event type's count writes no datatype or displacement past the num_elements passed in",
			Injectors: []string{"inject_events_out_args"},
			Exposure:  evt10Exposure.Declared(), Judge: shortJudge("beyond", evt10Exposure)},
		// §15.3.8.3 (MPI_T_EVENT_GET_INDEX): "This routine returns MPI_SUCCESS
		// on success and returns MPI_T_ERR_INVALID_NAME if name does not match
		// the name of any event type provided by the implementation at the
		// time of the call."
		{ID: "EVT-4", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "MPI_T_event_get_index of a name no event type has (an invented one, and a real name with one more character) returns MPI_T_ERR_INVALID_NAME",
			Injectors: []string{"inject_events_unchecked"},
			Exposure:  evt4Exposure.Declared(), Judge: judgeUnknownName},
		// §15.3.8.1 (MPI_T_SOURCE_GET_TIMESTAMP): "The call returns
		// MPI_T_ERR_INVALID_INDEX if the index does not identify a valid
		// source."
		{ID: "SRC-6", Source: "MPI-5.0 §15.3.8.1", Basis: rulebook.Normative,
			Text:      "MPI_T_source_get_timestamp of an index that identifies no source (-1, num_sources, num_sources + 1000) returns MPI_T_ERR_INVALID_INDEX",
			Injectors: []string{"inject_events_unchecked"},
			Exposure:  src6Exposure.Declared(), Judge: badSourceJudge("MPI_T_source_get_timestamp", src6Exposure)},
		// §15.3.10: "The MPI implementation is not required to check all
		// user-provided parameters; if a user passes invalid parameter values
		// to any routine, the behavior of the implementation is undefined."
		// Table 23 names MPI_T_ERR_INVALID_INDEX for the query procedures, but
		// no sentence of §15.3.8.1 requires it of MPI_T_SOURCE_GET_INFO: any
		// error code is acceptable, MPI_SUCCESS or a crash is a quality
		// finding.
		{ID: "SRC-9", Source: "MPI-5.0 §15.3.8.1, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_source_get_info of an index that identifies no source (-1, num_sources, num_sources + 1000) returns an error code (MPI_T_ERR_INVALID_INDEX the one Table 23 names) and does not crash",
			Injectors: []string{"inject_events_unchecked"},
			Exposure:  src9Exposure.Declared(), Judge: badSourceJudge("MPI_T_source_get_info", src9Exposure)},
		// §15.3.8.4: "MPI_T_EVENT_HANDLE_FREE returns MPI_SUCCESS when
		// deallocation of the handle was initiated successfully and returns
		// MPI_T_ERR_INVALID_HANDLE if event_registration does not match a
		// valid allocated event-registration handle at the time of the call."
		{ID: "EH-3", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "MPI_T_event_handle_free of a handle no allocation returned (all bits zero) or of one freed already returns MPI_T_ERR_INVALID_HANDLE and does not crash",
			Injectors: []string{"inject_events_unchecked"},
			Exposure:  eh3Exposure.Declared(), Judge: judgeFreeInvalid},
		// §15.3.8.4: "MPI_T_EVENT_HANDLE_ALLOC creates a registration handle
		// for the event type identified by event_index. Furthermore, if
		// required by the event type, the registration handle is bound to the
		// object referred to by the argument obj_handle."
		// "MPI_T_EVENT_REGISTER_CALLBACK associates a user-defined function
		// pointed to by event_cb_function with an allocated
		// event-registration handle."
		{ID: "EH-1", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "for every event type (one handle at a time, bound to MPI_COMM_WORLD where the type binds communicators) MPI_T_event_handle_alloc and MPI_T_event_register_callback return MPI_SUCCESS",
			Injectors: []string{"inject_events_alloc_refused"},
			Exposure:  eh1Exposure.Declared(), Judge: judgeAllocAll},
	},
})

// The items of event_meta_args.h, by number.
const (
	itemNumNull   = 11 // items 0..10: one NULL argument each
	itemShort     = 12
	itemUnknown   = 13
	itemSourceTS  = 14
	itemSourceInf = 15
	itemAllocAll  = 16
	itemFreeFreed = 17
	itemFreeZero  = 18 // last: a death there ends the job without a rerun
)

var outArgs = []string{"name", "name_len", "verbosity", "array_of_datatypes", "array_of_displacements",
	"num_elements", "enumtype", "info", "desc", "desc_len", "bind"}

// itemsJob is the meta job. Rules that need event types (noTypes false)
// are unsupported without; the others need only the events interface.
func itemsJob(x *rulebook.X, noTypes bool) *jobOut {
	n := x.Caps.AfterInit.Events
	if n == 0 && !noTypes {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	return metaJob(x)
}

// died lists the items of list the job died in, for the rule's problems.
func died(j *jobOut, what func(item int) string, items ...int) []string {
	var out []string
	for _, it := range items {
		if d, ok := j.Died[it]; ok {
			out = append(out, fmt.Sprintf("the process died (%s) in %s", d.How, what(it)))
		}
	}
	return out
}

type nullArgRec struct {
	Item  int    `json:"item"`
	Arg   string `json:"arg"`
	Event int    `json:"event"`
	RC    string `json:"rc"`
}

// eventTypes is the number of event types the meta job's walk counted:
// the fixture asks its NULL-argument items of every index below it, and of
// index 0 where it is 0.
func eventTypes(x *rulebook.X) int { return readMeta(x).sum.Num }

// evt7Exposure: every call with a NULL argument could have returned
// another code.
var evt7Exposure = rulebook.Exposure[nullArgRec]{Items: "MPI_T_event_get_info calls with one argument NULL"}

func judgeNullArgs(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, true)
	num := eventTypes(x)
	items := make([]int, len(outArgs))
	for i := range items {
		items[i] = i
	}
	bad := died(j, func(it int) string {
		return fmt.Sprintf("MPI_T_event_get_info with %s NULL", outArgs[it])
	}, items...)
	recs := mpi.DecodeRanked[nullArgRec](j.Recs, "nullarg")
	valid, invalid := 0, 0
	for _, r := range recs {
		want := "MPI_SUCCESS"
		if r.Event < 0 || r.Event >= num {
			want = "MPI_T_ERR_INVALID_INDEX"
			invalid++
		} else {
			valid++
		}
		if r.RC != want {
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_info(%d) (%d event types) with %s NULL returned %s, not %s", r.Event, num, r.Arg, r.RC, want))
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if len(recs) == 0 {
		x.Unsupported("not measurable here: no MPI_T_event_get_info call with a NULL argument was recorded (%d event types)", num)
	}
	var seen []string
	if valid > 0 {
		seen = append(seen, fmt.Sprintf("%d calls on the %d event types returned MPI_SUCCESS", valid, num))
	}
	if invalid > 0 {
		seen = append(seen, fmt.Sprintf("%d calls on an index that names no event type (%d event types) returned MPI_T_ERR_INVALID_INDEX", invalid, num))
	}
	return evt7Exposure.Pass(recs, "each with one of the %d INOUT/OUT arguments NULL, %s, none crashed", len(outArgs), strings.Join(seen, "; "))
}

type numNullRec struct {
	Event  int    `json:"event"`
	RC     string `json:"rc"`
	Types  int    `json:"types_written"`
	Displs int    `json:"displs_written"`
}

// numNullCall is a call with num_elements NULL, with the number of
// elements of its event type (0 for an index that names none).
type numNullCall struct{ elements int }

// evt8Exposure: an event type without elements has nothing to write into
// the arrays. Nor has a call on an index that names no event type (asked
// where there is none): with num_elements NULL the only length the
// library has for the arrays is an event type's count of elements.
var evt8Exposure = rulebook.Exposure[numNullCall]{Items: "MPI_T_event_get_info calls with num_elements NULL",
	When:  "when on an event type with elements (without, or on an index that names no event type, there is no element it could write)",
	Could: func(c numNullCall) bool { return c.elements > 0 }}

func judgeNumNull(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, true)
	num := eventTypes(x)
	bad := died(j, func(int) string { return "MPI_T_event_get_info with num_elements NULL and both arrays given" }, itemNumNull)
	recs := mpi.DecodeRanked[numNullRec](j.Recs, "numnull")
	// The number of elements of each event type, from the walk.
	elems := map[int]int{}
	for _, e := range mpi.DecodeRanked[metaEvent](j.Recs, "event") {
		if e.RC == 0 {
			elems[e.Index] = e.Num
		}
	}
	withElements, invalid := 0, 0
	var invalidRCs []string
	var calls []numNullCall
	for _, r := range recs {
		c := numNullCall{}
		if r.Event < 0 || r.Event >= num {
			invalid++
			invalidRCs = append(invalidRCs, r.RC)
		} else {
			c.elements = elems[r.Event]
			if c.elements > 0 {
				withElements++
			}
		}
		calls = append(calls, c)
		if r.Types > 0 || r.Displs > 0 {
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_info(%d) with num_elements NULL wrote %d datatypes and %d displacements (returned %s)", r.Event, r.Types, r.Displs, r.RC))
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if len(recs) == 0 {
		x.Unsupported("not measurable here: no MPI_T_event_get_info call with num_elements NULL was recorded (%d event types)", num)
	}
	var seen []string
	if valid := len(recs) - invalid; valid > 0 {
		seen = append(seen, fmt.Sprintf("on %d event types (%d with elements) the arrays were left alone", valid, withElements))
	}
	if invalid > 0 {
		seen = append(seen, fmt.Sprintf("%s on an index that names no event type (%d event types), returning %s, left them alone, with no element it could have written", countOf(invalid, "the call", "%d calls"), num, strings.Join(invalidRCs, ", ")))
	}
	return evt8Exposure.Pass(calls, "with num_elements NULL and both arrays given, %s", strings.Join(seen, "; "))
}

// evt9Exposure, evt10Exposure: every call with num_elements below the
// count could have returned another count, or written past it.
var (
	evt9Exposure  = rulebook.Exposure[shortRec]{Items: "MPI_T_event_get_info calls with num_elements below the count"}
	evt10Exposure = rulebook.Exposure[shortRec]{Items: "MPI_T_event_get_info calls with num_elements below the count"}
)

type shortRec struct {
	Event  int    `json:"event"`
	Count  int    `json:"count"`
	In     int    `json:"in"`
	RC     string `json:"rc"`
	Out    int    `json:"out"`
	Types  int    `json:"types_beyond"`
	Displs int    `json:"displs_beyond"`
}

// shortJudge judges the short-array calls: "count" what num_elements
// returns, "beyond" what was written past it; it passes through exp.
func shortJudge(kind string, exp rulebook.Exposure[shortRec]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		j := itemsJob(x, false)
		var bad []string
		if d, ok := j.Died[itemShort]; ok {
			if kind == "beyond" {
				x.Unsupported("not measurable here: the process died (%s) in MPI_T_event_get_info with num_elements below the count (EVT-9)", d.How)
			}
			bad = append(bad, fmt.Sprintf("the process died (%s) in MPI_T_event_get_info with num_elements below the count", d.How))
		}
		recs := mpi.DecodeRanked[shortRec](j.Recs, "short")
		for _, r := range recs {
			call := fmt.Sprintf("MPI_T_event_get_info(%d) with num_elements %d (count %d)", r.Event, r.In, r.Count)
			switch {
			case kind == "count" && r.RC != "MPI_SUCCESS":
				bad = append(bad, fmt.Sprintf("%s returned %s", call, r.RC))
			case kind == "count" && r.Out != r.Count:
				bad = append(bad, fmt.Sprintf("%s returned num_elements %d", call, r.Out))
			case kind == "beyond" && (r.Types > 0 || r.Displs > 0):
				bad = append(bad, fmt.Sprintf("%s wrote %d datatypes and %d displacements past the %d asked for", call, r.Types, r.Displs, r.In))
			}
		}
		x.FailOn(bad, jsonOf(recs))
		if len(recs) == 0 {
			x.Unsupported("not measurable here: no event type has elements")
		}
		what := map[string]string{"count": "returned the full count", "beyond": "wrote nothing past num_elements"}[kind]
		return exp.Pass(recs, "%d calls with num_elements below the count %s", len(recs), what)
	}
}

type allocRec struct {
	Event      int    `json:"event"`
	Name       string `json:"name"`
	Bind       string `json:"bind"`
	Tried      bool   `json:"tried"`
	AllocRC    string `json:"alloc_rc"`
	RegisterRC string `json:"register_rc"`
}

// eh1Exposure: every event type tried could have refused the handle or
// the callback.
var eh1Exposure = rulebook.Exposure[allocRec]{Items: "event types tried"}

func judgeAllocAll(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, false)
	bad := died(j, func(int) string { return "allocating a handle and registering a callback on every event type" }, itemAllocAll)
	recs := mpi.DecodeRanked[allocRec](j.Recs, "alloc")
	var tried []allocRec
	skipped := 0
	for _, r := range recs {
		switch {
		case !r.Tried:
			skipped++
		case r.AllocRC != "MPI_SUCCESS":
			bad = append(bad, fmt.Sprintf("MPI_T_event_handle_alloc(%q, bound to %s) returned %s", r.Name, r.Bind, r.AllocRC))
		case r.RegisterRC != "MPI_SUCCESS":
			bad = append(bad, fmt.Sprintf("MPI_T_event_register_callback on a handle of %q returned %s", r.Name, r.RegisterRC))
		}
		if r.Tried {
			tried = append(tried, r)
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if len(tried) == 0 {
		x.Unsupported("not measurable here: no event type bound to no object or to a communicator (%d others)", skipped)
	}
	reason := fmt.Sprintf("%d event types gave a handle and took a callback", len(tried))
	if skipped > 0 {
		reason += fmt.Sprintf(" (%d bound to objects the fixture does not make, not tried)", skipped)
	}
	return eh1Exposure.Pass(tried, "%s", reason)
}
