package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Judges of the refusals the text names (EVENTS-CALLS, meta_args.go):
// unknown event names, source indices that name no source, handles no
// allocation returned. They need the events interface, not event types.

type unknownNameRec struct {
	Name  string `json:"name"`
	Known bool   `json:"known"`
	RC    string `json:"rc"`
	Index int    `json:"index"`
}

func judgeUnknownName(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, true)
	bad := died(j, func(int) string { return "MPI_T_event_get_index of an unknown name" }, itemUnknown)
	recs := mpi.DecodeRanked[unknownNameRec](j.Recs, "unknown_name")
	n := 0
	for _, r := range recs {
		if r.Known {
			continue // an event type has it after all
		}
		n++
		if r.RC != "MPI_T_ERR_INVALID_NAME" {
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_index(%q) returned %s (index %d), not MPI_T_ERR_INVALID_NAME", r.Name, r.RC, r.Index))
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if n == 0 {
		x.Unsupported("not measurable here: no unknown name was tried")
	}
	return rulebook.Exposed(n, "MPI_T_event_get_index calls with an unknown name", "%d unknown name(s) refused with MPI_T_ERR_INVALID_NAME", n)
}

type badSourceRec struct {
	Call    string `json:"call"`
	Index   int    `json:"index"`
	Sources int    `json:"sources"`
	RC      string `json:"rc"`
}

// badSourceJudge judges call with invalid source indices: the normative
// MPI_T_source_get_timestamp must name MPI_T_ERR_INVALID_INDEX, the quality
// MPI_T_source_get_info must refuse somehow.
func badSourceJudge(call string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		j := itemsJob(x, true)
		item := map[string]int{"MPI_T_source_get_timestamp": itemSourceTS, "MPI_T_source_get_info": itemSourceInf}[call]
		bad := died(j, func(int) string { return call + " of invalid source indices" }, item)
		var got []string
		for _, r := range mpi.DecodeRanked[badSourceRec](j.Recs, "bad_source") {
			if r.Call != call {
				continue
			}
			what := fmt.Sprintf("%s(%d) (%d sources)", call, r.Index, r.Sources)
			switch {
			case r.RC == "MPI_SUCCESS":
				bad = append(bad, what+" returned MPI_SUCCESS")
			case r.RC != "MPI_T_ERR_INVALID_INDEX" && item == itemSourceTS:
				bad = append(bad, fmt.Sprintf("%s returned %s, not MPI_T_ERR_INVALID_INDEX", what, r.RC))
			case r.RC != "MPI_T_ERR_INVALID_INDEX":
				got = append(got, fmt.Sprintf("%s %s (not the code Table 23 names)", what, r.RC))
			default:
				got = append(got, what+" "+r.RC)
			}
		}
		x.FailOn(bad, jsonOf(mpi.DecodeRanked[badSourceRec](j.Recs, "bad_source")))
		if len(got) == 0 {
			x.Unsupported("not measurable here: %s was not called with an invalid index", call)
		}
		return rulebook.Exposed(len(got), "calls with an invalid source index", "refused: %s", strings.Join(got, "; "))
	}
}

type freeInvalidRec struct {
	Handle    string `json:"handle"`
	Tried     bool   `json:"tried"`
	RC        string `json:"rc"`
	AllocRC   string `json:"alloc_rc"`
	FreeRC    string `json:"free_rc"`
	Callbacks int    `json:"free_callbacks"`
}

func judgeFreeInvalid(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, true)
	bad := died(j, func(it int) string {
		return map[int]string{itemFreeZero: "MPI_T_event_handle_free of an all-zero handle", itemFreeFreed: "MPI_T_event_handle_free of a freed handle"}[it]
	}, itemFreeFreed, itemFreeZero)
	recs := mpi.DecodeRanked[freeInvalidRec](j.Recs, "free_invalid")
	var got []string
	for _, r := range recs {
		switch {
		case !r.Tried:
			continue // no handle to free twice (alloc or first free failed: EH-1, EH-2)
		case r.RC != "MPI_T_ERR_INVALID_HANDLE":
			bad = append(bad, fmt.Sprintf("MPI_T_event_handle_free of a %s handle returned %s, not MPI_T_ERR_INVALID_HANDLE", r.Handle, r.RC))
		default:
			got = append(got, r.Handle)
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if len(got) == 0 {
		x.Unsupported("not measurable here: no invalid handle was freed")
	}
	return rulebook.Exposed(len(got), "MPI_T_event_handle_free calls with an invalid handle", "MPI_T_ERR_INVALID_HANDLE for the %s handle", strings.Join(got, " and the "))
}
