package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T return codes and error handlers (MPI-5.0 §15.3.10, §9.4), from one
// run of fixtures/c/mpit/errors.c.
var errorsCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-ERRORS",
	Needs: "mpit",
	Title: "MPI_T return codes: no error handler runs, the MPI_T_ERR_* codes are distinct and in range, and what MPI_Error_class and MPI_Error_string make of them",
	Rules: []rulebook.Rule{
		// §15.3.10: "Regardless of whether the return code is MPI_SUCCESS or
		// indicates that the procedure abnormally terminated, the MPI process
		// continues normal execution and does not invoke any MPI error handler."
		{ID: "ERR-1", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Normative,
			Text:      "no MPI_T routine invokes an MPI error handler, whether it succeeds or fails with a code the text names",
			Governs:   []string{"MPI_T_*"},
			Injectors: []string{"inject_mpit_errhandler_call", "inject_mpit_call_crash"}, Exposure: err1Exposure.Declared(), Judge: judgeErr1},
		// §15.3.1: "The values of the constants are monotonic in the order
		// listed in the table; i.e., MPI_T_VERBOSITY_USER_BASIC <
		// MPI_T_VERBOSITY_USER_DETAIL < ... < MPI_T_VERBOSITY_MPIDEV_ALL."
		// (The project's checklist has this as an interpretation; the text
		// states it.)
		{ID: "META-1", Source: "MPI-5.0 §15.3.1", Basis: rulebook.Normative,
			Text:      "the nine verbosity constants increase strictly in the order of §15.3.1's table",
			Injectors: []string{"inject_mpit_verbosity_order"}, Exposure: meta1Exposure.Declared(), Judge: judgeMeta1},
		// The same sentence of §15.3.10: after MPI_T calls that failed, the
		// process "continues normal execution": MPI works.
		{ID: "INIT-11", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Normative,
			Text:      "after MPI_T calls that failed with the codes the text names, MPI routines still work (an MPI_Allreduce gives the right sum)",
			Governs:   []string{"MPI_Allreduce", "MPI_Comm_size"},
			Injectors: []string{"inject_mpit_failure_sticks"}, Exposure: init11Exposure.Declared(), Judge: judgeInit11},
		// §15.3.10: "All return codes with the prefix MPI_T_ERR_ must be unique
		// values and cannot overlap with any error codes or error classes
		// returned by the MPI implementation. They must also satisfy 0 =
		// MPI_SUCCESS < MPI_T_ERR_ XXX ≤ MPI_ERR_LASTCODE."
		{ID: "ERR-2", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Normative,
			Text:      "the MPI_T_ERR_* codes are distinct, lie in (MPI_SUCCESS, MPI_ERR_LASTCODE] and equal no MPI error class of §9.4",
			Injectors: []string{"inject_mpit_code_overlap"}, Exposure: err2Exposure.Declared(), Judge: judgeErr2},
		// §9.4: "The function MPI_ERROR_CLASS maps each standard error code
		// (error class) onto itself." The MPI_T_ERR_* codes are "return codes"
		// (Table 23), not among the error classes of Tables 7-8: whether they
		// are error classes MPI_Error_class maps onto themselves is a reading.
		{ID: "ERR-7", Source: "MPI-5.0 §9.4, §15.3.10", Basis: rulebook.Interpretation,
			Text:     "MPI_Error_class maps each MPI_T_ERR_* code onto itself (reading 1: they are error classes) or not (reading 2: they are return codes only): which reading the library follows",
			Exposure: err7Exposure.Declared(), Judge: judgeErr7},
		// §9.4 defines MPI_Error_string for error codes and classes; what text
		// an MPI_T_ERR_* code gets is not said: a library that names them helps
		// the user who prints a failed MPI_T call's code.
		{ID: "ERR-8", Source: "MPI-5.0 §9.4, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_Error_string gives each MPI_T_ERR_* code a text of its own, not another code's and not an \"unknown\" one",
			Injectors: []string{"inject_mpit_error_string_same"}, Exposure: err8Exposure.Declared(), Judge: judgeErr8},
	},
})

type errHandlerRec struct {
	Call         string `json:"call"`
	RC           string `json:"rc"`
	HandlerCalls int    `json:"handler_calls"`
}

type errClassRec struct {
	Name     string `json:"name"`
	Value    int    `json:"value"`
	ClassRC  int    `json:"class_rc"`
	Class    int    `json:"class"`
	StringRC int    `json:"string_rc"`
	String   string `json:"string"`
}

type mpiClassRec struct {
	Name  string `json:"name"`
	Value int    `json:"value"`
}

// errorsRanks: the errors job runs on two ranks, so that the MPI_Allreduce
// after the failed MPI_T calls (INIT-11) communicates.
const errorsRanks = 2

// errorsRun is the errors job with the records of every rank.
func errorsRun(x *rulebook.X) *mpi.Records {
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_errors", Ranks: errorsRanks, Program: x.Fixture("mpit_errors")})
	return recs
}

// errorsJob is rank 0's records of the errors job: every rank makes the
// same calls, and the rules but INIT-11 judge one rank's.
func errorsJob(x *rulebook.X) *mpi.Records {
	recs := errorsRun(x)
	rank0 := &mpi.Records{Fixture: recs.Fixture}
	for _, r := range recs.All {
		if r.Rank == 0 {
			rank0.All = append(rank0.All, r)
		}
	}
	return rank0
}

func toolClasses(x *rulebook.X) []errClassRec {
	cls := mpi.Decode[errClassRec](errorsJob(x), "class")
	if len(cls) == 0 {
		x.Errorf("", "mpit_errors recorded no MPI_T_ERR_* code")
	}
	return cls
}

// err1Exposure: the rule covers calls that succeed as well as those that
// fail: each could have invoked the handler set on MPI_COMM_WORLD and
// MPI_COMM_SELF.
var err1Exposure = rulebook.Exposure[errHandlerRec]{Items: "MPI_T calls",
	When: "every call, succeeding or failing (each could have invoked the error handler)"}

func judgeErr1(x *rulebook.X) verdict.Verdict {
	recs := mpi.Decode[errHandlerRec](errorsJob(x), "handler")
	if len(recs) == 0 {
		x.Errorf("", "mpit_errors recorded no MPI_T call")
	}
	var bad, failing []string
	before := 0
	for _, r := range recs {
		if r.HandlerCalls > before {
			bad = append(bad, fmt.Sprintf("%s (returned %s) invoked the error handler %d time(s)", r.Call, r.RC, r.HandlerCalls-before))
		}
		before = r.HandlerCalls
		if r.RC != "MPI_SUCCESS" {
			failing = append(failing, fmt.Sprintf("%s: %s", r.Call, r.RC))
		}
	}
	x.FailOn(bad, "")
	return err1Exposure.Pass(recs, "%d MPI_T calls, %d of them failing (%s), invoked no error handler", len(recs), len(failing), examples(failing))
}

// err2Exposure: each code could have been equal to another, out of range
// or a class.
var err2Exposure = rulebook.Exposure[errClassRec]{Items: "MPI_T_ERR_* codes",
	When: "every code (each could have equalled another code or a class, or fallen out of range)"}

func judgeErr2(x *rulebook.X) verdict.Verdict {
	recs := errorsJob(x)
	tool := toolClasses(x)
	mpiClasses := mpi.Decode[mpiClassRec](recs, "mpi_class")
	// through a header overlay, the values the header then gives
	var names []string
	for _, c := range tool {
		names = append(names, c.Name)
	}
	for _, c := range mpiClasses {
		names = append(names, c.Name)
	}
	if ov := overlaidValues(x, names); ov != nil {
		for i := range tool {
			tool[i].Value = ov[tool[i].Name]
		}
		for i := range mpiClasses {
			mpiClasses[i].Value = ov[mpiClasses[i].Name]
		}
	}
	last, classes := 0, map[int][]string{}
	for _, c := range mpiClasses {
		if c.Name == "MPI_ERR_LASTCODE" {
			last = c.Value
			continue
		}
		classes[c.Value] = append(classes[c.Value], c.Name)
	}
	if last == 0 {
		x.Errorf("", "mpit_errors recorded no MPI_ERR_LASTCODE")
	}
	var bad []string
	seen := map[int]string{}
	for _, c := range tool {
		if other, ok := seen[c.Value]; ok {
			bad = append(bad, fmt.Sprintf("%s = %s = %d", c.Name, other, c.Value))
		}
		seen[c.Value] = c.Name
		if c.Value <= 0 || c.Value > last {
			bad = append(bad, fmt.Sprintf("%s = %d is outside (MPI_SUCCESS, MPI_ERR_LASTCODE = %d]", c.Name, c.Value, last))
		}
		if names := classes[c.Value]; len(names) > 0 {
			bad = append(bad, fmt.Sprintf("%s = %d is also %s", c.Name, c.Value, strings.Join(names, ", ")))
		}
	}
	x.FailOn(bad, "")
	return err2Exposure.Pass(tool, "%d MPI_T_ERR_* codes, distinct, in (0, %d], none equal to any of %d MPI error classes", len(tool), last, len(classes))
}

// err7Exposure: the class is preset to -1, so each code's answer shows a
// reading.
var err7Exposure = rulebook.Exposure[errClassRec]{Items: "MPI_T_ERR_* codes",
	When: "every code (the class is preset to -1: each code's answer shows a reading)"}

func judgeErr7(x *rulebook.X) verdict.Verdict {
	var other []string
	tool := toolClasses(x)
	for _, c := range tool {
		if c.ClassRC != 0 || c.Class != c.Value {
			other = append(other, fmt.Sprintf("%s (%d): rc %d, class %d", c.Name, c.Value, c.ClassRC, c.Class))
		}
	}
	if len(other) == 0 {
		return err7Exposure.Pass(tool, "reading 1: MPI_Error_class maps all %d MPI_T_ERR_* codes onto themselves", len(tool))
	}
	v := err7Exposure.Pass(tool, "reading 2: MPI_Error_class does not map %d of %d MPI_T_ERR_* codes onto themselves: %s", len(other), len(tool), examples(other))
	v.Evidence = strings.Join(other, "\n")
	return v
}

// err8Exposure: the text buffer starts empty, so a text the library did
// not write shows.
var err8Exposure = rulebook.Exposure[errClassRec]{Items: "MPI_T_ERR_* codes",
	When: "every code (the text buffer starts empty: a text the library did not write shows)"}

func judgeErr8(x *rulebook.X) verdict.Verdict {
	tool := toolClasses(x)
	byText := map[string][]string{}
	var bad []string
	for _, c := range tool {
		switch {
		case c.StringRC != 0:
			bad = append(bad, fmt.Sprintf("%s: MPI_Error_string returned %d", c.Name, c.StringRC))
		case strings.TrimSpace(c.String) == "" || strings.Contains(strings.ToLower(c.String), "unknown error"):
			bad = append(bad, fmt.Sprintf("%s: %q", c.Name, c.String))
		default:
			byText[c.String] = append(byText[c.String], c.Name)
		}
	}
	texts := make([]string, 0, len(byText))
	for t := range byText {
		texts = append(texts, t)
	}
	sort.Strings(texts)
	for _, t := range texts {
		if names := byText[t]; len(names) > 1 {
			bad = append(bad, fmt.Sprintf("%s share the text %q", strings.Join(names, " and "), t))
		}
	}
	var all []string
	for _, c := range tool {
		all = append(all, fmt.Sprintf("%s (%d): %q", c.Name, c.Value, c.String))
	}
	x.FailOn(bad, strings.Join(all, "\n"))
	return err8Exposure.Pass(tool, "MPI_Error_string gives each of the %d MPI_T_ERR_* codes its own text", len(tool))
}

type afterFailures struct {
	AllreduceRC int `json:"allreduce_rc"`
	Sum         int `json:"sum"`
	Want        int `json:"want"`
}

// init11Exposure: after each failed call MPI could have stopped working.
var init11Exposure = rulebook.Exposure[errHandlerRec]{Items: "failed MPI_T calls",
	When: "every failed call of every rank (after each MPI could have stopped working)"}

func judgeInit11(x *rulebook.X) verdict.Verdict {
	recs := errorsRun(x)
	// the failed MPI_T calls of each rank, then the reduction over all
	// ranks (the sum of 3 from each)
	failing := map[int][]string{}
	var failed []errHandlerRec
	for _, rec := range recs.Kind("handler", -1) {
		var r errHandlerRec
		if err := rec.Decode(&r); err != nil {
			x.Errorf("", "%v", err)
		}
		if r.RC != "MPI_SUCCESS" {
			failing[rec.Rank] = append(failing[rec.Rank], r.Call)
			failed = append(failed, r)
		}
	}
	if len(failed) == 0 {
		x.Unsupported("not measurable here: no MPI_T call failed")
	}
	var bad, counts []string
	ranks := 0
	for _, rec := range recs.Kind("after_failures", -1) {
		var af afterFailures
		if err := rec.Decode(&af); err != nil {
			x.Errorf("", "%v", err)
		}
		ranks++
		if af.Want != 3*errorsRanks {
			x.Errorf("", "rank %d: the MPI_Allreduce after the failed calls ran over %d rank(s), not %d", rec.Rank, af.Want/3, errorsRanks)
		}
		f := failing[rec.Rank]
		counts = append(counts, fmt.Sprint(len(f)))
		if af.AllreduceRC != 0 || af.Sum != af.Want {
			bad = append(bad, fmt.Sprintf("rank %d: after %d failed MPI_T calls (%s), MPI_Allreduce over %d ranks returned %d with sum %d, want %d", rec.Rank, len(f), examples(f), errorsRanks, af.AllreduceRC, af.Sum, af.Want))
		}
	}
	if ranks < errorsRanks {
		x.Errorf("", "mpit_errors recorded the MPI_Allreduce after the failed calls on %d of %d ranks", ranks, errorsRanks)
	}
	x.FailOn(bad, "")
	return init11Exposure.Pass(failed, "after %s failed MPI_T calls on the %d ranks, MPI_Allreduce over them gave %d on every rank", strings.Join(counts, " and "), errorsRanks, 3*errorsRanks)
}

// verbosityNames are the verbosity constants in the order of §15.3.1's
// table, as errors.c records them.
var verbosityNames = []string{"MPI_T_VERBOSITY_USER_BASIC", "MPI_T_VERBOSITY_USER_DETAIL", "MPI_T_VERBOSITY_USER_ALL",
	"MPI_T_VERBOSITY_TUNER_BASIC", "MPI_T_VERBOSITY_TUNER_DETAIL", "MPI_T_VERBOSITY_TUNER_ALL",
	"MPI_T_VERBOSITY_MPIDEV_BASIC", "MPI_T_VERBOSITY_MPIDEV_DETAIL", "MPI_T_VERBOSITY_MPIDEV_ALL"}

// meta1Exposure: each of the nine constants could have been out of order.
var meta1Exposure = rulebook.Exposure[int]{Items: "verbosity constants",
	When: "every constant (each could have been out of order)"}

func judgeMeta1(x *rulebook.X) verdict.Verdict {
	v := mpi.Decode[struct {
		Values []int `json:"values"`
	}](errorsJob(x), "verbosity")
	if len(v) == 0 || len(v[0].Values) != 9 {
		x.Errorf("", "mpit_errors recorded no verbosity constants")
	}
	if ov := overlaidValues(x, verbosityNames); ov != nil {
		for i, n := range verbosityNames {
			v[0].Values[i] = ov[n]
		}
	}
	for i := 1; i < 9; i++ {
		if v[0].Values[i] <= v[0].Values[i-1] {
			x.Failf("", "the verbosity constants do not increase in table order: %v (the %d. is not above the %d.)", v[0].Values, i+1, i)
		}
	}
	return meta1Exposure.Pass(v[0].Values, "the verbosity constants increase in table order: %v", v[0].Values)
}
