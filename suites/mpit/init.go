package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T initialization and finalization (MPI-5.0 §15.3.4), judged from one
// run of fixtures/c/mpit/init_finalize.c: nested calls before MPI_Init,
// between MPI_Init and MPI_Finalize and after MPI_Finalize; finalizing to
// zero and initializing again ("down_up") once in a fresh process that
// never calls MPI_Init and once at the end of the main process, after
// MPI_Finalize; one finalize too many in a fresh process of its own.
var initFinalize = rulebook.Define(rulebook.Check{
	ID:    "MPIT-INIT",
	Needs: "mpit",
	Title: "MPI_T_init_thread/MPI_T_finalize: nesting, counting, re-initialization, and use before MPI_Init, in between and after MPI_Finalize",
	Rules: []rulebook.Rule{
		// §15.3: "In particular, the routines of this interface can be called
		// before MPI is initialized and after MPI is finalized." MPI_T_finalize
		// included (§15.3.4: "an application must have called MPI_T_INIT_THREAD
		// and MPI_T_FINALIZE an equal number of times").
		{ID: "INIT-1", Source: "MPI-5.0 §15.3, §15.3.4", Basis: rulebook.Normative,
			Text:      "MPI_T_init_thread, MPI_T_finalize and MPI_T queries succeed (and do not crash) before MPI_Init and after MPI_Finalize",
			Injectors: []string{"inject_mpit_init_broken"}, Exposure: initCallsExposure.Declared(), Judge: judgeInit1},
		// §15.3.4: "A user can initialize the MPI tool information interface by
		// calling MPI_T_INIT_THREAD, which can be called multiple times."
		{ID: "INIT-2", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "a nested MPI_T_init_thread (the interface already initialized) returns MPI_SUCCESS",
			Injectors: []string{"inject_mpit_init_broken"}, Exposure: initCallsExposure.Declared(), Judge: judgeInit2},
		// §15.3.4: "Calling this routine when the MPI tool information interface
		// is already initialized has no effect beyond increasing the reference
		// count of how often the interface has been initialized." and "The call
		// returns in provided information about the actual level of thread
		// support that will be provided": the level in force, unchanged.
		{ID: "INIT-4", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "a nested MPI_T_init_thread, asking for another level, returns in provided the level the outer call provided (it changes nothing but the count)",
			Injectors: []string{"inject_mpit_nested_level"}, Exposure: init4Exposure.Declared(), Judge: judgeInit4},
		// §15.3.4: "The call returns in provided information about the actual level of
		// thread support ... It can be one of the four values".
		{ID: "INIT-3", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "every successful MPI_T_init_thread, nested ones included, returns one of the four MPI_THREAD_* levels in provided",
			Injectors: []string{"inject_mpit_init_broken"}, Exposure: init3Exposure.Declared(), Judge: judgeInit3},
		// §15.3.4: "As long as the number of calls to MPI_T_FINALIZE is smaller
		// than the number of calls to MPI_T_INIT_THREAD up to the current point of
		// execution, the MPI tool information interface remains initialized and
		// calls to its routines are permissible."
		{ID: "INIT-5", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "while MPI_T_finalize has been called fewer times than MPI_T_init_thread, the interface stays initialized and calls succeed",
			Injectors: []string{"inject_mpit_init_broken"}, Exposure: initCallsExposure.Declared(), Judge: judgeInit5},
		// §15.3.4: MPI_T_FINALIZE "may be called as often as the corresponding
		// MPI_T_INIT_THREAD routine up to the current point of execution. Calling
		// it more times returns a corresponding return code."
		{ID: "INIT-6", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "one MPI_T_finalize more than MPI_T_init_thread returns an error code",
			Injectors: []string{"inject_mpit_finalize_extra"}, Exposure: init6Exposure.Declared(), Judge: judgeInit6},
		// §15.3.4: "All programs or tools that use the MPI tool information
		// interface must initialize the MPI tool information interface in the
		// processes that will use the interface before calling any other of its
		// routines." A call while uninitialized is erroneous (§15.3.10:
		// undefined); Table 23 names MPI_T_ERR_NOT_INITIALIZED ("Interface not
		// initialized"): quality.
		{ID: "INIT-7", Source: "MPI-5.0 §15.3.4, §15.3.10", Basis: rulebook.Quality,
			Text:      "a call while the interface is not initialized (after finalizing to zero) returns MPI_T_ERR_NOT_INITIALIZED and does not crash",
			Injectors: []string{"inject_mpit_unchecked"}, Exposure: init7Exposure.Declared(), Judge: judgeInit7},
		// §15.3.4: "The user can reinitialize the interface by a subsequent call to
		// MPI_T_INIT_THREAD."
		{ID: "INIT-8", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "after finalizing to zero, MPI_T_init_thread initializes the interface again and calls succeed (before MPI_Init and after MPI_Finalize)",
			Injectors: []string{"inject_mpit_init_broken"}, Exposure: init8Exposure.Declared(), Judge: judgeInit8},
		// The text says nothing of how a process ends once its MPI_T calls
		// are balanced; a library whose exit-time code aborts because the
		// interface was initialized again after MPI_Finalize is not robust.
		{ID: "INIT-X1", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Quality,
			Text:      "a process that initialized MPI_T again after MPI_Finalize, used it and finalized it exits normally when main returns",
			Injectors: []string{"inject_mpit_exit_abort"}, Exposure: initX1Exposure.Declared(), Judge: judgeInitX1},
		// §15.3: "The MPI tool information interface can be used independently
		// from the MPI communication functionality. In particular, the routines
		// of this interface can be called before MPI is initialized and after MPI
		// is finalized. In order to support this behavior cleanly, the MPI tool
		// information interface uses separate initialization and finalization
		// routines." Its initialization survives MPI_Init.
		{ID: "INIT-9", Source: "MPI-5.0 §15.3, §15.3.4", Basis: rulebook.Normative,
			Text:      "initialized before MPI_Init, the interface stays usable between MPI_Init and MPI_Finalize (queries, nested finalize, a pvar session)",
			Injectors: []string{"inject_mpit_init_broken"}, Exposure: initCallsExposure.Declared(), Judge: judgeInit9},
	},
})

type stepRec struct {
	Step  int    `json:"step"`
	Phase string `json:"phase"`
	Call  string `json:"call"`
	RC    string `json:"rc"`
	Value int    `json:"value"`
}

type providedRec struct {
	Phase    string `json:"phase"`
	Call     string `json:"call"`
	Required string `json:"required"`
	Provided string `json:"provided"`
	Raw      int    `json:"raw"`
}

type downUpRec struct {
	Phase  string `json:"phase"`
	Signal int    `json:"signal"`
	Exit   int    `json:"exit"`
}

type phaseRec struct {
	Phase string `json:"phase"`
	RC    string `json:"rc"`
}

// initRun is what the one run of mpit_init_finalize recorded.
type initRun struct {
	res      *mpi.Result
	steps    []stepRec
	provided []providedRec
	before   *downUpRec // the exit of the fresh "before" process
	// the exit of the fresh process making a call while uninitialized
	uninitExit *downUpRec
	// the exit of the fresh process finalizing once too often
	extraExit *downUpRec
	done      map[string]bool
	uninit    map[string]string // phase -> rc of the call while uninitialized
	// crashAfter is the step after which the main process died (nil: it did not).
	crashAfter *stepRec
	crash      string
}

func initJob(x *rulebook.X) *initRun {
	res, recs, err := x.LaunchOnce(mpi.Job{Name: "mpit_init_finalize", Ranks: 1, Program: x.Fixture("mpit_init_finalize")})
	if err != nil {
		x.Errorf(res.Evidence(), "%v", err)
	}
	r := &initRun{res: res, steps: mpi.Decode[stepRec](recs, "step"), provided: mpi.Decode[providedRec](recs, "provided"),
		done: map[string]bool{}, uninit: map[string]string{}}
	for _, d := range mpi.Decode[downUpRec](recs, "down_up") {
		if d.Phase == "before" {
			d := d
			r.before = &d
		}
	}
	for _, d := range mpi.Decode[downUpRec](recs, "uninitialized_exit") {
		d := d
		r.uninitExit = &d
	}
	for _, d := range mpi.Decode[downUpRec](recs, "extra_exit") {
		d := d
		r.extraExit = &d
	}
	for _, d := range mpi.Decode[phaseRec](recs, "down_up_done") {
		r.done[d.Phase] = true
	}
	for _, u := range mpi.Decode[phaseRec](recs, "uninitialized") {
		r.uninit[u.Phase] = u.RC
	}
	if !res.OK() {
		r.crash = res.Problem()
		// the main process's last step: the "before" process's steps come
		// before the parent's next ones, so the last record is the parent's
		if len(r.steps) > 0 {
			r.crashAfter = &r.steps[len(r.steps)-1]
		}
		if r.crashAfter == nil {
			x.Errorf(res.Evidence(), "mpit_init_finalize died before its first call: %s", r.crash)
		}
	}
	return r
}

// stage says which rule the call following a step belongs to.
func (r *initRun) stageAfter(s *stepRec) string {
	switch {
	case r.done[s.Phase]:
		// the sequence ended and the process died on its way out
		return "INIT-X1"
	case s.Phase == "between":
		return "INIT-9"
	case strings.Contains(s.Call, "(again)"):
		return "INIT-8"
	}
	return "INIT-1"
}

// initCallsExposure (INIT-1, INIT-2, INIT-5, INIT-9, through judge): every
// call recorded returned, and could have returned an error.
var initCallsExposure = rulebook.Exposure[stepRec]{Items: "calls", When: "every call recorded (each returned, and could have returned an error)"}

// judgeSteps fails on the steps a rule owns that did not succeed, and on a
// crash of the main process in a call of the rule.
func (r *initRun) judge(x *rulebook.X, rule string, owns func(s stepRec) bool, pass string) verdict.Verdict {
	var bad []string
	var calls []stepRec
	for _, s := range r.steps {
		if !owns(s) {
			continue
		}
		calls = append(calls, s)
		if s.RC != "MPI_SUCCESS" {
			bad = append(bad, fmt.Sprintf("%s: %s returned %s", phaseWord(s.Phase), s.Call, s.RC))
		}
	}
	if r.crashAfter != nil && r.stageAfter(r.crashAfter) == rule {
		bad = append(bad, fmt.Sprintf("%s: the process died (%s) in the call after %s (%s)", phaseWord(r.crashAfter.Phase), r.crash, r.crashAfter.Call, r.crashAfter.RC))
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n")+"\n\n"+r.res.Evidence(), "%s", verdict.FirstAndMore(bad))
	}
	if len(calls) == 0 {
		x.Unsupported("not measurable here: the calls of this rule were not reached")
	}
	return initCallsExposure.Pass(calls, "%d calls succeeded: %s", len(calls), pass)
}

func judgeInit1(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	return r.judge(x, "INIT-1", func(s stepRec) bool {
		return (s.Phase == "before" || s.Phase == "after") && !strings.Contains(s.Call, "(") && !r.inDownUp(s)
	}, "MPI_T_init_thread, MPI_T_cvar_get_num, MPI_T_cvar_get_info and MPI_T_finalize before MPI_Init and after MPI_Finalize")
}

// inDownUp tells the steps of a down_up sequence after its first finalize
// (judged by INIT-6 and INIT-8) apart; its finalize to zero stays INIT-1's.
func (r *initRun) inDownUp(s stepRec) bool {
	return strings.Contains(s.Call, "(again)") || strings.Contains(s.Call, "(one too many)")
}

func judgeInit2(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	return r.judge(x, "INIT-2", func(s stepRec) bool { return s.Call == "MPI_T_init_thread (nested)" },
		"nested MPI_T_init_thread before MPI_Init and between MPI_Init and MPI_Finalize")
}

// init3Exposure: provided is preset to -4711, so a level the library did
// not write shows.
var init3Exposure = rulebook.Exposure[providedRec]{Items: "successful MPI_T_init_thread calls",
	When: "every one (provided is preset to -4711: a level the library did not write shows)"}

func judgeInit3(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	var bad, levels []string
	var calls []providedRec
	for _, pr := range r.provided {
		if pr.Provided == "call failed" {
			continue
		}
		if pr.Provided == "none" {
			bad = append(bad, fmt.Sprintf("%s: %s(%s) returned provided = %d, not one of the four thread levels", phaseWord(pr.Phase), pr.Call, pr.Required, pr.Raw))
			continue
		}
		calls = append(calls, pr)
		levels = append(levels, fmt.Sprintf("%s→%s", strings.TrimPrefix(pr.Required, "MPI_THREAD_"), strings.TrimPrefix(pr.Provided, "MPI_THREAD_")))
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	if len(levels) == 0 {
		x.Unsupported("not measurable here: no MPI_T_init_thread succeeded")
	}
	return init3Exposure.Pass(calls, "provided %s", strings.Join(levels, " "))
}

// nestedInit is a nested MPI_T_init_thread judged, with the level it asked
// for and the level the outer call provided.
type nestedInit struct{ required, outer string }

// init4Exposure: a nested call asking for the level the outer one provided
// gets it either way.
var init4Exposure = rulebook.Exposure[nestedInit]{Items: "nested MPI_T_init_thread calls",
	When:  "when asking for another level than the outer call provided (one asking for that level gets it either way)",
	Could: func(n nestedInit) bool { return n.required != n.outer }}

func judgeInit4(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	outer := ""
	var bad, seen []string
	var nested []nestedInit
	for _, pr := range r.provided {
		switch {
		case pr.Call == "MPI_T_init_thread" && pr.Phase == "before" && pr.Provided != "call failed" && pr.Provided != "none":
			if outer == "" {
				outer = pr.Provided
			}
		case strings.Contains(pr.Call, "(nested)") && outer != "" && pr.Provided != "call failed":
			// A provided left unset ("none") is not the level in force
			// either: judged here, as INIT-3 judges it for not being one of
			// the four levels.
			seen = append(seen, fmt.Sprintf("%s %s(%s)→%s", phaseWord(pr.Phase), pr.Call, strings.TrimPrefix(pr.Required, "MPI_THREAD_"), strings.TrimPrefix(pr.Provided, "MPI_THREAD_")))
			nested = append(nested, nestedInit{required: pr.Required, outer: outer})
			if pr.Provided != outer {
				bad = append(bad, fmt.Sprintf("%s: %s(%s) returned provided = %s, while the outer MPI_T_init_thread provided %s", phaseWord(pr.Phase), pr.Call, pr.Required, pr.Provided, outer))
			}
		}
	}
	x.FailOn(bad, "")
	if len(seen) == 0 {
		x.Unsupported("not measurable here: no nested MPI_T_init_thread succeeded after an outer one that provided a level")
	}
	return init4Exposure.Pass(nested, "outer call provided %s; nested: %s", strings.TrimPrefix(outer, "MPI_THREAD_"), strings.Join(seen, ", "))
}

func judgeInit5(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	return r.judge(x, "INIT-5", func(s stepRec) bool {
		return s.Call == "MPI_T_finalize (nested)" || s.Call == "MPI_T_cvar_get_num (count still 1)"
	}, "a nested MPI_T_finalize and a query after it, before MPI_Init and between MPI_Init and MPI_Finalize")
}

// init6Exposure: each extra MPI_T_finalize recorded could have returned
// MPI_SUCCESS.
var init6Exposure = rulebook.Exposure[stepRec]{Items: "extra MPI_T_finalize calls",
	When: "every one recorded (each could have returned MPI_SUCCESS)"}

func judgeInit6(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	var bad, got []string
	var extra []stepRec
	for _, s := range r.steps {
		if s.Call != "MPI_T_finalize (one too many)" {
			continue
		}
		extra = append(extra, s)
		got = append(got, s.RC)
		if s.RC == "MPI_SUCCESS" {
			bad = append(bad, fmt.Sprintf("%s: %s returned MPI_SUCCESS, not an error code", phaseWord(s.Phase), s.Call))
		}
	}
	if e := r.extraExit; e != nil && e.Signal != 0 {
		bad = append(bad, fmt.Sprintf("before MPI_Init: initializing once and finalizing twice, the process died of %s (after %d of the 3 calls)", mpi.SignalName(e.Signal), r.extraCalls()))
	}
	// A library may end the process in the call with an exit status of its
	// own (a debug build's SIGSEGV handler exits 1): the extra MPI_T_finalize
	// then returned no code at all. Only when the process got as far as that
	// call (the finalize to zero returned) and no further.
	if e := r.extraExit; e != nil && e.Signal == 0 && libraryExit(e.Exit) {
		_, extra := r.step("MPI_T_finalize (one too many)")
		z, zero := r.step("MPI_T_finalize (to zero)")
		if !extra && zero && z.RC == "MPI_SUCCESS" {
			bad = append(bad, fmt.Sprintf("before MPI_Init: initializing once and finalizing twice, the process ended with exit status %d in the extra MPI_T_finalize, which returned no code", e.Exit))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	if len(got) == 0 {
		x.Errorf(r.res.Evidence(), "the process finalizing once too often recorded no extra MPI_T_finalize")
	}
	return init6Exposure.Pass(extra, "one MPI_T_finalize too many returns %s", strings.Join(uniq(got), ", "))
}

// step is the first step of that call.
func (r *initRun) step(call string) (stepRec, bool) {
	for _, s := range r.steps {
		if s.Call == call {
			return s, true
		}
	}
	return stepRec{}, false
}

// extraCalls counts the calls the process finalizing twice recorded.
func (r *initRun) extraCalls() int {
	n := 0
	for _, s := range r.steps {
		switch s.Call {
		case "MPI_T_init_thread (to finalize twice)", "MPI_T_finalize (to zero)", "MPI_T_finalize (one too many)":
			n++
		}
	}
	return n
}

func (r *initRun) unreached() string {
	if r.crashAfter != nil {
		return fmt.Sprintf("the process died after %s: %s", r.crashAfter.Call, r.crash)
	}
	return "the sequence did not run"
}

// init7Exposure: the one call while uninitialized could have returned
// another code.
var init7Exposure = rulebook.Exposure[phaseRec]{Items: "calls while uninitialized",
	When: "every one made (it could have returned another code)"}

func judgeInit7(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	rc, ok := r.uninit["before"]
	switch {
	case ok && rc != "MPI_T_ERR_NOT_INITIALIZED":
		x.Failf("", "MPI_T_cvar_get_num with the interface initialized and finalized to zero returned %s, not MPI_T_ERR_NOT_INITIALIZED", rc)
	case ok:
		return init7Exposure.Pass([]phaseRec{{Phase: "before", RC: rc}}, "MPI_T_cvar_get_num with the interface finalized to zero returns MPI_T_ERR_NOT_INITIALIZED")
	case r.uninitExit != nil && r.uninitExit.Signal != 0:
		x.Failf("", "MPI_T_cvar_get_num with the interface initialized and finalized to zero killed the process (%s)", mpi.SignalName(r.uninitExit.Signal))
	case r.uninitExit != nil && libraryExit(r.uninitExit.Exit) && r.opensFresh():
		// a debug build's SIGSEGV handler exits 1: a crash all the same
		x.Failf(r.res.Evidence(), "MPI_T_cvar_get_num with the interface initialized and finalized to zero ended the process with exit status %d instead of returning (the same MPI_T_init_thread and MPI_T_finalize returned in a fresh process of their own)", r.uninitExit.Exit)
	}
	x.Errorf(r.res.Evidence(), "the process making a call while uninitialized recorded nothing")
	return verdict.Verdict{}
}

// opensFresh says whether the process finalizing twice got through the
// opening the process calling while uninitialized shares with it (a fresh
// process, MPI_T_init_thread(MPI_THREAD_SINGLE), MPI_T_finalize to zero):
// that one, which records nothing before its call, then ended in the call.
func (r *initRun) opensFresh() bool {
	i, ok1 := r.step("MPI_T_init_thread (to finalize twice)")
	z, ok2 := r.step("MPI_T_finalize (to zero)")
	return ok1 && ok2 && i.RC == "MPI_SUCCESS" && z.RC == "MPI_SUCCESS"
}

// init8Exposure: each call after initializing again could have failed.
var init8Exposure = rulebook.Exposure[stepRec]{Items: "calls after initializing again",
	When: "every call recorded (each could have failed)"}

func judgeInit8(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	var bad []string
	var again []stepRec
	for _, s := range r.steps {
		if strings.Contains(s.Call, "(again)") {
			again = append(again, s)
			if s.RC != "MPI_SUCCESS" {
				bad = append(bad, fmt.Sprintf("%s: %s returned %s", phaseWord(s.Phase), s.Call, s.RC))
			}
		}
	}
	// the fresh "before" process: it died between finalizing to zero and
	// the end of the sequence
	if b := r.before; b != nil && !r.done["before"] {
		last := "no call"
		for _, s := range r.steps {
			if s.Phase == "before" && strings.Contains(s.Call, "(again)") {
				last = fmt.Sprintf("%s (%s)", s.Call, s.RC)
			}
		}
		switch {
		case b.Signal != 0 && last != "no call":
			bad = append(bad, fmt.Sprintf("before MPI_Init: finalizing to zero, then MPI_T_init_thread and a call: the process died of %s after %s", mpi.SignalName(b.Signal), last))
		case b.Exit != 0 && last != "no call":
			bad = append(bad, fmt.Sprintf("before MPI_Init: the finalize-to-zero and initialize-again sequence exited with status %d after %s", b.Exit, last))
		}
	}
	if r.crashAfter != nil && r.stageAfter(r.crashAfter) == "INIT-8" {
		bad = append(bad, fmt.Sprintf("%s: finalizing to zero, then MPI_T_init_thread and a call: the process died (%s) after %s (%s)", phaseWord(r.crashAfter.Phase), r.crash, r.crashAfter.Call, r.crashAfter.RC))
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n")+"\n\n"+r.res.Evidence(), "%s", verdict.FirstAndMore(bad))
	}
	if len(again) == 0 {
		x.Unsupported("not measurable here: no MPI_T_init_thread after finalizing to zero was reached (%s)", r.unreached())
	}
	var where []string
	for _, p := range []string{"before", "after"} {
		if r.done[p] {
			where = append(where, phaseWord(p))
		}
	}
	return init8Exposure.Pass(again, "re-initialized and used %s (%d calls succeeded)", strings.Join(where, " and "), len(again))
}

// initX1Exposure: the one process that initialized MPI_T again after
// MPI_Finalize could have died on its way out.
var initX1Exposure = rulebook.Exposure[*mpi.Result]{Items: "process exits",
	When: "every process that got to its end (it could have died on its way out)"}

func judgeInitX1(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	if r.crashAfter != nil && !r.done[r.crashAfter.Phase] {
		x.Unsupported("not measurable here: the process died before the end of its sequence, after %s (%s)", r.crashAfter.Call, r.crash)
	}
	if !r.done["after"] {
		x.Unsupported("not measurable here: the sequence after MPI_Finalize was not reached (%s)", r.unreached())
	}
	if r.crashAfter != nil {
		x.Failf(r.res.Evidence(), "after MPI_Finalize: finalizing to zero, MPI_T_init_thread, a call and MPI_T_finalize all answered, and the process died on its way out (%s)", r.crash)
	}
	return initX1Exposure.Pass([]*mpi.Result{r.res}, "after MPI_Finalize: MPI_T initialized again, used and finalized; the process exited with status 0")
}

func judgeInit9(x *rulebook.X) verdict.Verdict {
	r := initJob(x)
	return r.judge(x, "INIT-9", func(s stepRec) bool { return s.Phase == "between" && s.Call != "MPI_T_init_thread (nested)" },
		"queries, a pvar session and a nested finalize between MPI_Init and MPI_Finalize, the interface initialized before MPI_Init")
}

func phaseWord(phase string) string {
	switch phase {
	case "before":
		return "before MPI_Init"
	case "between":
		return "between MPI_Init and MPI_Finalize"
	case "after":
		return "after MPI_Finalize"
	}
	return phase
}

func uniq(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
