package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Robustness of MPI_T calls, from one run of fixtures/c/mpit/robust.c: each
// case in a fresh process (the fixture re-executes itself; that process
// calls MPI_T_init_thread only, never MPI_Init), so a crash is that case's
// outcome. NULL OUT arguments of get_info are normative; null and freed
// handles are erroneous arguments whose outcome §15.3.10 leaves undefined
// ("The MPI implementation is not required to check all user-provided
// parameters; if a user passes invalid parameter values to any routine, the
// behavior of the implementation is undefined."), so those rules are quality.
// The event type cases the fixture records are the events suite's (EVT-7).
var robustCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-ROBUST",
	Needs: "mpit",
	Title: "get_info ignores NULL OUT arguments; null and freed handles, a null enumeration and a NULL index array are refused without a crash",
	Rules: []rulebook.Rule{
		// §15.3.6.1: "If any OUT parameter to MPI_T_CVAR_GET_INFO is a NULL
		// pointer, the implementation will ignore the parameter and not return a
		// value for the parameter."
		{ID: "CVAR-4", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_get_info with any OUT argument NULL (each in turn, then all) ignores it: MPI_SUCCESS, no crash",
			Injectors: []string{"inject_mpit_null_out_crash"}, Exposure: cvar4Exposure.Declared(), Judge: judgeNullOut("MPI_T_cvar_get_info", cvar4Exposure)},
		// §15.3.7.2: "If any OUT parameter to MPI_T_PVAR_GET_INFO is a NULL
		// pointer, the implementation will ignore the parameter and not return a
		// value for the parameter."
		{ID: "PVAR-4", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_get_info with any OUT argument NULL (each in turn, then all) ignores it: MPI_SUCCESS, no crash",
			Injectors: []string{"inject_mpit_null_out_crash"}, Exposure: pvar4Exposure.Declared(), Judge: judgeNullOut("MPI_T_pvar_get_info", pvar4Exposure)},
		// §15.3.9.1: "If any OUT parameter to MPI_T_CATEGORY_GET_INFO is the NULL
		// pointer, the implementation will ignore the parameter and not return a
		// value for the parameter."
		{ID: "CAT-3", Source: "MPI-5.0 §15.3.9.1", Basis: rulebook.Normative,
			Text:      "MPI_T_category_get_info with any OUT argument NULL (each in turn, then all) ignores it: MPI_SUCCESS, no crash",
			Injectors: []string{"inject_mpit_null_out_crash"}, Exposure: cat3Exposure.Declared(), Judge: judgeNullOut("MPI_T_category_get_info", cat3Exposure)},
		// §15.3.10 (undefined); Table 23: MPI_T_ERR_INVALID_HANDLE "The handle is
		// invalid".
		{ID: "ERR-4a", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_cvar_read and MPI_T_cvar_write on MPI_T_CVAR_HANDLE_NULL return an error code (MPI_T_ERR_INVALID_HANDLE the one Table 23 names) and do not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge: judgeInvalid([]string{"MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL)", "MPI_T_cvar_write(MPI_T_CVAR_HANDLE_NULL)"},
				"MPI_T_ERR_INVALID_HANDLE", anyError)},
		// §15.3.10: "The MPI implementation is not required to check all
		// user-provided parameters; if a user passes invalid parameter values
		// to any routine, the behavior of the implementation is undefined."
		// MPI_T_PVAR_HANDLE_NULL is no handle at all: §15.3.7.4's "if the
		// handle argument passed in is not associated with the pe_session
		// argument, MPI_T_ERR_INVALID_HANDLE is returned" is about a handle
		// allocated in another session (PVAR-27), and no sentence names the
		// null handle's outcome. Table 23: MPI_T_ERR_INVALID_HANDLE "The
		// handle is invalid".
		{ID: "ERR-4b", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_read and MPI_T_pvar_start on MPI_T_PVAR_HANDLE_NULL return an error code (MPI_T_ERR_INVALID_HANDLE the one Table 23 names) and do not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge: judgeInvalid([]string{"MPI_T_pvar_read(MPI_T_PVAR_HANDLE_NULL)", "MPI_T_pvar_start(MPI_T_PVAR_HANDLE_NULL)"},
				"MPI_T_ERR_INVALID_HANDLE", anyError)},
		// §15.3.10 (undefined); Table 23: MPI_T_ERR_INVALID_INDEX "The variable
		// index is invalid" (handle allocation). Event handles are the events
		// suite's.
		{ID: "ERR-3", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_cvar_handle_alloc and MPI_T_pvar_handle_alloc with the index just past the count return an error code (MPI_T_ERR_INVALID_INDEX the one Table 23 names) and do not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge: judgeInvalid([]string{"MPI_T_cvar_handle_alloc(index = count)", "MPI_T_pvar_handle_alloc(index = count)"},
				"MPI_T_ERR_INVALID_INDEX", anyError)},
		// Freeing a null control variable handle or a null session: no
		// sentence says what happens (§15.3.10 leaves errors undefined): any
		// return code, no crash.
		{ID: "ERR-4c", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_cvar_handle_free of MPI_T_CVAR_HANDLE_NULL and MPI_T_pvar_session_free of MPI_T_PVAR_SESSION_NULL do not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge: judgeInvalid([]string{"MPI_T_cvar_handle_free(MPI_T_CVAR_HANDLE_NULL)", "MPI_T_pvar_session_free(MPI_T_PVAR_SESSION_NULL)"},
				"MPI_T_ERR_INVALID_HANDLE|MPI_T_ERR_INVALID_SESSION", anyCode)},
		// §15.3.10 (undefined), as ERR-4b: the null handle is an invalid
		// argument, not a handle of another session.
		{ID: "ERR-4e", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_handle_free of MPI_T_PVAR_HANDLE_NULL returns an error code (MPI_T_ERR_INVALID_HANDLE the one Table 23 names) and does not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge:     judgeInvalid([]string{"MPI_T_pvar_handle_free(MPI_T_PVAR_HANDLE_NULL)"}, "MPI_T_ERR_INVALID_HANDLE", anyError)},
		// Table 23: MPI_T_ERR_INVALID_SESSION "Session argument is not a valid
		// session".
		{ID: "ERR-4d", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_read with a freed session returns an error code (MPI_T_ERR_INVALID_SESSION or MPI_T_ERR_INVALID_HANDLE the ones Table 23 names) and does not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge:     judgeInvalid([]string{"MPI_T_pvar_read(freed session)"}, "MPI_T_ERR_INVALID_SESSION|MPI_T_ERR_INVALID_HANDLE", anyError)},
		// Table 23: MPI_T_ERR_INVALID_INDEX "The enumeration index is invalid".
		{ID: "META-15", Source: "MPI-5.0 §15.3.5, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_enum_get_info(MPI_T_ENUM_NULL) returns an error code (MPI_T_ERR_INVALID_INDEX or MPI_T_ERR_INVALID_HANDLE) and does not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge:     judgeInvalid([]string{"MPI_T_enum_get_info(MPI_T_ENUM_NULL)"}, "MPI_T_ERR_INVALID_INDEX|MPI_T_ERR_INVALID_HANDLE", anyError)},
		// MPI_T_CATEGORY_GET_CVARS "OUT indices | an integer array of size len":
		// NULL with len 4 is an invalid argument (§15.3.10).
		{ID: "CAT-X1", Source: "MPI-5.0 §15.3.9.2, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_category_get_cvars with a NULL indices array and len 4 returns an error code and does not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  erroneousCallsExposure.Declared(),
			Judge:     judgeInvalid([]string{"MPI_T_category_get_cvars(indices NULL)"}, "MPI_T_ERR_INVALID", anyError)},
	},
})

type robustCase struct {
	Group string `json:"group"`
	Case  string `json:"case"`
	Arg   int    `json:"arg"`
	RC    string `json:"rc"`
}

// robustExit is how the process of one or more cases ended (Cases: how
// many, from the one whose Arg it names).
type robustExit struct {
	Group  string `json:"group"`
	Case   string `json:"case"`
	Arg    int    `json:"arg"`
	Cases  int    `json:"cases"`
	Signal int    `json:"signal"`
	Exit   int    `json:"exit"`
}

type robustRun struct {
	res      *mpi.Result
	rcs      map[string]string
	attempts []robustCase
	exits    []robustExit
}

func robustJob(x *rulebook.X) *robustRun {
	res, recs := x.JobOnce(mpi.Job{Name: "mpit_robust", Ranks: 1, Program: x.Fixture("mpit_robust")})
	r := &robustRun{res: res, rcs: map[string]string{}, exits: mpi.Decode[robustExit](recs, "exit"), attempts: mpi.Decode[robustCase](recs, "attempt")}
	for _, c := range mpi.Decode[robustCase](recs, "case") {
		r.rcs[fmt.Sprintf("%s/%d", c.Case, c.Arg)] = c.RC
	}
	return r
}

// nullOutTarget is what else robust.c's find_targets asks of an index it
// runs a function's null_out cases on.
var nullOutTarget = map[string]string{"MPI_T_pvar_get_info": " (for a variable bound to no object, as the cases need)"}

// The calls of CVAR-4, PVAR-4 and CAT-3 (judgeNullOut), one function's
// each: every call could have failed or crashed.
var (
	cvar4Exposure = nullOutExposure("MPI_T_cvar_get_info")
	pvar4Exposure = nullOutExposure("MPI_T_pvar_get_info")
	cat3Exposure  = nullOutExposure("MPI_T_category_get_info")
)

func nullOutExposure(fn string) rulebook.Exposure[robustCase] {
	return rulebook.Exposure[robustCase]{Items: fn + " calls with NULL OUT arguments"}
}

// judgeNullOut judges fn's calls with NULL OUT arguments; its pass goes
// through e, the rule's exposure.
func judgeNullOut(fn string, e rulebook.Exposure[robustCase]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := robustJob(x)
		var bad []string
		var calls []robustCase
		var ended *robustExit // the process of the function's cases, where it ran
		for _, ex := range r.exits {
			if ex.Group != "null_out" || ex.Case != fn {
				continue
			}
			ended = &ex
			// the function's cases ran in this one process, in order: the
			// first attempted without a result is where it ended
			for _, a := range r.attempts {
				if a.Group != "null_out" || a.Case != fn {
					continue
				}
				calls = append(calls, a)
				what := fmt.Sprintf("%s with %s NULL", a.Case, nullArgs(a.Case, a.Arg))
				rc, done := r.rcs[fmt.Sprintf("%s/%d", a.Case, a.Arg)]
				switch {
				case !done && ex.Signal != 0:
					bad = append(bad, fmt.Sprintf("%s: the process died of %s", what, mpi.SignalName(ex.Signal)))
				case !done:
					bad = append(bad, fmt.Sprintf("%s: the process exited with %d", what, ex.Exit))
				case rc != "MPI_SUCCESS":
					bad = append(bad, fmt.Sprintf("%s returned %s, not MPI_SUCCESS (NULL OUT arguments are to be ignored)", what, rc))
				}
			}
			if ex.Signal == 0 && ex.Exit != 0 && len(bad) == 0 {
				bad = append(bad, fmt.Sprintf("%s with NULL OUT arguments: the process exited with %d", fn, ex.Exit))
			}
		}
		x.FailOn(bad, "")
		if len(calls) == 0 && ended != nil {
			how := fmt.Sprintf("ended with exit %d", ended.Exit)
			if ended.Signal != 0 {
				how = "died of " + mpi.SignalName(ended.Signal)
			}
			x.Unsupported("not measurable here: the process of the %s cases %s before its first case", fn, how)
		}
		if len(calls) == 0 {
			// no exit record: the case's process found no index before
			// MPI_Init, initialized MPI as a singleton, found none after it
			// either, and exited 3 (robust.c, case_main), which the parent
			// does not record
			x.Unsupported("not measurable here: no index answered %s%s before MPI_Init, nor after MPI_Init (the case's process, finding none before, initializes MPI as a singleton and looks again)", fn, nullOutTarget[fn])
		}
		return e.Pass(calls, "%d calls of %s with NULL OUT arguments succeeded", len(calls), fn)
	}
}

// libraryExit says whether a case's process that wrote no result ended
// with an exit status of the library's, not the fixture's own (3: nothing
// to run the case on, 4: MPI_T_init_thread failed, 5: exec failed): a
// library may end the process in the call (a debug build's signal handler
// that exits 1, say), which is no return of an error code.
func libraryExit(code int) bool { return code != 0 && (code < 3 || code > 5) }

// acceptance is what return code an erroneous call may give.
type acceptance int

const (
	anyCode   acceptance = iota // any, MPI_SUCCESS too (quality: no crash)
	anyError                    // any error code (quality); the reason notes one other than named
	namedCode                   // the code named (normative: the text names it)
)

// erroneousCallsExposure, shared by the rules of judgeInvalid: each call
// that returned could have crashed (or returned a code the acceptance does
// not take).
var erroneousCallsExposure = rulebook.Exposure[robustExit]{Items: "erroneous calls"}

// judgeInvalid judges erroneous calls: a crash fails, and so does a code
// the acceptance does not take.
func judgeInvalid(cases []string, named string, accept acceptance) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := robustJob(x)
		in := set(cases...)
		var bad, got []string
		var returned []robustExit
		for _, e := range r.exits {
			if e.Group != "invalid" || !in[e.Case] {
				continue
			}
			n := len(got) // a call taken adds to got
			rc := r.rcs[fmt.Sprintf("%s/%d", e.Case, e.Arg)]
			switch {
			case e.Signal != 0:
				bad = append(bad, fmt.Sprintf("%s killed the process (%s)", e.Case, mpi.SignalName(e.Signal)))
			case rc == "" && libraryExit(e.Exit):
				bad = append(bad, fmt.Sprintf("%s ended the process with exit status %d without returning", e.Case, e.Exit))
			case e.Exit != 0 || rc == "":
				x.Errorf(r.res.Evidence(), "the process of case %s exited with %d and no record", e.Case, e.Exit)
			case rc == "MPI_SUCCESS" && accept != anyCode:
				bad = append(bad, fmt.Sprintf("%s returned MPI_SUCCESS", e.Case))
			case anyOf(rc, named) || accept == anyCode:
				got = append(got, fmt.Sprintf("%s %s", e.Case, rc))
			case accept == namedCode:
				bad = append(bad, fmt.Sprintf("%s returned %s, not %s", e.Case, rc, named))
			default:
				got = append(got, fmt.Sprintf("%s %s (not the code Table 23 names)", e.Case, rc))
			}
			if len(got) > n {
				returned = append(returned, e)
			}
		}
		x.FailOn(bad, "other cases: "+strings.Join(got, "; "))
		if len(got) == 0 {
			x.Errorf(r.res.Evidence(), "no case of %s was recorded", strings.Join(cases, ", "))
		}
		return erroneousCallsExposure.Pass(returned, "%s", strings.Join(got, "; "))
	}
}

// nullArgs names the OUT arguments a case's mask made NULL.
func nullArgs(fn string, mask int) string {
	params := map[string][]string{
		"MPI_T_cvar_get_info":     {"name", "name_len", "verbosity", "datatype", "enumtype", "desc", "desc_len", "bind", "scope"},
		"MPI_T_pvar_get_info":     {"name", "name_len", "verbosity", "var_class", "datatype", "enumtype", "desc", "desc_len", "bind", "readonly", "continuous", "atomic"},
		"MPI_T_category_get_info": {"name", "name_len", "desc", "desc_len", "num_cvars", "num_pvars", "num_categories"},
		"MPI_T_event_get_info":    {"name", "name_len", "verbosity", "array_of_datatypes", "array_of_displacements", "num_elements", "enumtype", "info", "desc", "desc_len", "bind"},
	}[fn]
	if mask == -1 {
		return "every OUT argument"
	}
	var out []string
	for i, n := range params {
		if mask&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}
