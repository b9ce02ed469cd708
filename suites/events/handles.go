package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

type handlesRec struct {
	Phase   int `json:"phase"`
	Freed   int `json:"freed_slot"`
	Witness int `json:"witness_slot"`
	mpi.FromRank
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

// MPI_T_event_handle_alloc / _free (MPI-5.0 §15.3.8.4). The probe job
// registers two handles on the probe event, frees one between two rounds of
// K instances and records every callback, free result and free callback;
// the delivery job names the bound object in every action. Each rule judges
// its own records.
var handleCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-HANDLE-001",
	Needs: "events",
	Title: "a handle bound to an object gets that object's events only; MPI_T_event_handle_free stops delivery to the handle (not to another on the same event) and calls its free callback once",
	Rules: []rulebook.Rule{
		// §15.3.8.4 (MPI_T_EVENT_HANDLE_FREE): "The callback function
		// free_cb_function is called by the MPI implementation, when it is able
		// to guarantee that no further event instances for the corresponding
		// event-registration handle will be raised." The suite reads it as: no
		// instance reaches a handle after its free returns; other handles on
		// the same event type are not affected, and before the free each
		// handle gets every instance.
		{ID: "EH-4", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "two handles on one event each get every instance; after MPI_T_event_handle_free of one, it gets none while the other still gets every instance",
			Injectors: []string{"inject_events_free_keeps_delivering", "inject_events_cb_twice"},
			Exposure:  eh4Exposure.Declared(), Judge: judgeHandleDelivery},
		// §15.3.8.4: MPI_T_EVENT_HANDLE_FREE of a valid handle returns
		// MPI_SUCCESS (the error classes of §15.3.10 are for invalid handles).
		{ID: "EH-2", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "MPI_T_event_handle_free of a valid handle returns MPI_SUCCESS",
			Injectors: []string{"inject_events_free_bad"},
			Exposure:  eh2Exposure.Declared(), Judge: judgeHandleFreeRC},
		// §15.3.8.4: "The callback function free_cb_function is called by the
		// MPI implementation, when it is able to guarantee that no further
		// event instances for the corresponding event-registration handle will
		// be raised." "The pointer to user-controlled memory provided in the
		// user_data argument will be passed to the function provided in the
		// free_cb_function on invocation."
		{ID: "EH-5", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "free_cb_function is called once, with the freed handle and the user_data given to MPI_T_event_handle_free",
			Injectors: []string{"inject_events_free_bad"},
			Exposure:  eh5Exposure.Declared(), Judge: judgeFreeCallback},
		// §15.3.8.4: "The handle can be used to identify the specific event
		// registration information, such as event type and bound object, or
		// even to deallocate the handle from within the callback invocation."
		// (MPI_T_event_handle_free is not in Table 22: §15.3.8.2 lets it return
		// MPI_T_ERR_NOT_ACCESSIBLE, which leaves this unmeasurable.)
		{ID: "CB-15", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "a callback that calls MPI_T_event_handle_free on its own registration handle gets MPI_SUCCESS, and the handle gets none of the instances raised after that callback (MPI_T_ERR_NOT_ACCESSIBLE, which §15.3.8.2 allows, leaves it unmeasured)",
			Injectors: []string{"inject_events_in_cb_refused"},
			Exposure:  cb15Exposure.Declared(), Judge: judgeSelfFree},
		// §15.3.8.4: "typedef void MPI_T_event_free_cb_function(
		// MPI_T_event_registration event_registration, MPI_T_cb_safety
		// cb_safety, void *user_data);" with §15.3.8.2: "The MPI
		// implementation provides the safety requirement as an argument to the
		// callback when it is invoked." (Table 21's levels.)
		{ID: "EH-6", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "free_cb_function is invoked with a cb_safety that is one of the four levels of Table 21",
			Injectors: []string{"inject_events_cb_wrong_identity"},
			Exposure:  eh6Exposure.Declared(), Judge: judgeFreeSafety},
		// §15.3.8.4 (MPI_T_EVENT_HANDLE_ALLOC): "Furthermore, if required by
		// the event type, the registration handle is bound to the object
		// referred to by the argument obj_handle.": a bound handle receives the
		// events of that object only.
		{ID: "CB-12", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "a handle bound to an object receives that object's events only (each action on it once, none from another object)",
			Injectors: []string{"inject_events_cb_twice"},
			Exposure:  cb12Exposure.Declared(), Judge: judgeBound},
	},
})

// handleViews is the probe job's observing ranks with their two handles.
func handleViews(x *rulebook.X) (*eventsRun, []probeView, map[int]handlesRec) {
	r := needEvents(x)
	views := probeRecords(x, r)
	hs := map[int]handlesRec{}
	for _, h := range mpi.DecodeRanked[handlesRec](r.Probe.Recs, "handles") {
		hs[h.Rank] = h
	}
	for _, v := range views {
		if _, ok := hs[v.rank]; !ok {
			x.Errorf("", "rank %d recorded no handles", v.rank)
		}
	}
	return r, views, hs
}

// eh4Exposure: every instance, before the free and after, could have
// missed a handle or reached the freed one.
var eh4Exposure = rulebook.Exposure[raisedInstance]{Items: "instances (each counted at both handles)"}

func judgeHandleDelivery(x *rulebook.X) verdict.Verdict {
	r, views, hs := handleViews(x)
	var bad, ev []string
	var raised []raisedInstance // on the observing ranks, before and after the free
	for _, v := range views {
		h := hs[v.rank]
		k := v.pr.Probe.K
		raised = append(raised, v.raised(2*k)...)
		count := func(sub string, slot int) (n int) {
			for _, c := range v.cbs[sub] {
				if c.Slot == slot {
					n++
				}
			}
			return n
		}
		e := jsonOf(v.cbs["h_before"]) + jsonOf(v.cbs["h_after"])
		if count("h_before", h.Freed) != k || count("h_before", h.Witness) != k {
			bad = append(bad, fmt.Sprintf("rank %d: before the free, %d instances reached the two handles %d and %d times", v.rank, k, count("h_before", h.Freed), count("h_before", h.Witness)))
			ev = append(ev, e)
		}
		if n := count("h_after", h.Freed); n != 0 {
			bad = append(bad, fmt.Sprintf("rank %d: %d callbacks of a handle after MPI_T_event_handle_free returned", v.rank, n))
			ev = append(ev, e)
		}
		if n := count("h_after", h.Witness); n != k {
			bad = append(bad, fmt.Sprintf("rank %d: after freeing one handle, the other handle on the event got %d of %d instances", v.rank, n, k))
			ev = append(ev, e)
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	return eh4Exposure.Pass(raised, "both handles got all %d before the free; the freed one got nothing more while the other got all %d", r.Profiles[0].Probe.K, r.Profiles[0].Probe.K)
}

// eh2Exposure: every free of a valid handle could have been refused.
var eh2Exposure = rulebook.Exposure[freeRec]{Items: "MPI_T_event_handle_free calls"}

func judgeHandleFreeRC(x *rulebook.X) verdict.Verdict {
	r, _, _ := handleViews(x)
	frees := mpi.DecodeRanked[freeRec](r.Probe.Recs, "free")
	var bad []string
	for _, f := range frees {
		if f.RC != 0 {
			bad = append(bad, fmt.Sprintf("MPI_T_event_handle_free returned %d", f.RC))
		}
	}
	for _, e := range r.Probe.errors() {
		if e.What == "MPI_T_event_handle_free" {
			bad = append(bad, fmt.Sprintf("rank %d: MPI_T_event_handle_free returned %d", e.Rank, e.RC))
		}
	}
	if len(bad) > 0 {
		x.Failf(jsonOf(frees), "%s", verdict.FirstAndMore(bad))
	}
	if len(frees) == 0 {
		x.Unsupported("not measurable here: the probe job freed no handle")
	}
	return eh2Exposure.Pass(frees, "%d MPI_T_event_handle_free calls returned MPI_SUCCESS", len(frees))
}

// eh5Exposure: on every observing rank the free callback could have run
// other than once, or with another handle or user_data.
var eh5Exposure = rulebook.Exposure[probeView]{Items: "handle frees (one per observing rank)"}

func judgeFreeCallback(x *rulebook.X) verdict.Verdict {
	_, views, _ := handleViews(x)
	var bad, ev []string
	for _, v := range views {
		v.frees = mainFrees(v.frees)
		switch {
		case len(v.frees) != 1:
			bad = append(bad, fmt.Sprintf("rank %d: the free callback ran %d times, not once", v.rank, len(v.frees)))
			ev = append(ev, jsonOf(v.frees))
		case !v.frees[0].HandleOK || !v.frees[0].UserOK:
			bad = append(bad, fmt.Sprintf("rank %d: the free callback got another handle (%v) or user_data (%v) than the freed handle and the user_data given to MPI_T_event_handle_free", v.rank, v.frees[0].HandleOK, v.frees[0].UserOK))
			ev = append(ev, jsonOf(v.frees))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	return eh5Exposure.Pass(views, "on %d rank(s) the free callback ran once with the freed handle and its user_data", len(views))
}

// mainFrees leaves out the free callbacks of handles their own callback
// freed (CB-15's).
func mainFrees(fs []freecbRec) []freecbRec {
	var out []freecbRec
	for _, f := range fs {
		if f.FreedBy != "callback" {
			out = append(out, f)
		}
	}
	return out
}

// boundPhase is a phase of an event type bound to an object, judged on one
// observing rank.
type boundPhase struct{ event, bind string }

// cb12Exposure: on every observing rank a bound handle could have missed
// its object's events or got another's.
var cb12Exposure = rulebook.Exposure[boundPhase]{Items: "bound phases on observing ranks"}

// judgeBound judges the delivery job's phases of bound event types: the
// fixture names the object in every action and renames another between.
func judgeBound(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	d := r.Deliver
	phases := mpi.DecodeRanked[phaseRec](d.Recs, "phase")
	cbs, facts := mpi.DecodeRanked[cbRec](d.Recs, "cb"), mpi.DecodeRanked[factRec](d.Recs, "fact")
	var bound []string
	var judged []boundPhase
	for _, pr := range r.Profiles {
		for _, ph := range pr.Phases {
			for _, p := range phases {
				if p.Action == ph.Action && p.Present && p.Rank == 0 && !strings.Contains(strings.Join(p.Binds, ","), "no_object") {
					if n := checkPhase(x, ph, "deliver", phases, cbs, facts, d); n > 0 {
						for i := 0; i < n; i++ {
							judged = append(judged, boundPhase{ph.Events[0].Name, p.Binds[0]})
						}
						bound = append(bound, fmt.Sprintf("%s (bound to %s)", ph.Events[0].Name, p.Binds[0]))
					}
				}
			}
		}
	}
	if len(bound) == 0 {
		x.Unsupported("not measurable here: no event type of profile %s is bound to an object", profileIDs(r.Profiles))
	}
	return cb12Exposure.Pass(judged, "bound handles saw only their object: %s", strings.Join(bound, ", "))
}

// MPI_T_event_handle_set_info / _get_info and MPI_T_event_callback_set_info /
// _get_info (MPI-5.0 §15.3.8.4). One info round trip per probe event type
// (fixtures/c/events/events_deliver.c, info_roundtrip) records every call's
// result, so each rule judges its own calls.
var infoCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-HANDLE-002",
	Needs: "events",
	Title: "MPI_T_event_handle_set_info/_get_info and MPI_T_event_callback_set_info/_get_info succeed, get_info returns a new info object, and a hint that comes back keeps its value",
	Rules: []rulebook.Rule{
		// §15.3.8.4: "MPI_T_EVENT_HANDLE_GET_INFO returns a new info object
		// containing the hints of the event-registration handle associated with
		// event_registration. [...] If no such hints exist, a handle to a newly
		// created info object is returned that contains no key/value pairs. The
		// user is responsible for freeing info_used via MPI_INFO_FREE."
		{ID: "EH-7", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "MPI_T_event_handle_set_info succeeds and MPI_T_event_handle_get_info returns a new info object (never MPI_INFO_NULL), even with no hints",
			Injectors: []string{"inject_events_info_null"},
			Exposure:  eh7Exposure.Declared(), Judge: infoJudge("handle", eh7Exposure)},
		// §15.3.8.4: "MPI_T_EVENT_CALLBACK_GET_INFO returns a new info object
		// containing the hints of the callback function registered for the
		// callback safety level specified by cb_safety [...] If no such hints
		// exist, a handle to a newly created info object is returned that
		// contains no key/value pairs."
		{ID: "EH-7a", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "MPI_T_event_callback_set_info succeeds and MPI_T_event_callback_get_info returns a new info object (never MPI_INFO_NULL), even with no hints",
			Injectors: []string{"inject_events_info_null"},
			Exposure:  eh7aExposure.Declared(), Judge: infoJudge("callback", eh7aExposure)},
		// §15.3.8.4 (both get_info calls): "An MPI implementation is required
		// to return [...] any user-supplied hints that were not ignored by the
		// implementation": a hint that comes back is the one set, with its value.
		{ID: "EH-8", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "a hint set with MPI_T_event_handle_set_info or MPI_T_event_callback_set_info that get_info returns comes back with the value set",
			Injectors: []string{"inject_events_info_hint_wrong"},
			Exposure:  eh8Exposure.Declared(), Judge: judgeHintKept},
	},
})

// infoRecs is the probe job's info round trips (Error when there are none
// or the registration they need failed).
func infoRecs(x *rulebook.X) []infoRec {
	r := needEvents(x)
	infos := mpi.DecodeRanked[infoRec](r.Probe.Recs, "info")
	if len(infos) == 0 {
		x.Errorf(r.Probe.Evidence, "the probe job recorded no info round trip")
	}
	for _, in := range infos {
		if in.RegisterRC != 0 {
			x.Errorf(jsonOf([]infoRec{in}), "MPI_T_event_register_callback returned %d", in.RegisterRC)
		}
	}
	return infos
}

// eh7Exposure, eh7aExposure: every round trip could have refused the set
// or returned no info object.
var (
	eh7Exposure  = rulebook.Exposure[infoRec]{Items: "info round trips"}
	eh7aExposure = rulebook.Exposure[infoRec]{Items: "info round trips"}
)

// infoJudge judges the set_info/get_info pair of which ("handle" or
// "callback") in every round trip; it passes through exp.
func infoJudge(which string, exp rulebook.Exposure[infoRec]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		infos := infoRecs(x)
		name := "MPI_T_event_" + which
		var bad []string
		for _, in := range infos {
			setRC, getRC, got := in.HandleSetRC, in.HandleGetRC, in.HandleInfo
			if which == "callback" {
				setRC, getRC, got = in.CallbackSetRC, in.CallbackGetRC, in.CallbackInfo
			}
			if setRC != 0 {
				bad = append(bad, fmt.Sprintf("%s_set_info returned %d", name, setRC))
			}
			switch {
			case getRC != 0:
				bad = append(bad, fmt.Sprintf("%s_get_info returned %d", name, getRC))
			case got != "object":
				bad = append(bad, fmt.Sprintf("%s_get_info returned MPI_SUCCESS and MPI_INFO_NULL, not a new info object", name))
			}
		}
		if len(bad) > 0 {
			x.Failf(jsonOf(infos), "%s", verdict.FirstAndMore(bad))
		}
		return exp.Pass(infos, "%d round trips: %s_set_info succeeds and _get_info returns a new info object", len(infos), name)
	}
}

// returnedHint is the hint a get_info returned, for the handle or the
// callback (which).
type returnedHint struct{ which, value string }

// eh8Exposure: every hint that came back could have had another value.
var eh8Exposure = rulebook.Exposure[returnedHint]{Items: "hints that came back"}

func judgeHintKept(x *rulebook.X) verdict.Verdict {
	infos := infoRecs(x)
	var bad []string
	var back []returnedHint
	for _, in := range infos {
		for _, h := range []struct{ which, info, hint string }{{"handle", in.HandleInfo, in.HandleHint}, {"callback", in.CallbackInfo, in.CallbackHint}} {
			if h.info != "object" || h.hint == "" {
				continue
			}
			back = append(back, returnedHint{h.which, h.hint})
			if h.hint != "1" {
				bad = append(bad, fmt.Sprintf("MPI_T_event_%s_get_info gives mpits_hint=%q, set as \"1\"", h.which, h.hint))
			}
		}
	}
	if len(bad) > 0 {
		x.Failf(jsonOf(infos), "%s", verdict.FirstAndMore(bad))
	}
	if len(back) == 0 {
		x.Unsupported("not measurable here: no get_info returned the hint set (ignored hints, or no info object: EH-7, EH-7a)")
	}
	return eh8Exposure.Pass(back, "%d hints came back with the value set", len(back))
}

// cb15Exposure: on every rank whose callback freed its own handle, a later
// instance could have reached it.
var cb15Exposure = rulebook.Exposure[probeView]{Items: "frees of a handle inside its own callback"}

// judgeSelfFree judges the h_self sub-phase of the probe job: the first
// callback frees its own handle; the later instances must not reach it.
func judgeSelfFree(x *rulebook.X) verdict.Verdict {
	r, views, _ := handleViews(x)
	frees := mpi.DecodeRanked[selffreeRec](r.Probe.Recs, "selffree")
	var bad, ev []string
	var freed []probeView // ranks whose callback freed its handle
	for _, v := range views {
		var mine []selffreeRec
		for _, f := range frees {
			if f.Rank == v.rank && f.Sub == "h_self" {
				mine = append(mine, f)
			}
		}
		got := v.cbs["h_self"]
		if len(mine) == 0 {
			if len(got) == 0 {
				x.Unsupported("not measurable here: rank %d: no callback ran in h_self (%d instances of %s)", v.rank, v.pr.Probe.K, v.pr.Probe.Action)
			}
			x.Errorf(jsonOf(got), "rank %d: callbacks ran in h_self but none recorded its MPI_T_event_handle_free", v.rank)
		}
		f := mine[0]
		switch f.RC {
		case "MPI_SUCCESS":
		case "MPI_T_ERR_NOT_ACCESSIBLE":
			x.Unsupported("not measurable here: rank %d: MPI_T_event_handle_free inside the callback returned MPI_T_ERR_NOT_ACCESSIBLE, which §15.3.8.2 allows for a call outside Table 22", v.rank)
		default:
			bad = append(bad, fmt.Sprintf("rank %d: MPI_T_event_handle_free of its own handle inside the callback of %s returned %s", v.rank, v.pr.Probe.Events[0].Name, f.RC))
			ev = append(ev, jsonOf(mine)+jsonOf(got))
			continue
		}
		freed = append(freed, v)
		later := 0
		for _, c := range got {
			if c.Slot == f.Slot && c.Seq > f.Seq {
				later++
			}
		}
		if later > 0 {
			bad = append(bad, fmt.Sprintf("rank %d: after its callback freed the handle, %d more instances reached it", v.rank, later))
			ev = append(ev, jsonOf(mine)+jsonOf(got))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	return cb15Exposure.Pass(freed, "on %d rank(s) a callback freed its own handle (MPI_SUCCESS) and the later %d instances did not reach it", len(freed), r.Profiles[0].Probe.K-1)
}

// eh6Exposure: every free callback could have got no safety level.
var eh6Exposure = rulebook.Exposure[freecbRec]{Items: "free callbacks"}

// judgeFreeSafety judges the cb_safety of every free callback of the
// probe job (the main thread's free and the callback's own).
func judgeFreeSafety(x *rulebook.X) verdict.Verdict {
	r, _, _ := handleViews(x)
	var bad []string
	fs := mpi.DecodeRanked[freecbRec](r.Probe.Recs, "freecb")
	for _, f := range fs {
		if f.Safety < 0 {
			by := "the main program"
			if f.FreedBy == "callback" {
				by = "its own callback"
			}
			bad = append(bad, fmt.Sprintf("rank %d: the free callback (handle freed by %s) got a cb_safety that is no safety level", f.Rank, by))
		}
	}
	if len(bad) > 0 {
		x.Failf(jsonOf(fs), "%s", verdict.FirstAndMore(bad))
	}
	if len(fs) == 0 {
		x.Unsupported("not measurable here: no free callback ran")
	}
	var lv []string
	for _, f := range fs {
		lv = append(lv, levelName(f.Safety))
	}
	return eh6Exposure.Pass(fs, "%d free callbacks got a safety level: %s", len(fs), strings.Join(lv, ", "))
}
