package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

type handlesRec struct {
	Phase   int `json:"phase"`
	Freed   int `json:"freed_slot"`
	Witness int `json:"witness_slot"`
	Rank    int `json:"-"`
}

type freeRec struct {
	Seq   int `json:"seq"`
	Phase int `json:"phase"`
	RC    int `json:"rc"`
}

type infoRec struct {
	RegisterRC    int    `json:"register_rc"`
	HandleSetRC   int    `json:"handle_set_rc"`
	HandleGetRC   int    `json:"handle_get_rc"`
	HandleInfo    string `json:"handle_info"`
	HandleHint    string `json:"handle_hint"`
	CallbackSetRC int    `json:"callback_set_rc"`
	CallbackGetRC int    `json:"callback_get_rc"`
	CallbackInfo  string `json:"callback_info"`
	CallbackHint  string `json:"callback_hint"`
}

// MPI-4.1 §16.3.8 (MPI_T_event_handle_alloc: a handle for an event type
// bound to an MPI object receives the events of that object only;
// MPI_T_event_handle_free: no callback of the handle runs once it is freed,
// and free_cb_function is called once, with the handle and the user_data
// given to MPI_T_event_handle_free).
var handleCheck = harness.Define(harness.Check{
	ID:        "EVENTS-HANDLE-001",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "a handle bound to an object gets that object's events only; MPI_T_event_handle_free stops delivery to the handle (not to another on the same event) and calls its free callback once",
	Injectors: []string{"inject_events_free_keeps_delivering", "inject_events_cb_twice"},
	Run:       runHandle,
})

// MPI-4.1 §16.3.8 (MPI_T_event_handle_set_info / _get_info,
// MPI_T_event_callback_set_info / _get_info: get_info "returns a new info
// object containing the hints" of the handle or callback; hints may be
// ignored, so a hint set need not come back, but what comes back is a new
// info object the caller frees).
var infoCheck = harness.Define(harness.Check{
	ID:        "EVENTS-HANDLE-002",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "MPI_T_event_handle_set_info/_get_info and MPI_T_event_callback_set_info/_get_info succeed, and get_info returns a new info object (a hint that comes back keeps its value)",
	Injectors: []string{"inject_events_info_null"},
	Run:       runInfo,
})

func runHandle(x *harness.X) harness.Verdict {
	r := needEvents(x)
	views := probeViews(x, r)
	hs := decode[handlesRec](r.Probe, "handles")
	frees := decode[freeRec](r.Probe, "free")
	for _, v := range views {
		var h *handlesRec
		for i := range hs {
			if hs[i].Rank == v.rank {
				h = &hs[i]
			}
		}
		if h == nil {
			panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("rank %d recorded no handles", v.rank)})
		}
		k := v.pr.Probe.K
		count := func(sub string, slot int) (n int) {
			for _, c := range v.cbs[sub] {
				if c.Slot == slot {
					n++
				}
			}
			return n
		}
		ev := jsonOf(v.cbs["h_before"]) + jsonOf(v.cbs["h_after"]) + jsonOf(v.frees)
		switch {
		case count("h_before", h.Freed) != k || count("h_before", h.Witness) != k:
			x.Failf(ev, "rank %d: before the free, %d instances reached the two handles %d and %d times", v.rank, k, count("h_before", h.Freed), count("h_before", h.Witness))
		case count("h_after", h.Freed) != 0:
			x.Failf(ev, "rank %d: %d callbacks of a handle after MPI_T_event_handle_free returned", v.rank, count("h_after", h.Freed))
		case count("h_after", h.Witness) != k:
			x.Failf(ev, "rank %d: after freeing one handle, the other handle on the event got %d of %d instances", v.rank, count("h_after", h.Witness), k)
		case len(v.frees) != 1:
			x.Failf(ev, "rank %d: the free callback ran %d times, not once", v.rank, len(v.frees))
		case !v.frees[0].HandleOK || !v.frees[0].UserOK:
			x.Failf(ev, "rank %d: the free callback got another handle (%v) or user_data (%v) than the freed handle and the user_data given to MPI_T_event_handle_free", v.rank, v.frees[0].HandleOK, v.frees[0].UserOK)
		}
	}
	for _, f := range frees {
		if f.RC != 0 {
			x.Failf(jsonOf(frees), "MPI_T_event_handle_free returned %d", f.RC)
		}
	}
	// Bound event types: the delivery job names the object in every action
	// and renames another between, which a bound handle must not see.
	d := r.Deliver
	phases := decode[phaseRec](d, "phase")
	var bound []string
	for _, pr := range r.Profiles {
		for _, ph := range pr.Phases {
			for _, p := range phases {
				if p.Action == ph.Action && p.Present && p.Rank == 0 && !strings.Contains(strings.Join(p.Binds, ","), "no_object") {
					if checkPhase(x, ph, "deliver", phases, decode[cbRec](d, "cb"), decode[factRec](d, "fact"), d) > 0 {
						bound = append(bound, fmt.Sprintf("%s (bound to %s)", ph.Events[0].Name, p.Binds[0]))
					}
				}
			}
		}
	}
	reason := fmt.Sprintf("a freed handle got nothing more while another got all %d; free callback once", r.Profiles[0].Probe.K)
	if len(bound) > 0 {
		reason += "; bound handles saw only their object: " + strings.Join(bound, ", ")
	} else {
		reason += "; no bound event type to check"
	}
	return harness.Verdict{Reason: reason}
}

func runInfo(x *harness.X) harness.Verdict {
	r := needEvents(x)
	infos := decode[infoRec](r.Probe, "info")
	if len(infos) == 0 {
		panic(harness.Verdict{Status: harness.Error, Reason: "the probe job recorded no info round trip", Evidence: r.Probe.Evidence})
	}
	for _, in := range infos {
		ev := jsonOf([]infoRec{in})
		switch {
		case in.RegisterRC != 0:
			panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("MPI_T_event_register_callback returned %d", in.RegisterRC), Evidence: ev})
		case in.HandleSetRC != 0:
			x.Failf(ev, "MPI_T_event_handle_set_info returned %d", in.HandleSetRC)
		case in.HandleGetRC != 0:
			x.Failf(ev, "MPI_T_event_handle_get_info returned %d", in.HandleGetRC)
		case in.HandleInfo != "object":
			x.Failf(ev, "MPI_T_event_handle_get_info returned MPI_INFO_NULL, not a new info object")
		case in.CallbackSetRC != 0:
			x.Failf(ev, "MPI_T_event_callback_set_info returned %d", in.CallbackSetRC)
		case in.CallbackGetRC != 0:
			x.Failf(ev, "MPI_T_event_callback_get_info returned %d", in.CallbackGetRC)
		case in.CallbackInfo != "object":
			x.Failf(ev, "MPI_T_event_callback_get_info returned MPI_INFO_NULL, not a new info object")
		case in.HandleHint != "" && in.HandleHint != "1", in.CallbackHint != "" && in.CallbackHint != "1":
			x.Failf(ev, "a hint came back with another value than was set")
		}
	}
	kept := "ignored"
	if infos[0].HandleHint == "1" {
		kept = "kept"
	}
	return harness.Verdict{Reason: fmt.Sprintf("handle and callback info set/get succeed and return new info objects (the hint was %s)", kept)}
}
