package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Sessions and handles made and freed (MPI-5.0 §15.3.7.3, §15.3.7.4), from
// the items run of fixtures/c/mpit/pvars.c (pvar_items.c: the probe of each
// variable, the error cases, the freed-session item).
var pvarLifecycleCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-PVAR-LIFECYCLE",
	Needs: "mpit",
	Title: "performance experiment sessions are created new and freed to MPI_T_PVAR_SESSION_NULL, handles freed to MPI_T_PVAR_HANDLE_NULL, and a freed session is refused",
	Rules: []rulebook.Rule{
		// §15.3.7.3: "This call creates a new performance experiment session
		// for accessing performance variables and returns a handle for this
		// performance experiment session in the argument pe_session".
		{ID: "PVAR-21", Source: "MPI-5.0 §15.3.7.3", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_session_create returns MPI_SUCCESS and a new session: not MPI_T_PVAR_SESSION_NULL, not one that exists",
			Injectors: []string{"inject_mpit_pvar_lifecycle_off"}, Exposure: pvar21Exposure.Declared(), Judge: judgePvar21},
		// §15.3.7.3: "On a successful return, MPI sets the performance
		// experiment session identifier to MPI_T_PVAR_SESSION_NULL."
		{ID: "PVAR-22", Source: "MPI-5.0 §15.3.7.3", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_session_free returns MPI_SUCCESS and sets the session to MPI_T_PVAR_SESSION_NULL",
			Injectors: []string{"inject_mpit_pvar_lifecycle_off"}, Exposure: pvar22Exposure.Declared(), Judge: judgePvar22},
		// §15.3.7.4: "On a successful return, MPI sets the handle to
		// MPI_T_PVAR_HANDLE_NULL."
		{ID: "PVAR-28", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "a successful MPI_T_pvar_handle_free sets the handle to MPI_T_PVAR_HANDLE_NULL",
			Injectors: []string{"inject_mpit_pvar_lifecycle_off"}, Exposure: pvar28Exposure.Declared(), Judge: judgePvar28},
		// §15.3.7.3: "Calls to the MPI tool information interface can no
		// longer be made within the context of a performance experiment
		// session after it is freed"; what such a call does §15.3.10 leaves
		// undefined ("if a user passes invalid parameter values to any
		// routine, the behavior of the implementation is undefined"), Table 23
		// names MPI_T_ERR_INVALID_SESSION: quality.
		{ID: "PVAR-42", Source: "MPI-5.0 §15.3.7.3, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_handle_alloc and MPI_T_pvar_start(MPI_T_PVAR_ALL_HANDLES) with a freed session (the null value it was set to, a stale copy) return an error code (MPI_T_ERR_INVALID_SESSION the one Table 23 names) and do not crash",
			Injectors: []string{"inject_mpit_freed_session"}, Exposure: pvar42Exposure.Declared(), Judge: judgePvar42},
	},
})

// errFacts are the err records that state a fact (rc MPI_SUCCESS when it
// holds), not a return code: what breaks when it does not hold.
var errFacts = map[string]string{
	"session_create_new":     "two MPI_T_pvar_session_create calls did not give two new sessions (MPI_T_PVAR_SESSION_NULL, or the same twice)",
	"session_free_sets_null": "MPI_T_pvar_session_free did not set the session to MPI_T_PVAR_SESSION_NULL",
}

// pvar21Exposure: each call could have failed, the comparison have found
// NULL or the same session twice.
var pvar21Exposure = rulebook.Exposure[errRec]{Items: "session creation cases (calls and their comparison)"}

// judgePvar21: the error cases begin by creating sessions A and B, then
// compare them (session_create_new).
func judgePvar21(x *rulebook.X) verdict.Verdict {
	r := pvarSessionJob(x)
	errs := judgeErrs(x, r, "", "the session cases did not run", "session_create", "session_create_new")
	creates, compared := 0, false
	for _, e := range errs {
		if e.What == "session_create" {
			creates++
		} else {
			compared = true
		}
	}
	reason := plural(creates, "MPI_T_pvar_session_create call", "MPI_T_pvar_session_create calls") + " returned MPI_SUCCESS"
	if compared {
		reason += "; the two sessions were neither MPI_T_PVAR_SESSION_NULL nor the same"
	}
	return pvar21Exposure.Pass(errs, "%s", reason)
}

// pvar22Exposure: each call could have failed, the look at the session
// have found it not null.
var pvar22Exposure = rulebook.Exposure[errRec]{Items: "session free cases (calls and the look at the session)"}

// judgePvar22: the error cases end by freeing a session with no handle,
// then look at it (session_free_sets_null). The free of a freed session,
// which §15.3.10 leaves undefined, is recorded in its evidence, not judged.
func judgePvar22(x *rulebook.X) verdict.Verdict {
	r := pvarSessionJob(x)
	undefined := pvarUndefined(r, func(what string) bool { return what == "session_free_freed_session" })
	errs := judgeErrs(x, r, undefined, "the session cases did not run", "session_free", "session_free_sets_null")
	frees, nulled := 0, false
	for _, e := range errs {
		if e.What == "session_free" {
			frees++
		} else {
			nulled = true
		}
	}
	reason := plural(frees, "MPI_T_pvar_session_free call", "MPI_T_pvar_session_free calls") + " returned MPI_SUCCESS"
	if nulled {
		reason += "; it left MPI_T_PVAR_SESSION_NULL in the session"
	}
	v := pvar22Exposure.Pass(errs, "%s", reason)
	v.Evidence = undefined
	return v
}

// pvar28Exposure: each freed handle could have been left as it was.
var pvar28Exposure = rulebook.Exposure[probeRec]{Items: "successfully freed handles"}

func judgePvar28(x *rulebook.X) verdict.Verdict {
	r := pvarJob(x)
	var bad []string
	var freed []probeRec
	for _, p := range r.probes {
		if p.FreeRC != "MPI_SUCCESS" {
			continue // PVAR-26's
		}
		freed = append(freed, p)
		if p.FreedNull != 1 {
			bad = append(bad, fmt.Sprintf("%s (%d): the handle is not MPI_T_PVAR_HANDLE_NULL after MPI_T_pvar_handle_free", p.Name, p.Index))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	if len(freed) == 0 {
		x.Unsupported("not measurable here: no handle was freed successfully")
	}
	return pvar28Exposure.Pass(freed, "%d handles freed to MPI_T_PVAR_HANDLE_NULL", len(freed))
}

// freedCases are the freed-session items, in order (pvar_items.c, freed()).
var freedCases = []string{"handle_alloc(freed session)", "start(freed session, MPI_T_PVAR_ALL_HANDLES)", "handle_alloc(stale copy of a freed session)"}

// pvar42Exposure: each call that returned could have returned MPI_SUCCESS
// (or died).
var pvar42Exposure = rulebook.Exposure[ubRec]{Items: "calls with a freed session"}

func judgePvar42(x *rulebook.X) verdict.Verdict {
	r := pvarSessionJob(x)
	var bad, got []string
	var refused []ubRec
	for _, f := range r.freed {
		switch f.RC {
		case "MPI_SUCCESS":
			bad = append(bad, f.What+" returned MPI_SUCCESS")
			continue
		case "MPI_T_ERR_INVALID_SESSION":
			got = append(got, f.What+" "+f.RC)
		default:
			got = append(got, f.What+" "+f.RC+" (not the code Table 23 names)")
		}
		refused = append(refused, f)
	}
	for k, e := range r.crashed("freed_exit") {
		what := fmt.Sprintf("freed-session case %d", k)
		if k >= 0 && k < len(freedCases) {
			what = freedCases[k]
		}
		bad = append(bad, fmt.Sprintf("%s killed the process (%s)", what, e.How))
	}
	sort.Strings(bad)
	x.FailOn(bad, "other cases: "+strings.Join(got, "; "))
	if len(got) == 0 && len(bad) == 0 {
		// what the items runs did instead, should it ever happen
		deaths := []string{}
		for _, e := range r.exits {
			deaths = append(deaths, fmt.Sprintf("%s %d (%s)", e.Kind, e.Index, e.How))
		}
		if len(deaths) == 0 {
			deaths = append(deaths, "none")
		}
		x.Unsupported("not measurable here: the freed-session cases did not run (%s with records; deaths: %s)", verdict.Plural(r.itemRuns, "items run"), strings.Join(deaths, ", "))
	}
	reason := strings.Join(got, "; ")
	if len(r.vars) == 0 {
		// pvar_items.c asks for index 0 then: an error is owed for the
		// index as well, and a library that looks at the freed session
		// first can still crash or take it
		reason += " (no performance variable: handle_alloc asked for index 0, which names none)"
	}
	return pvar42Exposure.Pass(refused, "%s", reason)
}
