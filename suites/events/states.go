package events

import (
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// A cell of the event-registration table of cmd/mpits/states.go that no
// other rule judges: MPI_T_event_handle_free of a handle with no callback
// registered. The freed-handle case of EH-3 (event_meta_args.h,
// ev_free_invalid) first allocates a handle of an event type bound to no
// object and frees it at once, before any MPI_T_event_register_callback;
// its record says whether that free returned MPI_SUCCESS ("tried") or not
// (free_rc).
var statesCheck = rulebook.Define(rulebook.Check{
	ID:    "EVT-STATES",
	Needs: "events",
	Title: "an event-registration handle with no callback registered frees",
	Rules: []rulebook.Rule{
		// §15.3.8.4: "MPI_T_EVENT_HANDLE_FREE returns MPI_SUCCESS when
		// deallocation of the handle was initiated successfully and returns
		// MPI_T_ERR_INVALID_HANDLE if event_registration does not match a
		// valid allocated event-registration handle at the time of the
		// call." A handle MPI_T_event_handle_alloc returned is valid and
		// allocated whether or not a callback was registered on it (EH-2
		// judges handles with callbacks).
		{ID: "EH-2a", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "MPI_T_event_handle_free of a handle with no callback registered returns MPI_SUCCESS",
			Injectors: []string{"inject_events_free_bad"},
			Exposure:  eh2aExposure.Declared(), Judge: judgeFreeNoCallback},
	},
})

// eh2aExposure: the one free could have been refused.
var eh2aExposure = rulebook.Exposure[freeInvalidRec]{Items: "calls"}

func judgeFreeNoCallback(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, false)
	for _, r := range mpi.DecodeRanked[freeInvalidRec](j.Recs, "free_invalid") {
		switch {
		case r.Handle != "freed":
			continue
		case r.Tried: // the first free returned MPI_SUCCESS, then the second was made
			return eh2aExposure.Pass([]freeInvalidRec{r}, "MPI_T_event_handle_free of a handle with no callback registered returned MPI_SUCCESS")
		case r.AllocRC == "MPI_SUCCESS":
			x.Failf(jsonOf([]freeInvalidRec{r}), "MPI_T_event_handle_free of a handle with no callback registered returned %s, not MPI_SUCCESS", r.FreeRC)
		case r.AllocRC == "none":
			x.Unsupported("not measurable here: no event type bound to no object (the handle freed is of such a type)")
		default:
			x.Unsupported("not measurable here: MPI_T_event_handle_alloc returned %s (EH-1's)", r.AllocRC)
		}
	}
	if d, ok := j.Died[itemFreeFreed]; ok {
		x.Unsupported("not measurable here: the process died (%s) freeing a handle with no callback or freeing it again (EH-3's), the records do not say which", d.How)
	}
	x.Errorf("", "the events_event_meta job recorded no free of a handle with no callback")
	return verdict.Verdict{}
}
