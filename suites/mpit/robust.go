package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.6, 16.3.7, 16.3.9: "If any OUT parameter to
// MPI_T_CVAR_GET_INFO [MPI_T_PVAR_GET_INFO, MPI_T_CATEGORY_GET_INFO] is a
// NULL pointer, the implementation will ignore the parameter and not return a
// value for the parameter"; §16.3.8: "If any INOUT or OUT argument to
// MPI_T_EVENT_GET_INFO is a NULL pointer, the implementation will ignore the
// argument". Each OUT argument NULL in turn, then all of them: MPI_SUCCESS
// and no crash. Null and freed handles are recorded but not judged: §16.3.10
// makes their outcome undefined ("The MPI implementation is not required to
// check all user-provided parameters").
var robustCheck = harness.Define(harness.Check{
	ID:        "MPIT-ROBUST-001",
	Clause:    "MPI-4.1:16.3.6",
	Needs:     "mpit",
	Title:     "cvar, pvar, category and event get_info ignore NULL OUT arguments (one at a time and all at once) without failing or crashing; what null and freed handles do is recorded",
	Injectors: []string{"inject_mpit_null_out_crash"},
	Run:       runRobust,
})

type robustCase struct {
	Group string `json:"group"`
	Case  string `json:"case"`
	Arg   int    `json:"arg"`
	RC    string `json:"rc"`
}

type robustExit struct {
	Group  string `json:"group"`
	Case   string `json:"case"`
	Arg    int    `json:"arg"`
	Signal int    `json:"signal"`
	Exit   int    `json:"exit"`
}

func runRobust(x *harness.X) harness.Verdict {
	res, recs, err := x.LaunchOnce(harness.Job{Name: "mpit_robust", Ranks: 1, Program: x.Fixture("mpit_robust")})
	if err != nil {
		return harness.Verdict{Status: harness.Error, Reason: err.Error(), Evidence: res.Evidence()}
	}
	var p problems
	p.evidence = res.Evidence()
	if !res.OK() {
		p.add("the process died outside the per-case children: %s", res.Problem())
	}
	rcs := map[string]string{}
	for _, c := range decode[robustCase](recs, "case") {
		rcs[fmt.Sprintf("%s/%d", c.Case, c.Arg)] = c.RC
	}
	judged := 0
	var ub []string
	for _, e := range decode[robustExit](recs, "exit") {
		key := fmt.Sprintf("%s/%d", e.Case, e.Arg)
		what := e.Case
		if e.Group == "null_out" {
			what = fmt.Sprintf("%s with %s NULL", e.Case, nullArgs(e.Case, e.Arg))
		}
		if e.Group != "null_out" {
			switch {
			case e.Signal != 0:
				ub = append(ub, fmt.Sprintf("%s died of %s", what, signalName(e.Signal)))
			case rcs[key] != "":
				ub = append(ub, fmt.Sprintf("%s %s", what, rcs[key]))
			}
			continue
		}
		judged++
		switch {
		case e.Signal != 0:
			p.add("%s: the process died of %s", what, signalName(e.Signal))
		case e.Exit != 0:
			p.add("%s: the process exited with %d", what, e.Exit)
		case rcs[key] != "MPI_SUCCESS":
			p.add("%s returned %s, not MPI_SUCCESS (NULL OUT arguments are to be ignored)", what, rcs[key])
		}
	}
	if judged == 0 && res.OK() {
		x.Unsupported("no control variable, performance variable, category or event type answered get_info")
	}
	if len(ub) > 0 {
		p.evidence = "not judged (undefined behaviour, §16.3.10): " + strings.Join(ub, "; ") + "\n\n" + p.evidence
	}
	p.fail(x, "calls")
	reason := fmt.Sprintf("%d get_info calls with NULL OUT arguments succeeded", judged)
	if len(ub) > 0 {
		reason += "; not judged (undefined): " + strings.Join(ub, "; ")
	}
	return harness.Verdict{Reason: reason}
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
