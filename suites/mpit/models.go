package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T with the World and Sessions models and with thread levels
// (MPI-5.0 §15.3.4, §11.3), one run of fixtures/c/mpit/models.c per
// scenario: a crash in one scenario judges only its own rule.
var modelsCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-MODELS",
	Needs: "mpit",
	Title: "MPI_T before, inside and after MPI sessions, beside the World Model, concurrently with session cycles, and under every thread level",
	Rules: []rulebook.Rule{
		// §15.3: the interface "can be used independently from the MPI
		// communication functionality"; §11.3: "In the Sessions Model, MPI
		// resources can be allocated and freed multiple times in an MPI
		// process."
		{ID: "SESS-1", Source: "MPI-5.0 §15.3.4, §11.3", Basis: rulebook.Normative,
			Text:      "MPI_T initialized before an MPI session is created stays usable while the session exists and after it is finalized, and the session works",
			Injectors: []string{"inject_mpit_session_breaks"}, Exposure: scenarioExposure.Declared(), Judge: scenarioJudge("session_around")},
		// The same sentences, the other way round: MPI_T opened and closed
		// while a session exists, and the session still works after.
		{ID: "SESS-2", Source: "MPI-5.0 §15.3.4, §11.3", Basis: rulebook.Normative,
			Text:      "MPI_T initialized and finalized inside a session's lifetime works, and the session works after MPI_T_finalize",
			Injectors: []string{"inject_mpit_session_breaks"}, Exposure: scenarioExposure.Declared(), Judge: scenarioJudge("session_inside")},
		// §11.3.1: "An MPI process may instantiate multiple Sessions." and a
		// handle "can be used in any other session ... even if the second
		// session was initialized after the first session had already been
		// finalized and no other session existed in between."
		{ID: "SESS-3", Source: "MPI-5.0 §11.3.1", Basis: rulebook.Normative,
			Text:      "after every session has been finalized, a new MPI_Session_init succeeds and its session works, without and with MPI_T initialized",
			Injectors: []string{"inject_mpit_session_breaks"}, Exposure: scenarioExposure.Declared(), Judge: scenarioJudge("session_again")},
		// §11.3: "Note that an application may employ both the Sessions Model
		// and World Model concurrently"; §15.3: MPI_T routines "can be called
		// before MPI is initialized and after MPI is finalized".
		{ID: "SESS-4", Source: "MPI-5.0 §11.3, §15.3.4", Basis: rulebook.Normative,
			Text:      "the World Model, a session and MPI_T coexist in one process, whether MPI_Init or MPI_T_init_thread comes first",
			Injectors: []string{"inject_mpit_session_breaks"}, Exposure: scenarioExposure.Declared(), Judge: scenarioJudge("world_first", "tool_first")},
		// §15.3.4: MPI_T_INIT_THREAD's "required" and "provided" levels, and
		// §11.3.1's "thread_level" info key: at MPI_THREAD_MULTIPLE both may
		// be used from several threads at once. The MPI_T cycles run inside
		// an epoch kept open, and again each from zero (§15.3.4: "The user
		// can reinitialize the interface"); opening again from zero alone is
		// INIT-8's, and where it fails only the nested cycles are judged.
		{ID: "SESS-5", Source: "MPI-5.0 §15.3.4, §11.3.1", Basis: rulebook.Normative,
			Text:      "under MPI_THREAD_MULTIPLE (MPI_T and a session both provide it), MPI_T init/finalize cycles in one thread (inside an MPI_T epoch kept open, and each from zero with none kept open) and session init/finalize cycles in another all succeed",
			Injectors: []string{"inject_mpit_session_breaks"}, Exposure: sess5Exposure.Declared(), Judge: judgeSess5},
		// §11.2.1 (MPI_QUERY_THREAD): "The call returns in provided the current
		// level of thread support, which will be the value returned in
		// provided by MPI_INIT_THREAD, if MPI was initialized by a call to
		// MPI_INIT_THREAD."
		{ID: "THR-1", Source: "MPI-5.0 §11.2.1, §15.3.4", Basis: rulebook.Normative,
			Text:      "MPI_Query_thread returns the level MPI_Init_thread provided, before, inside and after an MPI_T epoch opened at each of the four levels",
			Injectors: []string{"inject_mpit_query_thread_follows"}, Exposure: thr1Exposure.Declared(), Judge: judgeThreadAnswers("MPI_Query_thread", "THR-1", thr1Exposure)},
		// §11.2.1 (MPI_IS_THREAD_MAIN): "This function can be called by a
		// thread to determine if it is the main thread (the thread that called
		// MPI_INIT or MPI_INIT_THREAD)."
		{ID: "THR-2", Source: "MPI-5.0 §11.2.1, §15.3.4", Basis: rulebook.Normative,
			Text:      "MPI_Is_thread_main answers true in the thread that called MPI_Init_thread, before, inside and after an MPI_T epoch opened at each level",
			Injectors: []string{"inject_mpit_is_thread_main_off"}, Exposure: thr2Exposure.Declared(), Judge: judgeThreadAnswers("MPI_Is_thread_main", "THR-2", thr2Exposure)},
		// §15.3.4, advice to users: "If MPI_T_INIT_THREAD is called before
		// MPI_INIT_THREAD, the requested and provided thread level for
		// MPI_T_INIT_THREAD may influence the behavior and return value of
		// MPI_INIT_THREAD."
		{ID: "THR-3", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Interpretation,
			Text:     "with MPI_T opened at MPI_THREAD_MULTIPLE first, what MPI_Init_thread(MPI_THREAD_SINGLE) provides: the level asked for, or a higher one the MPI_T level influenced",
			Exposure: thr3Exposure.Declared(), Judge: judgeThr3},
	},
})

type modelStep struct {
	Scenario string `json:"scenario"`
	Call     string `json:"call"`
	RC       int    `json:"rc"`
	Value    int    `json:"value"`
}

// scenarioRun is one run of the models fixture.
type scenarioRun struct {
	name  string
	res   *mpi.Result
	recs  *mpi.Records
	steps []modelStep
	done  bool
}

func runScenario(x *rulebook.X, name string) *scenarioRun {
	res, recs, err := x.LaunchOnce(mpi.Job{Name: "mpit_models_" + name, Ranks: 1, Program: x.Fixture("mpit_models"), Args: []string{name}})
	if err != nil && res.OK() {
		x.Errorf(res.Evidence(), "%s: %v", name, err)
	}
	if recs == nil {
		recs = &mpi.Records{} // it died before its first record: judged as a run that did not reach its end
	}
	if len(recs.Kind("no_sessions", 0)) > 0 {
		// Open MPI 5.0.7 claims 3.1 and declares the Sessions functions all
		// the same; the suite holds a library to the edition it claims.
		x.Unsupported("not judged: the library claims MPI %s, and the Sessions Model came with MPI-4.0 (a header may declare its functions all the same)", x.Caps.MPIVersion)
	}
	r := &scenarioRun{name: name, res: res, recs: recs, steps: mpi.Decode[modelStep](recs, "step"), done: len(recs.Kind("done", 0)) > 0}
	return r
}

// sessionSum is what use_session's MPI_Allreduce (MPI_SUM of 7 over the
// session's mpi://SELF communicator, one process) must give.
const sessionSum = 7

// isSessionReduction says whether a step is use_session's reduction.
func isSessionReduction(s modelStep) bool { return strings.HasPrefix(s.Call, "MPI_Allreduce (") }

// problems lists the calls that failed, the session reductions that gave
// another sum and, when the scenario did not reach its end, how it ended
// and after which call.
func (r *scenarioRun) problems() []string {
	var bad []string
	for _, s := range r.steps {
		switch {
		case s.RC != 0:
			bad = append(bad, fmt.Sprintf("%s: %s returned %d", r.name, s.Call, s.RC))
		case isSessionReduction(s) && s.Value != sessionSum:
			bad = append(bad, fmt.Sprintf("%s: %s returned MPI_SUCCESS with the sum %d, not %d", r.name, s.Call, s.Value, sessionSum))
		}
	}
	if !r.done || !r.res.OK() {
		last := "its first call"
		if len(r.steps) > 0 {
			last = r.steps[len(r.steps)-1].Call
		}
		how := r.res.Problem()
		if how == "" {
			how = "it stopped"
		}
		bad = append(bad, fmt.Sprintf("%s: the process did not reach the end (%s) after %s", r.name, how, last))
	}
	return bad
}

// scenarioExposure (SESS-1 to SESS-4, through scenarioJudge): every call
// recorded returned, and could have failed.
var scenarioExposure = rulebook.Exposure[modelStep]{Items: "calls",
	When: "every call recorded (each returned, and could have failed)"}

func scenarioJudge(names ...string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		var bad, ran []string
		var evidence []string
		var calls []modelStep
		sums := 0
		for _, n := range names {
			r := runScenario(x, n)
			p := r.problems()
			bad = append(bad, p...)
			if len(p) > 0 {
				evidence = append(evidence, r.res.Evidence())
			}
			calls = append(calls, r.steps...)
			for _, s := range r.steps {
				if isSessionReduction(s) {
					sums++
				}
			}
			ran = append(ran, fmt.Sprintf("%s (%d calls)", n, len(r.steps)))
		}
		x.FailOn(bad, strings.Join(evidence, "\n\n"))
		return scenarioExposure.Pass(calls, "every call succeeded and every session reduction (%d, on mpi://SELF) gave %d: %s", sums, sessionSum, strings.Join(ran, ", "))
	}
}

type sessLevelsRec struct {
	Session string `json:"session"`
	Tool    int    `json:"tool"`
}

type cyclesRec struct {
	Cycles          int `json:"cycles"`
	ToolFailures    int `json:"tool_failures"`
	SessionFailures int `json:"session_failures"`
}

// judgeSess5 judges the cycles of two runs: concurrent, whose MPI_T cycles
// nest inside an epoch kept open, and concurrent_zero, whose cycles each
// open the interface from zero. concurrent_zero first opens MPI_T again
// from zero alone, before any session: a library that fails there fails
// INIT-8 (which judges exactly that), so its cycles from zero are not
// judged and the verdict rests on the nested cycles, the reason saying so.
// sess5Exposure: each MPI_T and each session init/finalize cycle could
// have failed; the fixture counts the cycles.
var sess5Exposure = rulebook.Exposure[countedItem]{Items: "init/finalize cycles (MPI_T and session)",
	When: "every cycle run (each could have failed)"}

func judgeSess5(x *rulebook.X) verdict.Verdict {
	kept := runScenario(x, "concurrent")
	lv := mpi.Decode[sessLevelsRec](kept.recs, "levels")
	cy := mpi.Decode[cyclesRec](kept.recs, "cycles")
	if len(cy) == 0 && len(lv) > 0 && kept.done {
		x.Unsupported("not measurable here: MPI_THREAD_MULTIPLE not provided (session %q, MPI_T %d)", lv[0].Session, lv[0].Tool)
	}
	bad := append(kept.problems(), cycleFailures("in an MPI_T epoch kept open", cy)...)
	evidence := []string{}
	if len(bad) > 0 {
		evidence = append(evidence, kept.res.Evidence())
	}
	cycles := 0
	if len(cy) > 0 {
		cycles = cy[0].Cycles
	}
	zero := runScenario(x, "concurrent_zero")
	zeroCy := mpi.Decode[cyclesRec](zero.recs, "cycles")
	more, skipped := "", ""
	if alone := zero.aloneProblems(); len(alone) > 0 {
		skipped = fmt.Sprintf("; the cycles from zero not judged (INIT-8's subject: MPI_T opened again from zero alone: %s)", strings.Join(alone, "; "))
	} else {
		zbad := append(zero.problems(), cycleFailures("each from zero", zeroCy)...)
		if len(zbad) > 0 {
			evidence = append(evidence, zero.res.Evidence())
		}
		bad = append(bad, zbad...)
		if len(zeroCy) > 0 {
			more = fmt.Sprintf(", and %d MPI_T cycles each from zero (no epoch kept open) beside %d more session cycles", zeroCy[0].Cycles, zeroCy[0].Cycles)
			cycles += zeroCy[0].Cycles
		}
	}
	x.FailOn(bad, strings.Join(evidence, "\n\n"))
	return sess5Exposure.Pass(countedItems(2*cycles), "%d MPI_T init/finalize cycles in an epoch kept open beside %d session init/finalize cycles%s, all succeeded%s", cy[0].Cycles, cy[0].Cycles, more, skipped)
}

// cycleFailures says how many calls of the concurrent cycles failed.
func cycleFailures(how string, cy []cyclesRec) []string {
	if len(cy) == 0 || (cy[0].ToolFailures == 0 && cy[0].SessionFailures == 0) {
		return nil
	}
	return []string{fmt.Sprintf("of %d cycles each (MPI_T %s), %d MPI_T calls and %d session calls failed", cy[0].Cycles, how, cy[0].ToolFailures, cy[0].SessionFailures)}
}

// aloneProblems are the failures of concurrent_zero's opening alone (its
// steps named "..., alone)", before any session): a call that failed, or
// the process ending while it was in that phase.
func (r *scenarioRun) aloneProblems() []string {
	var bad []string
	for _, s := range r.steps {
		if strings.HasSuffix(s.Call, "alone)") && s.RC != 0 {
			bad = append(bad, fmt.Sprintf("%s returned %d", s.Call, s.RC))
		}
	}
	phases := mpi.Decode[struct {
		Phase string `json:"phase"`
	}](r.recs, "phase")
	if !r.done && len(phases) > 0 && phases[len(phases)-1].Phase == "alone" {
		last := "its first call"
		if len(r.steps) > 0 {
			last = r.steps[len(r.steps)-1].Call
		}
		how := r.res.Problem()
		if how == "" {
			how = "it stopped"
		}
		bad = append(bad, fmt.Sprintf("%s after %s", how, last))
	}
	return bad
}

// thr1Exposure, thr2Exposure: each answer is written over -1, so one the
// library did not write shows.
var (
	thr1Exposure = rulebook.Exposure[modelStep]{Items: "MPI_Query_thread answers",
		When: "every answer (written over -1: one the library did not write shows)"}
	thr2Exposure = rulebook.Exposure[modelStep]{Items: "MPI_Is_thread_main answers",
		When: "every answer (written over -1: one the library did not write shows)"}
)

// judgeThreadAnswers compares every answer of one query (MPI_Query_thread
// or MPI_Is_thread_main) in the levels scenario with its answer right
// after MPI_Init_thread.
func judgeThreadAnswers(query, rule string, e rulebook.Exposure[modelStep]) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := runScenario(x, "levels")
		var want *modelStep
		var bad []string
		var answers []modelStep
		for i, s := range r.steps {
			if s.Call == "MPI_Init_thread (FUNNELED)" && query == "MPI_Query_thread" {
				want = &r.steps[i]
			}
			if !strings.HasPrefix(s.Call, query+" ") {
				continue
			}
			if want == nil {
				if query == "MPI_Is_thread_main" {
					w := s
					w.Value = 1 // the thread that called MPI_Init_thread is the main thread
					want = &w
				} else {
					x.Errorf(r.res.Evidence(), "the levels scenario recorded no MPI_Init_thread")
				}
			}
			answers = append(answers, s)
			if s.RC != 0 || s.Value != want.Value {
				bad = append(bad, fmt.Sprintf("%s gave %d (rc %d), not %d", s.Call, s.Value, s.RC, want.Value))
			}
		}
		n := len(answers)
		if !r.done && n < 10 {
			bad = append(bad, fmt.Sprintf("the process did not reach the end (%s) after %d answers of %s", r.res.Problem(), n, query))
		}
		x.FailOn(bad, r.res.Evidence())
		if n == 0 {
			x.Errorf(r.res.Evidence(), "the levels scenario recorded no %s", query)
		}
		return e.Pass(answers, "%s gave %d all %d times, before, inside and after MPI_T epochs at each level", query, want.Value, n)
	}
}

// thr3Exposure: the one MPI_Init_thread after MPI_T_init_thread shows the
// reading either way.
var thr3Exposure = rulebook.Exposure[modelStep]{Items: "MPI_Init_thread calls",
	When: "every one that succeeded (the level it provides shows the reading)"}

func judgeThr3(x *rulebook.X) verdict.Verdict {
	r := runScenario(x, "tool_level_first")
	for _, s := range r.steps {
		if s.Call == "MPI_Init_thread (SINGLE)" && s.RC == 0 {
			if s.Value == 0 {
				return thr3Exposure.Pass([]modelStep{s}, "MPI_Init_thread(MPI_THREAD_SINGLE) after MPI_T_init_thread(MPI_THREAD_MULTIPLE) provides MPI_THREAD_SINGLE: the MPI_T level does not influence it")
			}
			return thr3Exposure.Pass([]modelStep{s}, "MPI_Init_thread(MPI_THREAD_SINGLE) after MPI_T_init_thread(MPI_THREAD_MULTIPLE) provides level %d: the MPI_T level raised it", s.Value)
		}
	}
	x.Errorf(r.res.Evidence(), "MPI_Init_thread after MPI_T_init_thread did not succeed: %s", strings.Join(r.problems(), "; "))
	return verdict.Verdict{}
}
