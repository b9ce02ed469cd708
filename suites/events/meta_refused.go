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

// evt4Exposure: every unknown name could have been given an index.
var evt4Exposure = rulebook.Exposure[unknownNameRec]{Items: "MPI_T_event_get_index calls with an unknown name"}

func judgeUnknownName(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, true)
	bad := died(j, func(int) string { return "MPI_T_event_get_index of an unknown name" }, itemUnknown)
	recs := mpi.DecodeRanked[unknownNameRec](j.Recs, "unknown_name")
	var unknown []unknownNameRec
	for _, r := range recs {
		if r.Known {
			continue // an event type has it after all
		}
		unknown = append(unknown, r)
		if r.RC != "MPI_T_ERR_INVALID_NAME" {
			bad = append(bad, fmt.Sprintf("MPI_T_event_get_index(%q) returned %s (index %d), not MPI_T_ERR_INVALID_NAME", r.Name, r.RC, r.Index))
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if len(unknown) == 0 {
		x.Unsupported("not measurable here: no unknown name was tried")
	}
	return evt4Exposure.Pass(unknown, "%d unknown name(s) refused with MPI_T_ERR_INVALID_NAME", len(unknown))
}

type badSourceRec struct {
	Call    string `json:"call"`
	Index   int    `json:"index"`
	Sources int    `json:"sources"`
	RC      string `json:"rc"`
}

// src6Exposure, src9Exposure: every call with an invalid index could have
// succeeded (or, SRC-6, returned another code).
var (
	src6Exposure = rulebook.Exposure[badSourceRec]{Items: "calls with an invalid source index"}
	src9Exposure = rulebook.Exposure[badSourceRec]{Items: "calls with an invalid source index"}
)

// badSourceJudge judges call with invalid source indices: the normative
// MPI_T_source_get_timestamp must name MPI_T_ERR_INVALID_INDEX, the quality
// MPI_T_source_get_info must refuse somehow. It passes through exp.
func badSourceJudge(call string, exp rulebook.Exposure[badSourceRec]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		j := itemsJob(x, true)
		item := map[string]int{"MPI_T_source_get_timestamp": itemSourceTS, "MPI_T_source_get_info": itemSourceInf}[call]
		bad := died(j, func(int) string { return call + " of invalid source indices" }, item)
		var got []string
		var refused []badSourceRec
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
				refused = append(refused, r)
			default:
				got = append(got, what+" "+r.RC)
				refused = append(refused, r)
			}
		}
		x.FailOn(bad, jsonOf(mpi.DecodeRanked[badSourceRec](j.Recs, "bad_source")))
		if len(got) == 0 {
			x.Unsupported("not measurable here: %s was not called with an invalid index", call)
		}
		return exp.Pass(refused, "refused: %s", strings.Join(got, "; "))
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

// eh3Exposure: every free of an invalid handle could have been taken.
var eh3Exposure = rulebook.Exposure[freeInvalidRec]{Items: "MPI_T_event_handle_free calls with an invalid handle"}

func judgeFreeInvalid(x *rulebook.X) verdict.Verdict {
	j := itemsJob(x, true)
	bad := died(j, func(it int) string {
		return map[int]string{itemFreeZero: "MPI_T_event_handle_free of an all-zero handle", itemFreeFreed: "MPI_T_event_handle_free of a freed handle"}[it]
	}, itemFreeFreed, itemFreeZero)
	recs := mpi.DecodeRanked[freeInvalidRec](j.Recs, "free_invalid")
	var got []string
	var refused []freeInvalidRec
	for _, r := range recs {
		switch {
		case !r.Tried:
			continue // no handle to free twice (alloc or first free failed: EH-1, EH-2)
		case r.RC != "MPI_T_ERR_INVALID_HANDLE":
			bad = append(bad, fmt.Sprintf("MPI_T_event_handle_free of a %s handle returned %s, not MPI_T_ERR_INVALID_HANDLE", r.Handle, r.RC))
		default:
			got = append(got, r.Handle)
			refused = append(refused, r)
		}
	}
	x.FailOn(bad, jsonOf(recs))
	if len(got) == 0 {
		x.Unsupported("not measurable here: no invalid handle was freed")
	}
	return eh3Exposure.Pass(refused, "MPI_T_ERR_INVALID_HANDLE for the %s handle", strings.Join(got, " and the "))
}
