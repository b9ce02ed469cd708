package mpit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The cells of the state × operation tables (cmd/mpits/states.go, rendered
// in reports/catalogue.md) that the text gives a definite outcome and no
// other rule judges, one rule a cell, from fixtures/c/mpit/states.c: a
// performance variable handle never started, started, stopped, freed (the
// null handle) or of another session; a session that still holds handles;
// MPI_T_finalize before the first MPI_T_init_thread. Where a call meets two
// faults at once (a handle of another session of a read-only variable, say)
// the text does not say which error wins: either code is accepted, and the
// reason says how often that happened.
var statesCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-STATES",
	Needs: "mpit",
	Title: "performance variable handles answer start, stop, write, reset, readreset and free in every state the text speaks of (never started, started, stopped, freed, of another session), a session holding handles frees, and MPI_T_finalize before any MPI_T_init_thread returns an error code",
	Rules: []rulebook.Rule{
		// §15.3.7.2: "Upon return, the argument continuous is set to zero if
		// the variable can be started and stopped by the user, i.e., it is
		// possible for the user to control if and when the value of a
		// variable is updated." §15.3.7.5: "All other variables are in a
		// stopped state after their handle has been allocated; their values
		// are not updated until they have been started by the user."
		{ID: "PVAR-32a", Source: "MPI-5.0 §15.3.7.2, §15.3.7.5", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_start of a handle of a non-continuous variable, never started, returns MPI_SUCCESS",
			Injectors: []string{"inject_mpit_pvar_start_refused"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNeverStart)},
		// §15.3.7.2, the sentence of PVAR-32a; §15.3.7.5: "This functions
		// stops the performance variable with the handle identified by the
		// parameter handle in the performance experiment session identified by
		// the parameter pe_session."
		{ID: "PVAR-32b", Source: "MPI-5.0 §15.3.7.2, §15.3.7.5", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_stop of a started handle of a non-continuous variable returns MPI_SUCCESS",
			Injectors: []string{"inject_mpit_pvar_stop_refused"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellStartedStop)},
		// §15.3.7.2, the sentence of PVAR-32a; §15.3.7.5: "This functions
		// starts the performance variable with the handle identified by the
		// parameter handle in the performance experiment session identified by
		// the parameter pe_session."
		{ID: "PVAR-32c", Source: "MPI-5.0 §15.3.7.2, §15.3.7.5", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_start of a stopped handle (started, then stopped) of a non-continuous variable returns MPI_SUCCESS",
			Injectors: []string{"inject_mpit_pvar_stopped_state"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellStoppedStart)},
		// §15.3.7.6 (MPI_T_PVAR_WRITE): "If it is not possible to change the
		// variable, the function returns MPI_T_ERR_PVAR_NO_WRITE."
		// §15.3.7.2: readonly "is set to one if the variable can only be read."
		{ID: "PVAR-36a", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_write of a never-started handle of a read-only variable returns MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNeverWrite)},
		// §15.3.7.6 (MPI_T_PVAR_RESET): "If it is not possible to change the
		// variable, the function returns MPI_T_ERR_PVAR_NO_WRITE."
		{ID: "PVAR-36b", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_reset of a never-started handle of a read-only variable returns MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNeverReset)},
		// The sentences of PVAR-36a.
		{ID: "PVAR-36c", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_write of a stopped handle of a read-only variable returns MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellStoppedWrite)},
		// The sentences of PVAR-36b.
		{ID: "PVAR-36d", Source: "MPI-5.0 §15.3.7.2, §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_reset of a stopped handle of a read-only variable returns MPI_T_ERR_PVAR_NO_WRITE",
			Injectors: []string{"inject_mpit_pvar_accept_write"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellStoppedReset)},
		// §15.3.7.6 (MPI_T_PVAR_READRESET): "If the variable cannot be read
		// and reset atomically, this routine returns MPI_T_ERR_PVAR_NO_ATOMIC."
		{ID: "PVAR-40a", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_readreset of a never-started handle of a variable that is not atomic returns MPI_T_ERR_PVAR_NO_ATOMIC (MPI_T_ERR_PVAR_NO_WRITE accepted for a read-only one: the text does not say which error wins)",
			Injectors: []string{"inject_mpit_pvar_stopped_state"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNeverReadreset)},
		// The sentence of PVAR-40a.
		{ID: "PVAR-40b", Source: "MPI-5.0 §15.3.7.6", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_readreset of a stopped handle of a variable that is not atomic returns MPI_T_ERR_PVAR_NO_ATOMIC (MPI_T_ERR_PVAR_NO_WRITE accepted for a read-only one)",
			Injectors: []string{"inject_mpit_pvar_stopped_state"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellStoppedReadreset)},
		// §15.3.7.4: "When a handle is no longer needed, a user of the MPI
		// tool information interface should call MPI_T_PVAR_HANDLE_FREE to
		// free the handle in the performance experiment session identified by
		// the parameter pe_session and the associated resources in the MPI
		// implementation. On a successful return, MPI sets the handle to
		// MPI_T_PVAR_HANDLE_NULL."
		{ID: "PVAR-28a", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_handle_free of a handle of a non-continuous variable, never started, returns MPI_SUCCESS and sets the handle to MPI_T_PVAR_HANDLE_NULL",
			Injectors: []string{"inject_mpit_pvar_free_keeps"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNeverFree)},
		// The sentences of PVAR-28a.
		{ID: "PVAR-28b", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_handle_free of a stopped handle returns MPI_SUCCESS and sets the handle to MPI_T_PVAR_HANDLE_NULL",
			Injectors: []string{"inject_mpit_pvar_free_keeps"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellStoppedFree)},
		// §15.3.7.4: "For all routines in the rest of this section that take
		// both handle and pe_session as IN or INOUT arguments, if the handle
		// argument passed in is not associated with the pe_session argument,
		// MPI_T_ERR_INVALID_HANDLE is returned." (PVAR-27 judges
		// MPI_T_pvar_read; these the other routines.)
		{ID: "PVAR-27a", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_start with a handle of another session returns MPI_T_ERR_INVALID_HANDLE (MPI_T_ERR_PVAR_NO_STARTSTOP accepted for a continuous variable: the text does not say which error wins)",
			Injectors: []string{"inject_mpit_pvar_session_from_handle"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellOtherStart)},
		{ID: "PVAR-27b", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_stop with a handle of another session returns MPI_T_ERR_INVALID_HANDLE (MPI_T_ERR_PVAR_NO_STARTSTOP accepted for a continuous variable)",
			Injectors: []string{"inject_mpit_pvar_session_from_handle"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellOtherStop)},
		{ID: "PVAR-27c", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_write with a handle of another session returns MPI_T_ERR_INVALID_HANDLE (MPI_T_ERR_PVAR_NO_WRITE accepted for a read-only variable)",
			Injectors: []string{"inject_mpit_pvar_session_from_handle"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellOtherWrite)},
		{ID: "PVAR-27d", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_reset with a handle of another session returns MPI_T_ERR_INVALID_HANDLE (MPI_T_ERR_PVAR_NO_WRITE accepted for a read-only variable)",
			Injectors: []string{"inject_mpit_pvar_session_from_handle"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellOtherReset)},
		{ID: "PVAR-27e", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_readreset with a handle of another session returns MPI_T_ERR_INVALID_HANDLE (MPI_T_ERR_PVAR_NO_ATOMIC or _NO_WRITE accepted for a variable that is not atomic or read-only)",
			Injectors: []string{"inject_mpit_pvar_session_from_handle"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellOtherReadreset)},
		{ID: "PVAR-27f", Source: "MPI-5.0 §15.3.7.4", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_handle_free with a handle of another session returns MPI_T_ERR_INVALID_HANDLE",
			Injectors: []string{"inject_mpit_pvar_session_from_handle"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellOtherFree)},
		// §15.3.10 (undefined), as ERR-4b: MPI_T_PVAR_HANDLE_NULL, which a
		// successful MPI_T_pvar_handle_free leaves, is no handle at all, not
		// a handle of another session (§15.3.7.4's sentence, PVAR-27a-f),
		// and no sentence names its outcome. A robust library returns the
		// code Table 23 gives for an invalid handle.
		{ID: "ERR-4f", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_stop on MPI_T_PVAR_HANDLE_NULL returns MPI_T_ERR_INVALID_HANDLE (the code Table 23 names for an invalid handle) and does not crash",
			Injectors: []string{"inject_mpit_pvar_handle_unchecked"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNullStop)},
		{ID: "ERR-4g", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_write on MPI_T_PVAR_HANDLE_NULL returns MPI_T_ERR_INVALID_HANDLE (the code Table 23 names for an invalid handle) and does not crash",
			Injectors: []string{"inject_mpit_pvar_handle_unchecked"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNullWrite)},
		{ID: "ERR-4h", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_reset on MPI_T_PVAR_HANDLE_NULL returns MPI_T_ERR_INVALID_HANDLE (the code Table 23 names for an invalid handle) and does not crash",
			Injectors: []string{"inject_mpit_pvar_handle_unchecked"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNullReset)},
		{ID: "ERR-4i", Source: "MPI-5.0 §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_readreset on MPI_T_PVAR_HANDLE_NULL returns MPI_T_ERR_INVALID_HANDLE (the code Table 23 names for an invalid handle) and does not crash",
			Injectors: []string{"inject_mpit_pvar_handle_unchecked"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellNullReadreset)},
		// §15.3.7.3: "This call frees an existing performance experiment
		// session. [...] On a successful return, MPI sets the performance
		// experiment session identifier to MPI_T_PVAR_SESSION_NULL." Nothing
		// asks the user to free the session's handles first (PVAR-22 judges a
		// session with none).
		{ID: "PVAR-22a", Source: "MPI-5.0 §15.3.7.3", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_session_free of a session that still holds handles (one of each variable, the non-continuous ones started) returns MPI_SUCCESS and sets the session to MPI_T_PVAR_SESSION_NULL",
			Injectors: []string{"inject_mpit_pvar_free_keeps"}, Exposure: oneFaultCallsExposure.Declared(), Judge: judgeCell(cellSessionFree)},
		// §15.3.4: MPI_T_FINALIZE "may be called as often as the
		// corresponding MPI_T_INIT_THREAD routine up to the current point of
		// execution. Calling it more times returns a corresponding return
		// code." Before the first MPI_T_init_thread that is 0 times (INIT-6
		// judges the call after finalizing to zero).
		{ID: "INIT-6a", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "MPI_T_finalize in a process that never called MPI_T_init_thread returns an error code",
			Injectors: []string{"inject_mpit_finalize_extra"}, Exposure: init6aExposure.Declared(), Judge: judgeInit6a},
	},
})

// stateCell is what one cell of states.c expects: the calls (records named
// cell), what they were made on (what, plural), the codes each may return
// (by the variable: a second fault lets its own code in), and for a free
// that the handle or session ends null.
type stateCell struct {
	cell, call, what string
	want             func(v stVar) []string
	nulls            bool
}

func codes(c ...string) func(stVar) []string { return func(stVar) []string { return c } }

// invalidOr is MPI_T_ERR_INVALID_HANDLE, or the code of the variable's own
// fault that the call also meets (the text does not say which wins).
func invalidOr(own func(v stVar) []string) func(stVar) []string {
	return func(v stVar) []string { return append([]string{"MPI_T_ERR_INVALID_HANDLE"}, own(v)...) }
}

func noAtomic(v stVar) []string {
	if v.Readonly != 0 {
		return []string{"MPI_T_ERR_PVAR_NO_ATOMIC", "MPI_T_ERR_PVAR_NO_WRITE"}
	}
	return []string{"MPI_T_ERR_PVAR_NO_ATOMIC"}
}

var (
	success = codes("MPI_SUCCESS")
	noWrite = codes("MPI_T_ERR_PVAR_NO_WRITE")
	invalid = codes("MPI_T_ERR_INVALID_HANDLE")

	cellNeverStart       = stateCell{"never.start", "MPI_T_pvar_start", "never-started handles of non-continuous variables", success, false}
	cellStartedStop      = stateCell{"started.stop", "MPI_T_pvar_stop", "started handles of non-continuous variables", success, false}
	cellStoppedStart     = stateCell{"stopped.start", "MPI_T_pvar_start", "stopped handles of non-continuous variables", success, false}
	cellNeverWrite       = stateCell{"never.write", "MPI_T_pvar_write", "never-started handles of read-only variables", noWrite, false}
	cellNeverReset       = stateCell{"never.reset", "MPI_T_pvar_reset", "never-started handles of read-only variables", noWrite, false}
	cellStoppedWrite     = stateCell{"stopped.write", "MPI_T_pvar_write", "stopped handles of read-only variables", noWrite, false}
	cellStoppedReset     = stateCell{"stopped.reset", "MPI_T_pvar_reset", "stopped handles of read-only variables", noWrite, false}
	cellNeverReadreset   = stateCell{"never.readreset", "MPI_T_pvar_readreset", "never-started handles of variables that are not atomic", noAtomic, false}
	cellStoppedReadreset = stateCell{"stopped.readreset", "MPI_T_pvar_readreset", "stopped handles of variables that are not atomic", noAtomic, false}
	cellNeverFree        = stateCell{"never.free", "MPI_T_pvar_handle_free", "never-started handles of non-continuous variables", success, true}
	cellStoppedFree      = stateCell{"stopped.free", "MPI_T_pvar_handle_free", "stopped handles of non-continuous variables", success, true}
	cellOtherStart       = stateCell{"other.start", "MPI_T_pvar_start", "handles used with another session", invalidOr(whenContinuous), false}
	cellOtherStop        = stateCell{"other.stop", "MPI_T_pvar_stop", "handles used with another session", invalidOr(whenContinuous), false}
	cellOtherWrite       = stateCell{"other.write", "MPI_T_pvar_write", "handles used with another session", invalidOr(whenReadonly), false}
	cellOtherReset       = stateCell{"other.reset", "MPI_T_pvar_reset", "handles used with another session", invalidOr(whenReadonly), false}
	cellOtherReadreset   = stateCell{"other.readreset", "MPI_T_pvar_readreset", "handles used with another session", invalidOr(whenNotAtomic), false}
	cellOtherFree        = stateCell{"other.free", "MPI_T_pvar_handle_free", "handles used with another session", invalid, false}
	cellNullStop         = stateCell{"null.stop", "MPI_T_pvar_stop", "MPI_T_PVAR_HANDLE_NULL", invalid, false}
	cellNullWrite        = stateCell{"null.write", "MPI_T_pvar_write", "MPI_T_PVAR_HANDLE_NULL", invalid, false}
	cellNullReset        = stateCell{"null.reset", "MPI_T_pvar_reset", "MPI_T_PVAR_HANDLE_NULL", invalid, false}
	cellNullReadreset    = stateCell{"null.readreset", "MPI_T_pvar_readreset", "MPI_T_PVAR_HANDLE_NULL", invalid, false}
	cellSessionFree      = stateCell{"session.free", "MPI_T_pvar_session_free", "sessions holding handles", success, true}
)

func whenContinuous(v stVar) []string {
	if v.Continuous != 0 {
		return []string{"MPI_T_ERR_PVAR_NO_STARTSTOP"}
	}
	return nil
}

func whenReadonly(v stVar) []string {
	if v.Readonly != 0 {
		return []string{"MPI_T_ERR_PVAR_NO_WRITE"}
	}
	return nil
}

func whenNotAtomic(v stVar) []string {
	var c []string
	if v.Atomic == 0 {
		c = append(c, "MPI_T_ERR_PVAR_NO_ATOMIC")
	}
	return append(c, whenReadonly(v)...)
}

type stVar struct {
	Index      int    `json:"index"`
	Name       string `json:"name"`
	Class      string `json:"class"`
	Readonly   int    `json:"readonly"`
	Continuous int    `json:"continuous"`
	Atomic     int    `json:"atomic"`
	Usable     int    `json:"usable"`
}

type stCellRec struct {
	Item    int    `json:"item"`
	Cell    string `json:"cell"`
	Index   int    `json:"index"`
	RC      string `json:"rc"`
	Null    *int   `json:"null"`
	Handles int    `json:"handles"`
}

type stTry struct {
	Item  int    `json:"item"`
	Cell  string `json:"cell"`
	Index int    `json:"index"`
}

// stDeath is a call that killed the process: the last try of an item that
// died.
type stDeath struct {
	stTry
	How string
}

type stRun struct {
	vars        map[int]stVar
	cells       []stCellRec
	deaths      []stDeath
	setupFailed int // setup records: a session or handle the fixture could not make
}

// statesJob runs the pvar items of fixtures/c/mpit/states.c (two ranks),
// resumed after each death, once per implementation and injector set.
func statesJob(x *rulebook.X) *stRun {
	switch n := x.Caps.AfterInit.Pvars; {
	case n < 0:
		x.Unsupported("MPI_T_pvar_get_num could not be asked after MPI_Init (%s)", x.Caps.AfterInit.Note)
	case n == 0:
		x.Unsupported("MPI_T_pvar_get_num gives 0 after MPI_Init: no performance variables")
	}
	rs := x.LaunchResuming(mpi.Job{Name: "mpit_states", Ranks: 2, Program: x.Fixture("mpit_states"), Args: []string{"pvar"}, OneNode: true})
	r := &stRun{vars: map[int]stVar{}}
	last := map[int]stTry{}
	for _, recs := range rs.Records {
		for _, v := range mpi.Decode[stVar](recs, "var") {
			r.vars[v.Index] = v
		}
		r.cells = append(r.cells, mpi.Decode[stCellRec](recs, "cell")...)
		r.setupFailed += len(recs.Kind("setup", -1))
		for _, t := range mpi.Decode[stTry](recs, "try") {
			last[t.Item] = t
		}
	}
	for _, d := range rs.Died {
		if t, ok := last[d.Item]; ok {
			r.deaths = append(r.deaths, stDeath{stTry: t, How: d.How})
		}
	}
	return r
}

// census says what the variables offered the cells: how many were listed
// and usable, of which kinds, and where allocating a handle failed or
// killed the process.
func (r *stRun) census() string {
	usable, nonCont, ro, notAtomic := 0, 0, 0, 0
	for _, v := range r.vars {
		if v.Usable == 0 {
			continue
		}
		usable++
		if v.Continuous == 0 {
			nonCont++
		}
		if v.Readonly != 0 {
			ro++
		}
		if v.Atomic == 0 {
			notAtomic++
		}
	}
	s := fmt.Sprintf("%d performance variables listed, %d usable here: %d not continuous, %d read-only, %d not atomic", len(r.vars), usable, nonCont, ro, notAtomic)
	if r.setupFailed > 0 {
		s += fmt.Sprintf("; a session or handle could not be made %s", plural(r.setupFailed, "time", "times"))
	}
	died := 0
	for _, d := range r.deaths {
		if strings.HasPrefix(d.Cell, "setup.") {
			died++
		}
	}
	if died > 0 {
		s += fmt.Sprintf("; allocating a handle killed the process %s", plural(died, "time", "times"))
	}
	return s
}

// who names what a call of cell c was made on.
func (r *stRun) who(c stateCell, index int) string {
	if v, ok := r.vars[index]; ok {
		return fmt.Sprintf("%s (%d, %s)", v.Name, v.Index, v.Class)
	}
	if strings.HasPrefix(c.cell, "null.") {
		return "MPI_T_PVAR_HANDLE_NULL"
	}
	if c.cell == cellSessionFree.cell {
		return "a session holding handles"
	}
	return fmt.Sprintf("variable %d", index)
}

// oneFaultCallsExposure: a call of a cell that met a second fault of the
// variable (MPI_T_pvar_readreset of a read-only variable that is not
// atomic may answer MPI_T_ERR_PVAR_NO_WRITE) shows the rule's check only
// when it answered the rule's own code: a library that skips the check
// still answers the second fault's code and passes. Where no call shows
// it, nothing could show the breach and the rule is unsupported.
var oneFaultCallsExposure = rulebook.Exposure[cellCall]{Items: "calls",
	When:  "when the call met no second fault of the variable, or answered the rule's own code (a call that met a second fault and answered that fault's code is accepted, but shows nothing of this rule)",
	Could: func(c cellCall) bool { return !c.secondFault || c.ownCode }}

// cellCall is one call of a cell: whether it met a second fault of the
// variable, whose code the cell accepts too, and whether it answered the
// rule's own code.
type cellCall struct{ secondFault, ownCode bool }

// judgeCell judges the calls of one cell: each returned one of the codes
// the cell wants (and a free left the null value); a call that killed the
// process fails it. A session freed with no handle in it is not in the
// cell's state.
func judgeCell(c stateCell) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := statesJob(x)
		var bad []string
		var calls []cellCall
		got := map[string]int{}
		judged, second, handles := 0, 0, 0
		secondCodes := map[string]bool{}
		for _, rec := range r.cells {
			if rec.Cell != c.cell || (c.cell == cellSessionFree.cell && rec.Handles == 0) {
				continue
			}
			judged++
			handles += rec.Handles
			want := c.want(r.vars[rec.Index])
			if rec.Index < 0 {
				want = c.want(stVar{})
			}
			calls = append(calls, cellCall{secondFault: len(want) > 1, ownCode: rec.RC == want[0]})
			if len(want) > 1 && rec.RC != want[0] {
				second++ // it could answer the second fault's code, and did
				secondCodes[rec.RC] = true
			}
			got[rec.RC]++
			switch {
			case !contains(want, rec.RC):
				bad = append(bad, fmt.Sprintf("%s: %s returned %s, not %s", r.who(c, rec.Index), c.call, rec.RC, strings.Join(want, " or ")))
			case c.nulls && rec.Null != nil && *rec.Null != 1:
				bad = append(bad, fmt.Sprintf("%s: %s returned %s and left the %s not null", r.who(c, rec.Index), c.call, rec.RC, map[bool]string{true: "session", false: "handle"}[c.cell == cellSessionFree.cell]))
			}
		}
		for _, d := range r.deaths {
			if d.Cell == c.cell {
				judged++
				calls = append(calls, cellCall{})
				bad = append(bad, fmt.Sprintf("%s: %s killed the process (%s)", r.who(c, d.Index), c.call, d.How))
			}
		}
		sort.Strings(bad)
		x.FailOn(bad, "")
		if judged == 0 {
			x.Unsupported("not measurable here: no %s (%s)", c.what, r.census())
		}
		var seen []string
		for rc, n := range got {
			seen = append(seen, fmt.Sprintf("%s %s", rc, plural(n, "time", "times")))
		}
		sort.Strings(seen)
		reason := fmt.Sprintf("%s on %s (%s) returned %s", c.call, c.what, plural(judged, "call", "calls"), strings.Join(seen, ", "))
		if c.nulls {
			reason += ", each leaving the null value"
		}
		if c.cell == cellSessionFree.cell {
			reason += fmt.Sprintf(" (%s in all: one of each variable, the non-continuous ones started)", plural(handles, "handle", "handles"))
		}
		if second > 0 {
			reason += fmt.Sprintf("; %d of them met a second fault of the variable and answered its code, which is accepted too (the text does not say which error wins)", second)
		}
		if judged == second {
			x.Unsupported("not measurable here: each of the %s on %s met a second fault of the variable and answered its code (%s), which is accepted too, so a library that skips the check would pass as well", plural(judged, "call", "calls"), c.what, strings.Join(slices.Sorted(maps.Keys(secondCodes)), ", "))
		}
		if second > 0 {
			reason += fmt.Sprintf("; %d of them answered %s itself or met no second fault", judged-second, c.want(stVar{})[0])
		}
		return oneFaultCallsExposure.Pass(calls, "%s", reason)
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// init6aExposure: the one call could have returned MPI_SUCCESS.
var init6aExposure = rulebook.Exposure[cellCall]{Items: "calls"}

// judgeInit6a runs MPI_T_finalize as the first MPI call of a process
// started without a launcher.
func judgeInit6a(x *rulebook.X) verdict.Verdict {
	res, recs, err := x.LaunchOnce(mpi.Job{Name: "mpit_states_epoch", Program: x.Fixture("mpit_states"), Args: []string{"epoch"}})
	if err != nil && res.OK() {
		x.Errorf(res.Evidence(), "%v", err)
	}
	var tried bool
	var rc string
	if recs != nil {
		tried = len(recs.Kind("epoch_try", -1)) > 0
		for _, e := range mpi.Decode[struct {
			RC string `json:"rc"`
		}](recs, "epoch") {
			rc = e.RC
		}
	}
	switch {
	case rc == "" && tried && !res.OK():
		x.Failf(res.Evidence(), "MPI_T_finalize with MPI_T never initialized killed the process: %s", res.Problem())
	case rc == "" && !res.OK():
		x.Errorf(res.Evidence(), "mpit_states epoch died before its MPI_T_finalize: %s", res.Problem())
	case rc == "":
		x.Errorf(res.Evidence(), "mpit_states epoch recorded no MPI_T_finalize")
	case rc == "MPI_SUCCESS":
		x.Failf(res.Evidence(), "MPI_T_finalize with MPI_T never initialized returned MPI_SUCCESS, not an error code")
	}
	return init6aExposure.Pass([]cellCall{{}}, "MPI_T_finalize with MPI_T never initialized returned %s", rc)
}
