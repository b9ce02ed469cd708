package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The state × operation tables of the MPI_T objects that have states (issue
// 24): per object its states, its operations, and per cell what the
// standard says the operation does in that state (quoted verbatim from
// ../shared/reference/standard/mpi50-15-tool-support.txt, with the printed
// section; states_test.go finds every quote there, in its section) and the
// rules that judge the cell. A cell is one of:
//   - judged: Rules judge it (NoRule may name a part no rule judges yet);
//   - not judged: the text speaks of it but gives the library no outcome a
//     rule could fail (the call is erroneous, undefined, or binds only the
//     user); NotJudged says why;
//   - no rule yet: the text gives an outcome no rule judges; NoRule says
//     what;
//   - silent: the text does not say what the operation does in that state
//     (Note may say where the call is spoken of instead).
// catalogue.md renders them (stateTables).

// stQuote is a sentence (or a row of Table 23) of the standard and its
// printed section.
type stQuote struct{ Sec, Text string }

// stCell is one cell.
type stCell struct {
	State, Op string
	Quotes    []stQuote
	Rules     []string
	NotJudged string // spoken, no outcome a rule could fail: why
	NoRule    string // an outcome no rule judges yet (with Rules: the part)
	Silent    bool
	Note      string
}

// stObject is one table.
type stObject struct {
	Name, Sections string
	States, Ops    []string
	Cells          []stCell
}

func (c stCell) spoken() bool { return !c.Silent }

func (c stCell) Judged() bool { return len(c.Rules) > 0 }

// The sentences the cells quote.
var (
	qBefore      = stQuote{"15.3", "In particular, the routines of this interface can be called before MPI is initialized and after MPI is finalized."}
	qInitMany    = stQuote{"15.3.4", "A user can initialize the MPI tool information interface by calling MPI_T_INIT_THREAD, which can be called multiple times."}
	qProvided    = stQuote{"15.3.4", "The call returns in provided information about the actual level of thread support that will be provided by the MPI implementation for calls to MPI tool information interface routines."}
	qNested      = stQuote{"15.3.4", "Calling this routine when the MPI tool information interface is already initialized has no effect beyond increasing the reference count of how often the interface has been initialized."}
	qFinalize    = stQuote{"15.3.4", "This routine finalizes the use of the MPI tool information interface and may be called as often as the corresponding MPI_T_INIT_THREAD routine up to the current point of execution. Calling it more times returns a corresponding return code."}
	qMustInit    = stQuote{"15.3.4", "All programs or tools that use the MPI tool information interface must initialize the MPI tool information interface in the processes that will use the interface before calling any other of its routines."}
	qStays       = stQuote{"15.3.4", "As long as the number of calls to MPI_T_FINALIZE is smaller than the number of calls to MPI_T_INIT_THREAD up to the current point of execution, the MPI tool information interface remains initialized and calls to its routines are permissible."}
	qNoLonger    = stQuote{"15.3.4", "Once MPI_T_FINALIZE is called the same number of times as the routine MPI_T_INIT_THREAD up to the current point of execution, the MPI tool information interface is no longer initialized."}
	qReinit      = stQuote{"15.3.4", "The user can reinitialize the interface by a subsequent call to MPI_T_INIT_THREAD."}
	qAgain       = stQuote{"15.3.4", "Further, additional calls to MPI_T_INIT_THREAD after one or more calls to MPI_T_FINALIZE are permissible."}
	qEqual       = stQuote{"15.3.4", "At the end of the program execution, unless MPI_ABORT is called, an application must have called MPI_T_INIT_THREAD and MPI_T_FINALIZE an equal number of times."}
	qUndefined   = stQuote{"15.3.10", "The MPI implementation is not required to check all user-provided parameters; if a user passes invalid parameter values to any routine, the behavior of the implementation is undefined."}
	rowNotInit   = stQuote{"15.3.10", "MPI_T_ERR_NOT_INITIALIZED | Interface not initialized"}
	rowHandle    = stQuote{"15.3.10", "MPI_T_ERR_INVALID_HANDLE | The handle is invalid"}
	rowSession   = stQuote{"15.3.10", "MPI_T_ERR_INVALID_SESSION | Session argument is not a valid session"}
	rowHandles   = stQuote{"15.3.10", "MPI_T_ERR_OUT_OF_HANDLES | No more handles available"}
	rowSessions  = stQuote{"15.3.10", "MPI_T_ERR_OUT_OF_SESSIONS | No more sessions available"}
	rowStartStop = stQuote{"15.3.10", "MPI_T_ERR_PVAR_NO_STARTSTOP | Variable cannot be started or stopped (for MPI_T_PVAR_START and MPI_T_PVAR_STOP)"}

	qCAlloc  = stQuote{"15.3.6.2", "The handle allocated to reference the variable is returned in the argument handle. Upon successful return, count contains the number of elements (of the datatype returned by a previous MPI_T_CVAR_GET_INFO call) used to represent this variable."}
	qCFree   = stQuote{"15.3.6.2", "On a successful return, MPI sets the handle to MPI_T_CVAR_HANDLE_NULL."}
	qCRead   = stQuote{"15.3.6.3", "This routine queries the value of a control variable identified by the argument handle and stores the result in the buffer identified by the parameter buf."}
	qCWrite  = stQuote{"15.3.6.3", "This routine sets the value of the control variable identified by the argument handle to the data stored in the buffer identified by the parameter buf."}
	qCRefuse = stQuote{"15.3.6.3", "If it is not possible to change the variable at the time the call is made, the function returns either MPI_T_ERR_CVAR_SET_NOT_NOW, if there may be a later time at which the variable could be set, or MPI_T_ERR_CVAR_SET_NEVER, if the variable cannot be set for the remainder of the application's execution."}

	qSIndep    = stQuote{"15.3.7.3", "Starting, stopping, reading, writing, or resetting a variable in one performance experiment session shall not influence whether a variable is started, stopped, read, written, or reset in another performance experiment session."}
	qSCreate   = stQuote{"15.3.7.3", "This call creates a new performance experiment session for accessing performance variables and returns a handle for this performance experiment session in the argument pe_session of type MPI_T_pvar_session."}
	qSFree     = stQuote{"15.3.7.3", "This call frees an existing performance experiment session. Calls to the MPI tool information interface can no longer be made within the context of a performance experiment session after it is freed. On a successful return, MPI sets the performance experiment session identifier to MPI_T_PVAR_SESSION_NULL."}
	qSNoLonger = stQuote{"15.3.7.3", "Calls to the MPI tool information interface can no longer be made within the context of a performance experiment session after it is freed."}
	qPAlloc    = stQuote{"15.3.7.4", "This routine binds the performance variable specified by the argument index to an MPI object in the performance experiment session identified by the parameter pe_session."}
	qStartAll  = stQuote{"15.3.7.5", "In this case, the routine returns MPI_SUCCESS if all variables are started successfully (even if there are no noncontinuous variables to be started), otherwise MPI_T_ERR_PVAR_NO_STARTSTOP is returned. Continuous variables and variables that are already started are ignored when MPI_T_PVAR_ALL_HANDLES is specified."}
	qStopAll   = stQuote{"15.3.7.5", "In this case, the routine returns MPI_SUCCESS if all variables are stopped successfully (even if there are no noncontinuous variables to be stopped), otherwise MPI_T_ERR_PVAR_NO_STARTSTOP is returned. Continuous variables and variables that are already stopped are ignored when MPI_T_PVAR_ALL_HANDLES is specified."}
	qResetAll  = stQuote{"15.3.7.6", "In this case, the routine returns MPI_SUCCESS if all variables are reset successfully (even if there are no valid handles or all are read-only), otherwise MPI_T_ERR_PVAR_NO_WRITE is returned. Read-only variables are ignored when MPI_T_PVAR_ALL_HANDLES is specified."}
	qNotRead   = stQuote{"15.3.7.6", "The constant MPI_T_PVAR_ALL_HANDLES cannot be used as an argument for the function MPI_T_PVAR_READ."}
	qNotWrite  = stQuote{"15.3.7.6", "The constant MPI_T_PVAR_ALL_HANDLES cannot be used as an argument for the function MPI_T_PVAR_WRITE."}
	qNotRR     = stQuote{"15.3.7.6", "The constant MPI_T_PVAR_ALL_HANDLES cannot be used as an argument for the function MPI_T_PVAR_READRESET."}

	qPStarting = stQuote{"15.3.7.1", "The starting value is the value that is assigned to the variable the first time that it is used or whenever it is reset."}
	qPReadonly = stQuote{"15.3.7.2", "Upon return, the argument readonly is set to zero if the variable can be written or reset by the user. It is set to one if the variable can only be read."}
	qPCont0    = stQuote{"15.3.7.2", "Upon return, the argument continuous is set to zero if the variable can be started and stopped by the user, i.e., it is possible for the user to control if and when the value of a variable is updated."}
	qPAssoc    = stQuote{"15.3.7.4", "For all routines in the rest of this section that take both handle and pe_session as IN or INOUT arguments, if the handle argument passed in is not associated with the pe_session argument, MPI_T_ERR_INVALID_HANDLE is returned."}
	qPFree     = stQuote{"15.3.7.4", "On a successful return, MPI sets the handle to MPI_T_PVAR_HANDLE_NULL."}
	qPCont     = stQuote{"15.3.7.5", "Performance variables that have the continuous flag set during the query procedure are continuously updated once a handle has been allocated. Such variables may be queried at any time, but they cannot be started or stopped by the user."}
	qPStopped  = stQuote{"15.3.7.5", "All other variables are in a stopped state after their handle has been allocated; their values are not updated until they have been started by the user."}
	qPStart    = stQuote{"15.3.7.5", "This functions starts the performance variable with the handle identified by the parameter handle in the performance experiment session identified by the parameter pe_session."}
	qPStop     = stQuote{"15.3.7.5", "This functions stops the performance variable with the handle identified by the parameter handle in the performance experiment session identified by the parameter pe_session."}
	qPRead     = stQuote{"15.3.7.6", "The MPI_T_PVAR_READ call queries the value of the performance variable with the handle handle in the performance experiment session identified by the parameter pe_session and stores the result in the buffer identified by the parameter buf."}
	qPWrite    = stQuote{"15.3.7.6", "The MPI_T_PVAR_WRITE call attempts to write the value of the performance variable with the handle identified by the parameter handle in the performance experiment session identified by the parameter pe_session."}
	qPNoWrite  = stQuote{"15.3.7.6", "If it is not possible to change the variable, the function returns MPI_T_ERR_PVAR_NO_WRITE."}
	qPReset    = stQuote{"15.3.7.6", "The MPI_T_PVAR_RESET call sets the performance variable with the handle identified by the parameter handle to its starting value specified in Section Performance Variable Classes [§15.3.7.1]. If it is not possible to change the variable, the function returns MPI_T_ERR_PVAR_NO_WRITE."}
	qPRR       = stQuote{"15.3.7.6", "This call atomically combines the functionality of MPI_T_PVAR_READ and MPI_T_PVAR_RESET with the same semantics as if these two calls were called separately. If the variable cannot be read and reset atomically, this routine returns MPI_T_ERR_PVAR_NO_ATOMIC."}

	qEAlloc     = stQuote{"15.3.8.4", "MPI_T_EVENT_HANDLE_ALLOC creates a registration handle for the event type identified by event_index."}
	qERegister  = stQuote{"15.3.8.4", "MPI_T_EVENT_REGISTER_CALLBACK associates a user-defined function pointed to by event_cb_function with an allocated event-registration handle."}
	qEMultiple  = stQuote{"15.3.8.4", "A user can register multiple callback functions for a given event-registration handle, potentially specifying one for each callback safety level. Registering a callback function for a specific callback safety level overwrites any previously-registered callback function pointer and info object associated with the event registration for the specific callback safety level."}
	qENull      = stQuote{"15.3.8.4", "If event_cb_function is the NULL pointer, an existing association of a callback function for that callback safety level is removed."}
	qEHSetInfo  = stQuote{"15.3.8.4", "MPI_T_EVENT_HANDLE_SET_INFO updates the hints of the event-registration handle associated with event_registration using the hints provided in info."}
	qEHGetInfo  = stQuote{"15.3.8.4", "MPI_T_EVENT_HANDLE_GET_INFO returns a new info object containing the hints of the event-registration handle associated with event_registration."}
	qECSetInfo  = stQuote{"15.3.8.4", "MPI_T_EVENT_CALLBACK_SET_INFO updates the hints of the callback function registered for the callback safety level specified by cb_safety of the event-registration handle associated with event_registration using the hints provided in info."}
	qECGetInfo  = stQuote{"15.3.8.4", "MPI_T_EVENT_CALLBACK_GET_INFO returns a new info object containing the hints of the callback function registered for the callback safety level specified by cb_safety of the event-registration handle associated with event_registration."}
	qESelect    = stQuote{"15.3.8.4", "When an event is triggered, the implementation will select from all registered callbacks the callback with the lowest safety level valid in the context in which the callback is invoked. In situations where the required callback safety level exceeds the highest level for which a callback function is registered for a given registration handle, the event instance is dropped."}
	qEUserData  = stQuote{"15.3.8.4", "At callback invocation time, the implementation passes the pointer to a user-defined memory region specified during callback registration with the argument user_data."}
	qEStop      = stQuote{"15.3.8.4", "To stop the MPI implementation from raising events for a specific registration, a user needs to free the corresponding event-registration handle."}
	qEFree      = stQuote{"15.3.8.4", "MPI_T_EVENT_HANDLE_FREE returns MPI_SUCCESS when deallocation of the handle was initiated successfully and returns MPI_T_ERR_INVALID_HANDLE if event_registration does not match a valid allocated event-registration handle at the time of the call."}
	qEFreeCb    = stQuote{"15.3.8.4", "The callback function free_cb_function is called by the MPI implementation, when it is able to guarantee that no further event instances for the corresponding event-registration handle will be raised."}
	qEDropped   = stQuote{"15.3.8.5", "MPI_T_EVENT_SET_DROPPED_HANDLER registers the function dropped_cb_function to be called by the MPI implementation when event information is dropped for the registration handle specified in event_registration. Subsequent calls to MPI_T_EVENT_SET_DROPPED_HANDLER with the same registration handle will replace previously-registered callback functions for that registration handle."}
	qEDropNull  = stQuote{"15.3.8.5", "If the pointer to dropped_cb_function is the NULL pointer, no data loss is recorded or reported until a new valid callback function is registered."}
	qENoDropped = stQuote{"15.3.8.5", "If no event callback is registered for safety requirement levels that an implementation uses to invoke the dropped handler callback function for a specific event, the corresponding dropped handler callback function will not be invoked."}
)

func q(qs ...stQuote) []stQuote { return qs }

func ids(s ...string) []string { return s }

// silent is a cell the text does not speak of.
func silent(state, op, note string) stCell {
	return stCell{State: state, Op: op, Silent: true, Note: note}
}

const (
	notYetMade   = "there is no handle yet: only an allocation makes one"
	anotherOne   = "an allocation makes another handle; it does not act on this one"
	anotherSess  = "a create makes another session; it does not act on this one"
	resetNoState = "a reset starts or stops nothing: the handle is still in the state it was reset in (continuous, started or stopped), whose row holds the call"
	erroneousUse = "erroneous use: the text gives the library no outcome (§15.3.10: undefined), so no rule can fail"
	writableGap  = "a writable variable's write in this state (PVAR-37 and PVAR-37a judge writes of started and continuous handles only)"
	resetGap     = "a writable variable's reset to its starting value in this state (PVAR-38 judges started and continuous handles only)"
	atomicGap    = "an atomic variable's readreset in this state (PVAR-41 judges started and continuous handles only)"
)

// StateObjects are the tables, in the order catalogue.md shows them.
var StateObjects = []stObject{
	{
		Name: "MPI_T epoch (initialization and finalization)", Sections: "§15.3, §15.3.4",
		States: []string{"never initialized", "initialized once", "nested (initialized twice or more)", "finalized to zero"},
		Ops:    []string{"MPI_T_init_thread", "MPI_T_finalize", "another MPI_T routine", "end of the program"},
		Cells: []stCell{
			{State: "never initialized", Op: "MPI_T_init_thread", Quotes: q(qInitMany, qProvided, qBefore), Rules: ids("INIT-1", "INIT-3")},
			{State: "never initialized", Op: "MPI_T_finalize", Quotes: q(qFinalize), Rules: ids("INIT-6a")},
			{State: "never initialized", Op: "another MPI_T routine", Quotes: q(qMustInit, rowNotInit, qUndefined),
				NotJudged: "erroneous: the routines may be called only after initialization; Table 23 names MPI_T_ERR_NOT_INITIALIZED, but no sentence requires it (INIT-7, quality, judges the call after finalizing to zero)"},
			{State: "never initialized", Op: "end of the program", Quotes: q(qEqual),
				NotJudged: "the requirement binds the application (here the counts are equal, 0 and 0); the library is given nothing to do"},
			{State: "initialized once", Op: "MPI_T_init_thread", Quotes: q(qNested, qProvided), Rules: ids("INIT-2", "INIT-3", "INIT-4")},
			{State: "initialized once", Op: "MPI_T_finalize", Quotes: q(qNoLonger), Rules: ids("INIT-1", "INIT-8")},
			{State: "initialized once", Op: "another MPI_T routine", Quotes: q(qStays, qBefore), Rules: ids("INIT-1", "INIT-9", "SESS-1", "SESS-2"),
				Note: "every other MPI_T rule's fixture calls in this state too"},
			{State: "initialized once", Op: "end of the program", Quotes: q(qEqual),
				NotJudged: "erroneous: the application ends with one MPI_T_init_thread not finalized"},
			{State: "nested (initialized twice or more)", Op: "MPI_T_init_thread", Quotes: q(qNested, qProvided), Rules: ids("INIT-2", "INIT-3", "INIT-4")},
			{State: "nested (initialized twice or more)", Op: "MPI_T_finalize", Quotes: q(qStays), Rules: ids("INIT-5")},
			{State: "nested (initialized twice or more)", Op: "another MPI_T routine", Quotes: q(qStays), Rules: ids("INIT-5", "INIT-9")},
			{State: "nested (initialized twice or more)", Op: "end of the program", Quotes: q(qEqual),
				NotJudged: "erroneous: the application ends with MPI_T_init_thread calls not finalized"},
			{State: "finalized to zero", Op: "MPI_T_init_thread", Quotes: q(qReinit, qAgain), Rules: ids("INIT-8", "END-1")},
			{State: "finalized to zero", Op: "MPI_T_finalize", Quotes: q(qFinalize), Rules: ids("INIT-6")},
			{State: "finalized to zero", Op: "another MPI_T routine", Quotes: q(qNoLonger, qMustInit, rowNotInit, qUndefined), Rules: ids("INIT-7"),
				Note: "the text makes the call erroneous; INIT-7 is quality (MPI_T_ERR_NOT_INITIALIZED, the code Table 23 names)"},
			{State: "finalized to zero", Op: "end of the program", Quotes: q(qEqual), Rules: ids("INIT-X1"),
				Note: "the counts are equal; the text gives the library nothing to do at exit, INIT-X1 (quality) judges that the process exits normally"},
		},
	},
	{
		Name: "control variable handle", Sections: "§15.3.6.2, §15.3.6.3",
		States: []string{"not allocated", "allocated", "freed (MPI_T_CVAR_HANDLE_NULL)"},
		Ops:    []string{"MPI_T_cvar_handle_alloc", "MPI_T_cvar_read", "MPI_T_cvar_write", "MPI_T_cvar_handle_free"},
		Cells: []stCell{
			{State: "not allocated", Op: "MPI_T_cvar_handle_alloc", Quotes: q(qCAlloc, rowHandles), Rules: ids("CVAR-10", "META-4", "META-5", "META-7", "ERR-3", "ERR-5", "END-2")},
			silent("not allocated", "MPI_T_cvar_read", notYetMade),
			silent("not allocated", "MPI_T_cvar_write", notYetMade),
			silent("not allocated", "MPI_T_cvar_handle_free", notYetMade),
			silent("allocated", "MPI_T_cvar_handle_alloc", anotherOne),
			{State: "allocated", Op: "MPI_T_cvar_read", Quotes: q(qCRead), Rules: ids("CVAR-12", "META-8", "CVAR-16", "INIT-10", "CVAR-X2", "CVAR-X3")},
			{State: "allocated", Op: "MPI_T_cvar_write", Quotes: q(qCWrite, qCRefuse), Rules: ids("CVAR-13", "CVAR-14", "CVAR-15", "CVAR-17")},
			{State: "allocated", Op: "MPI_T_cvar_handle_free", Quotes: q(qCFree), Rules: ids("CVAR-11")},
			silent("freed (MPI_T_CVAR_HANDLE_NULL)", "MPI_T_cvar_handle_alloc", anotherOne),
			{State: "freed (MPI_T_CVAR_HANDLE_NULL)", Op: "MPI_T_cvar_read", Quotes: q(qCFree, rowHandle, qUndefined), Rules: ids("ERR-4a"),
				Note: "no sentence gives a control variable call on the null handle an outcome; ERR-4a is quality (MPI_T_ERR_INVALID_HANDLE, the code Table 23 names)"},
			{State: "freed (MPI_T_CVAR_HANDLE_NULL)", Op: "MPI_T_cvar_write", Quotes: q(qCFree, rowHandle, qUndefined), Rules: ids("ERR-4a"),
				Note: "as the read: ERR-4a is quality"},
			{State: "freed (MPI_T_CVAR_HANDLE_NULL)", Op: "MPI_T_cvar_handle_free", Quotes: q(qCFree, rowHandle, qUndefined), Rules: ids("ERR-4c"),
				Note: "ERR-4c is quality: no crash"},
		},
	},
	{
		Name: "performance experiment session", Sections: "§15.3.7.3-§15.3.7.6",
		States: []string{"not created", "created, no handle", "holding handles", "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)"},
		Ops:    []string{"MPI_T_pvar_session_create", "MPI_T_pvar_handle_alloc", "start(MPI_T_PVAR_ALL_HANDLES)", "stop(MPI_T_PVAR_ALL_HANDLES)", "reset(MPI_T_PVAR_ALL_HANDLES)", "read, write, readreset (MPI_T_PVAR_ALL_HANDLES)", "MPI_T_pvar_session_free"},
		Cells: []stCell{
			{State: "not created", Op: "MPI_T_pvar_session_create", Quotes: q(qSCreate, rowSessions), Rules: ids("PVAR-21", "ERR-5", "END-2")},
			silent("not created", "MPI_T_pvar_handle_alloc", "there is no session yet"),
			silent("not created", "start(MPI_T_PVAR_ALL_HANDLES)", "there is no session yet"),
			silent("not created", "stop(MPI_T_PVAR_ALL_HANDLES)", "there is no session yet"),
			silent("not created", "reset(MPI_T_PVAR_ALL_HANDLES)", "there is no session yet"),
			silent("not created", "read, write, readreset (MPI_T_PVAR_ALL_HANDLES)", "there is no session yet"),
			silent("not created", "MPI_T_pvar_session_free", "there is no session yet"),
			silent("created, no handle", "MPI_T_pvar_session_create", anotherSess),
			{State: "created, no handle", Op: "MPI_T_pvar_handle_alloc", Quotes: q(qPAlloc), Rules: ids("PVAR-26", "META-4", "META-5", "ERR-3")},
			{State: "created, no handle", Op: "start(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qStartAll), Rules: ids("PVAR-33")},
			{State: "created, no handle", Op: "stop(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qStopAll), Rules: ids("PVAR-34")},
			{State: "created, no handle", Op: "reset(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qResetAll), Rules: ids("PVAR-39")},
			{State: "created, no handle", Op: "read, write, readreset (MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qNotRead, qNotWrite, qNotRR, qUndefined),
				NotJudged: "erroneous use (the constant 'cannot be used' there): the library is given no outcome; the calls are recorded as evidence of PVAR-33, PVAR-34 and PVAR-39"},
			{State: "created, no handle", Op: "MPI_T_pvar_session_free", Quotes: q(qSFree), Rules: ids("PVAR-22", "END-2")},
			silent("holding handles", "MPI_T_pvar_session_create", anotherSess),
			{State: "holding handles", Op: "MPI_T_pvar_handle_alloc", Quotes: q(qPAlloc, rowHandles), Rules: ids("ERR-5"),
				Note: "ERR-5 (quality) allocates without freeing until the library refuses: every allocation succeeds or MPI_T_ERR_OUT_OF_HANDLES ends them"},
			{State: "holding handles", Op: "start(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qStartAll), Rules: ids("PVAR-33")},
			{State: "holding handles", Op: "stop(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qStopAll), Rules: ids("PVAR-34")},
			{State: "holding handles", Op: "reset(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qResetAll), Rules: ids("PVAR-39")},
			{State: "holding handles", Op: "read, write, readreset (MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qNotRead, qNotWrite, qNotRR, qUndefined),
				NotJudged: "erroneous use (the constant 'cannot be used' there): the library is given no outcome; the calls are recorded as evidence of PVAR-33, PVAR-34 and PVAR-39"},
			{State: "holding handles", Op: "MPI_T_pvar_session_free", Quotes: q(qSFree), Rules: ids("PVAR-22a")},
			silent("freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", "MPI_T_pvar_session_create", anotherSess),
			{State: "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", Op: "MPI_T_pvar_handle_alloc", Quotes: q(qSNoLonger, rowSession, qUndefined), Rules: ids("PVAR-42"),
				Note: "erroneous use; PVAR-42 is quality (MPI_T_ERR_INVALID_SESSION, the code Table 23 names)"},
			{State: "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", Op: "start(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qSNoLonger, rowSession, qUndefined), Rules: ids("PVAR-42"),
				Note: "erroneous use; PVAR-42 is quality"},
			{State: "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", Op: "stop(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qSNoLonger, rowSession, qUndefined),
				NotJudged: erroneousUse + " (PVAR-42, quality, judges the allocation and the start only)"},
			{State: "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", Op: "reset(MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qSNoLonger, rowSession, qUndefined),
				NotJudged: erroneousUse + " (PVAR-42, quality, judges the allocation and the start only)"},
			{State: "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", Op: "read, write, readreset (MPI_T_PVAR_ALL_HANDLES)", Quotes: q(qSNoLonger, qNotRead, qUndefined),
				NotJudged: erroneousUse + ", twice over"},
			{State: "freed (MPI_T_PVAR_SESSION_NULL, or a copy kept from before)", Op: "MPI_T_pvar_session_free", Quotes: q(qSNoLonger, rowSession, qUndefined), Rules: ids("ERR-4c"),
				Note: "erroneous use; ERR-4c (quality) judges the free of MPI_T_PVAR_SESSION_NULL: no crash (PVAR-22 records the free of a freed session as evidence)"},
		},
	},
	{
		Name: "performance variable handle", Sections: "§15.3.7.1-§15.3.7.6",
		States: []string{"continuous (active from allocation)", "never started (not continuous)", "started", "stopped", "just reset", "freed (MPI_T_PVAR_HANDLE_NULL)", "of another session", "its session freed"},
		Ops:    []string{"MPI_T_pvar_start", "MPI_T_pvar_stop", "MPI_T_pvar_read", "MPI_T_pvar_write", "MPI_T_pvar_reset", "MPI_T_pvar_readreset", "MPI_T_pvar_handle_free"},
		Cells: []stCell{
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_start", Quotes: q(qPCont, rowStartStop), Rules: ids("PVAR-30")},
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_stop", Quotes: q(qPCont, rowStartStop), Rules: ids("PVAR-30")},
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_read", Quotes: q(qPCont, qPRead), Rules: ids("PVAR-29", "PVAR-35", "PVAR-26", "PVAR-12", "PVAR-13", "PVAR-19", "PVAR-14b")},
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_write", Quotes: q(qPWrite, qPNoWrite, qPReadonly, qSIndep), Rules: ids("PVAR-36", "PVAR-37", "PVAR-37a", "PVAR-25")},
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_reset", Quotes: q(qPReset, qPReadonly, qSIndep), Rules: ids("PVAR-36", "PVAR-38", "PVAR-37a", "PVAR-25")},
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_readreset", Quotes: q(qPRR, qSIndep), Rules: ids("PVAR-40", "PVAR-41", "PVAR-25")},
			{State: "continuous (active from allocation)", Op: "MPI_T_pvar_handle_free", Quotes: q(qPFree), Rules: ids("PVAR-28", "PVAR-26")},

			{State: "never started (not continuous)", Op: "MPI_T_pvar_start", Quotes: q(qPStopped, qPCont0, qPStart), Rules: ids("PVAR-32a", "PVAR-31")},
			silent("never started (not continuous)", "MPI_T_pvar_stop", "the handle is in a stopped state already; what stopping it again does the text does not say (stop with MPI_T_PVAR_ALL_HANDLES ignores it: the session table)"),
			{State: "never started (not continuous)", Op: "MPI_T_pvar_read", Quotes: q(qPStopped, qPRead), Rules: ids("PVAR-31"),
				Note: "PVAR-31 judges the value where the read succeeds; whether a read before the first start must succeed the text does not say (continuous variables 'may be queried at any time', the others are not said to be): refusals are recorded, not judged"},
			{State: "never started (not continuous)", Op: "MPI_T_pvar_write", Quotes: q(qPWrite, qPNoWrite, qPReadonly), Rules: ids("PVAR-36a"), NoRule: writableGap},
			{State: "never started (not continuous)", Op: "MPI_T_pvar_reset", Quotes: q(qPReset, qPReadonly), Rules: ids("PVAR-36b"), NoRule: resetGap},
			{State: "never started (not continuous)", Op: "MPI_T_pvar_readreset", Quotes: q(qPRR), Rules: ids("PVAR-40a"), NoRule: atomicGap},
			{State: "never started (not continuous)", Op: "MPI_T_pvar_handle_free", Quotes: q(qPFree), Rules: ids("PVAR-28a")},

			silent("started", "MPI_T_pvar_start", "what starting a started handle does the text does not say (start with MPI_T_PVAR_ALL_HANDLES ignores it: the session table)"),
			{State: "started", Op: "MPI_T_pvar_stop", Quotes: q(qPCont0, qPStop, qSIndep), Rules: ids("PVAR-32b", "PVAR-32", "PVAR-23")},
			{State: "started", Op: "MPI_T_pvar_read", Quotes: q(qPRead, qPStarting, qSIndep), Rules: ids("PVAR-35", "PVAR-26", "PVAR-14a", "PVAR-15", "PVAR-17", "PVAR-24", "PVAR-12", "PVAR-13", "PVAR-19", "PVAR-20", "PVAR-16")},
			{State: "started", Op: "MPI_T_pvar_write", Quotes: q(qPWrite, qPNoWrite, qPReadonly, qSIndep), Rules: ids("PVAR-36", "PVAR-37", "PVAR-37a", "PVAR-25")},
			{State: "started", Op: "MPI_T_pvar_reset", Quotes: q(qPReset, qPReadonly, qPStarting, qSIndep), Rules: ids("PVAR-36", "PVAR-38", "PVAR-18", "PVAR-37a", "PVAR-25")},
			{State: "started", Op: "MPI_T_pvar_readreset", Quotes: q(qPRR, qSIndep), Rules: ids("PVAR-40", "PVAR-41", "PVAR-25")},
			{State: "started", Op: "MPI_T_pvar_handle_free", Quotes: q(qPFree), Rules: ids("PVAR-28", "PVAR-26")},

			{State: "stopped", Op: "MPI_T_pvar_start", Quotes: q(qPCont0, qPStart), Rules: ids("PVAR-32c"),
				NoRule: "that a restarted handle is updated again (no fixture makes traffic after a restart)"},
			silent("stopped", "MPI_T_pvar_stop", "what stopping a stopped handle does the text does not say (stop with MPI_T_PVAR_ALL_HANDLES ignores it: the session table)"),
			{State: "stopped", Op: "MPI_T_pvar_read", Quotes: q(qPCont0, qPStop, qPRead, qSIndep), Rules: ids("PVAR-32")},
			{State: "stopped", Op: "MPI_T_pvar_write", Quotes: q(qPWrite, qPNoWrite, qPReadonly), Rules: ids("PVAR-36c"), NoRule: writableGap},
			{State: "stopped", Op: "MPI_T_pvar_reset", Quotes: q(qPReset, qPReadonly), Rules: ids("PVAR-36d"), NoRule: resetGap},
			{State: "stopped", Op: "MPI_T_pvar_readreset", Quotes: q(qPRR), Rules: ids("PVAR-40b"), NoRule: atomicGap},
			{State: "stopped", Op: "MPI_T_pvar_handle_free", Quotes: q(qPFree), Rules: ids("PVAR-28b")},

			silent("just reset", "MPI_T_pvar_start", resetNoState),
			silent("just reset", "MPI_T_pvar_stop", resetNoState),
			{State: "just reset", Op: "MPI_T_pvar_read", Quotes: q(qPReset, qPStarting), Rules: ids("PVAR-38", "PVAR-41", "PVAR-18")},
			silent("just reset", "MPI_T_pvar_write", resetNoState),
			silent("just reset", "MPI_T_pvar_reset", resetNoState),
			silent("just reset", "MPI_T_pvar_readreset", resetNoState),
			silent("just reset", "MPI_T_pvar_handle_free", resetNoState),

			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_start", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4b")},
			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_stop", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4f")},
			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_read", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4b")},
			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_write", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4g")},
			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_reset", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4h")},
			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_readreset", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4i")},
			{State: "freed (MPI_T_PVAR_HANDLE_NULL)", Op: "MPI_T_pvar_handle_free", Quotes: q(qPFree, qPAssoc), Rules: ids("ERR-4e")},

			{State: "of another session", Op: "MPI_T_pvar_start", Quotes: q(qPAssoc), Rules: ids("PVAR-27a")},
			{State: "of another session", Op: "MPI_T_pvar_stop", Quotes: q(qPAssoc), Rules: ids("PVAR-27b")},
			{State: "of another session", Op: "MPI_T_pvar_read", Quotes: q(qPAssoc), Rules: ids("PVAR-27")},
			{State: "of another session", Op: "MPI_T_pvar_write", Quotes: q(qPAssoc), Rules: ids("PVAR-27c")},
			{State: "of another session", Op: "MPI_T_pvar_reset", Quotes: q(qPAssoc), Rules: ids("PVAR-27d")},
			{State: "of another session", Op: "MPI_T_pvar_readreset", Quotes: q(qPAssoc), Rules: ids("PVAR-27e")},
			{State: "of another session", Op: "MPI_T_pvar_handle_free", Quotes: q(qPAssoc), Rules: ids("PVAR-27f")},

			{State: "its session freed", Op: "MPI_T_pvar_start", Quotes: q(qSNoLonger, rowSession, qUndefined), NotJudged: erroneousUse},
			{State: "its session freed", Op: "MPI_T_pvar_stop", Quotes: q(qSNoLonger, rowSession, qUndefined), NotJudged: erroneousUse},
			{State: "its session freed", Op: "MPI_T_pvar_read", Quotes: q(qSNoLonger, rowSession, qUndefined), Rules: ids("ERR-4d"),
				Note: "erroneous use; ERR-4d is quality (MPI_T_ERR_INVALID_SESSION or _INVALID_HANDLE, the codes Table 23 names)"},
			{State: "its session freed", Op: "MPI_T_pvar_write", Quotes: q(qSNoLonger, rowSession, qUndefined), NotJudged: erroneousUse},
			{State: "its session freed", Op: "MPI_T_pvar_reset", Quotes: q(qSNoLonger, rowSession, qUndefined), NotJudged: erroneousUse},
			{State: "its session freed", Op: "MPI_T_pvar_readreset", Quotes: q(qSNoLonger, rowSession, qUndefined), NotJudged: erroneousUse},
			{State: "its session freed", Op: "MPI_T_pvar_handle_free", Quotes: q(qSNoLonger, rowSession, qUndefined), NotJudged: erroneousUse},
		},
	},
	{
		Name: "event registration", Sections: "§15.3.8.4, §15.3.8.5",
		States: []string{"not allocated", "allocated, no callback", "callbacks registered", "freed (deallocation initiated)"},
		Ops:    []string{"MPI_T_event_handle_alloc", "MPI_T_event_register_callback", "MPI_T_event_register_callback(NULL)", "MPI_T_event_handle_set_info, _get_info", "MPI_T_event_callback_set_info, _get_info", "MPI_T_event_set_dropped_handler", "an event instance is raised", "MPI_T_event_handle_free"},
		Cells: []stCell{
			{State: "not allocated", Op: "MPI_T_event_handle_alloc", Quotes: q(qEAlloc), Rules: ids("EH-1", "CB-14")},
			silent("not allocated", "MPI_T_event_register_callback", notYetMade),
			silent("not allocated", "MPI_T_event_register_callback(NULL)", notYetMade),
			silent("not allocated", "MPI_T_event_handle_set_info, _get_info", notYetMade),
			silent("not allocated", "MPI_T_event_callback_set_info, _get_info", notYetMade),
			silent("not allocated", "MPI_T_event_set_dropped_handler", notYetMade),
			silent("not allocated", "an event instance is raised", "no registration: nothing of the user's is called"),
			silent("not allocated", "MPI_T_event_handle_free", notYetMade),

			silent("allocated, no callback", "MPI_T_event_handle_alloc", anotherOne),
			{State: "allocated, no callback", Op: "MPI_T_event_register_callback", Quotes: q(qERegister), Rules: ids("EH-1", "CB-14", "CB-8", "CB-9")},
			silent("allocated, no callback", "MPI_T_event_register_callback(NULL)", "the text speaks of removing 'an existing association'; with none, it does not say"),
			{State: "allocated, no callback", Op: "MPI_T_event_handle_set_info, _get_info", Quotes: q(qEHSetInfo, qEHGetInfo),
				NoRule: "the hints of a handle with no callback (EH-7 and EH-8 set and get them after a callback is registered)"},
			silent("allocated, no callback", "MPI_T_event_callback_set_info, _get_info", "the text speaks of the hints of 'the callback function registered for the callback safety level'; with none registered, it does not say"),
			{State: "allocated, no callback", Op: "MPI_T_event_set_dropped_handler", Quotes: q(qEDropped),
				NoRule: "setting a dropped handler on a handle with no callback (DROP-1 to DROP-6 set it after callbacks are registered)"},
			{State: "allocated, no callback", Op: "an event instance is raised", Quotes: q(qESelect, qENoDropped),
				NoRule: "no callback runs and a dropped handler set on the handle is not invoked (no fixture raises events on a handle with no callback)"},
			{State: "allocated, no callback", Op: "MPI_T_event_handle_free", Quotes: q(qEFree), Rules: ids("EH-2a")},

			silent("callbacks registered", "MPI_T_event_handle_alloc", anotherOne),
			{State: "callbacks registered", Op: "MPI_T_event_register_callback", Quotes: q(qEMultiple), Rules: ids("CB-2", "CB-3", "EH-1")},
			{State: "callbacks registered", Op: "MPI_T_event_register_callback(NULL)", Quotes: q(qENull), Rules: ids("CB-4")},
			{State: "callbacks registered", Op: "MPI_T_event_handle_set_info, _get_info", Quotes: q(qEHSetInfo, qEHGetInfo), Rules: ids("EH-7", "EH-8")},
			{State: "callbacks registered", Op: "MPI_T_event_callback_set_info, _get_info", Quotes: q(qECSetInfo, qECGetInfo), Rules: ids("EH-7a", "EH-8")},
			{State: "callbacks registered", Op: "MPI_T_event_set_dropped_handler", Quotes: q(qEDropped, qEDropNull), Rules: ids("DROP-1", "DROP-2", "DROP-3", "DROP-4", "DROP-5", "DROP-6")},
			{State: "callbacks registered", Op: "an event instance is raised", Quotes: q(qESelect, qEUserData), Rules: ids("CB-1a", "CB-2", "CB-5", "CB-6", "CB-7", "CB-8", "CB-8t", "CB-9", "CB-10", "CB-11", "CB-12", "CB-13", "CB-14")},
			{State: "callbacks registered", Op: "MPI_T_event_handle_free", Quotes: q(qEFree, qEFreeCb), Rules: ids("EH-2", "EH-4", "EH-5", "EH-6", "CB-15")},

			silent("freed (deallocation initiated)", "MPI_T_event_handle_alloc", anotherOne),
			{State: "freed (deallocation initiated)", Op: "MPI_T_event_register_callback", Quotes: q(qUndefined), NotJudged: "a freed registration is an invalid argument: " + erroneousUse},
			{State: "freed (deallocation initiated)", Op: "MPI_T_event_register_callback(NULL)", Quotes: q(qUndefined), NotJudged: "a freed registration is an invalid argument: " + erroneousUse},
			{State: "freed (deallocation initiated)", Op: "MPI_T_event_handle_set_info, _get_info", Quotes: q(qUndefined), NotJudged: "a freed registration is an invalid argument: " + erroneousUse},
			{State: "freed (deallocation initiated)", Op: "MPI_T_event_callback_set_info, _get_info", Quotes: q(qUndefined), NotJudged: "a freed registration is an invalid argument: " + erroneousUse},
			{State: "freed (deallocation initiated)", Op: "MPI_T_event_set_dropped_handler", Quotes: q(qUndefined), NotJudged: "a freed registration is an invalid argument: " + erroneousUse},
			{State: "freed (deallocation initiated)", Op: "an event instance is raised", Quotes: q(qEStop, qEFreeCb), Rules: ids("EH-4", "CB-15")},
			{State: "freed (deallocation initiated)", Op: "MPI_T_event_handle_free", Quotes: q(qEFree), Rules: ids("EH-3")},
		},
	},
}

// precedenceNote is what the text says of calls with several faults at
// once: nothing, so no cell holds such a rule.
const precedenceNote = "Which error a call with several faults at once returns, the text says nowhere (no sentence of chapter 15 orders its return codes): no cell holds such a rule. " +
	"Where a fixture meets two faults at once, the judge accepts either code and says how often that happened: readreset of a read-only variable that is not atomic (MPI_T_ERR_PVAR_NO_ATOMIC or _NO_WRITE: PVAR-40, PVAR-40a, PVAR-40b); " +
	"a handle of another session of a continuous, read-only or non-atomic variable (MPI_T_ERR_INVALID_HANDLE or the variable's own code: PVAR-27a to PVAR-27e)."

// cellOf finds a cell of o.
func (o stObject) cellOf(state, op string) (stCell, bool) {
	for _, c := range o.Cells {
		if c.State == state && c.Op == op {
			return c, true
		}
	}
	return stCell{}, false
}

// stCounts are a table's numbers.
type stCounts struct{ cells, spoken, judged, normative, notJudged, noRule int }

func (o stObject) counts(basis map[string]rulebook.Basis) stCounts {
	var n stCounts
	for _, c := range o.Cells {
		n.cells++
		if !c.spoken() {
			continue
		}
		n.spoken++
		switch {
		case c.Judged():
			n.judged++
			for _, id := range c.Rules {
				if basis[id] == rulebook.Normative {
					n.normative++
					break
				}
			}
		case c.NotJudged != "":
			n.notJudged++
		}
		if c.NoRule != "" {
			n.noRule++
		}
	}
	return n
}

// stateRules are the rule ids the tables name, in order of first mention.
func stateRules() []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range StateObjects {
		for _, c := range o.Cells {
			for _, id := range c.Rules {
				if !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
		}
	}
	return out
}

// StateTables renders the tables for catalogue.md, with the verdicts of
// verdicts.json on the rules they name.
func StateTables(rules []rulebook.RuleInfo, rows []Row) string {
	basis := map[string]rulebook.Basis{}
	for _, r := range rules {
		basis[r.ID] = r.Basis
	}
	var b strings.Builder
	b.WriteString("\n## State × operation\n\n")
	b.WriteString("Generated from `cmd/mpits/states.go`: for each MPI_T object that has states, what each operation does in each state, as the text of MPI-5.0 chapter 15 says it (quoted below each table; `states_test.go` finds every quote in `../shared/reference/standard`, in its section), and the rules that judge it. ")
	b.WriteString("A cell names the rules that judge it; *not judged*: the text speaks of the cell but gives the library no outcome a rule could fail (erroneous or undefined use, or a requirement on the application only); *no rule yet*: the text gives an outcome no rule judges (with rule ids: a part of the cell); —: the text does not say what the operation does in that state.\n\n")
	b.WriteString("| object | states | operations | cells | the text speaks of | judged | by a normative rule | not judged | no rule yet (in part) |\n|---|---|---|---|---|---|---|---|---|\n")
	var total stCounts
	nStates, nOps := 0, 0
	for _, o := range StateObjects {
		n := o.counts(basis)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", o.Name, len(o.States), len(o.Ops), n.cells, n.spoken, n.judged, n.normative, n.notJudged, n.noRule)
		total.cells += n.cells
		total.spoken += n.spoken
		total.judged += n.judged
		total.normative += n.normative
		total.notJudged += n.notJudged
		total.noRule += n.noRule
		nStates += len(o.States)
		nOps += len(o.Ops)
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %d | %d | %d | %d |\n", nStates, nOps, total.cells, total.spoken, total.judged, total.normative, total.notJudged, total.noRule)

	named := stateRules()
	byBasis := map[rulebook.Basis]int{}
	for _, id := range named {
		byBasis[basis[id]]++
	}
	var parts []string
	for _, bs := range rulebook.Bases {
		if byBasis[bs] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", byBasis[bs], bs))
		}
	}
	fmt.Fprintf(&b, "\nThe tables name %d rules (%s).", len(named), strings.Join(parts, ", "))
	inTables := map[string]bool{}
	for _, id := range named {
		inTables[id] = true
	}
	status := map[verdict.Status]int{}
	withVerdict := map[string]bool{}
	for _, r := range rows {
		if inTables[r.ID] {
			status[r.Status]++
			withVerdict[r.ID] = true
		}
	}
	if len(rows) > 0 {
		var st []string
		for _, s := range []verdict.Status{verdict.Pass, verdict.Fail, verdict.Unsupported, verdict.Error} {
			st = append(st, fmt.Sprintf("%d %s", status[s], s))
		}
		fmt.Fprintf(&b, " Their verdicts in `verdicts.json`: %s", strings.Join(st, ", "))
		var none []string
		for _, id := range named {
			if !withVerdict[id] {
				none = append(none, id)
			}
		}
		if len(none) > 0 {
			fmt.Fprintf(&b, "; %d of the rules have no verdict there yet (added after that run): %s", len(none), strings.Join(none, ", "))
		}
		b.WriteString(".")
	}
	b.WriteString("\n\n" + precedenceNote + "\n")

	for _, o := range StateObjects {
		fmt.Fprintf(&b, "\n### %s (MPI-5.0 %s)\n\n", o.Name, o.Sections)
		b.WriteString("| state \\ operation | " + strings.Join(o.Ops, " | ") + " |\n|---|" + strings.Repeat("---|", len(o.Ops)) + "\n")
		for _, s := range o.States {
			cells := []string{s}
			for _, op := range o.Ops {
				c, _ := o.cellOf(s, op)
				cells = append(cells, cellMark(c))
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		b.WriteString("\n")
		for _, s := range o.States {
			for _, op := range o.Ops {
				c, _ := o.cellOf(s, op)
				b.WriteString(cellText(c))
			}
		}
	}
	return b.String()
}

// cellMark is a cell in the table.
func cellMark(c stCell) string {
	switch {
	case c.Silent:
		return "—"
	case c.Judged() && c.NoRule != "":
		return strings.Join(c.Rules, ", ") + "; in part no rule yet"
	case c.Judged():
		return strings.Join(c.Rules, ", ")
	case c.NoRule != "":
		return "no rule yet"
	}
	return "not judged"
}

// cellText is a cell's entry under the table: what it says and the quotes.
func cellText(c stCell) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- **%s × %s**: ", c.State, c.Op)
	var says []string
	switch {
	case c.Silent:
		says = append(says, "the text does not say")
	case c.Judged():
		says = append(says, "judged by "+strings.Join(c.Rules, ", "))
	case c.NotJudged != "":
		says = append(says, "not judged: "+c.NotJudged)
	}
	if c.NoRule != "" {
		says = append(says, "no rule yet: "+c.NoRule)
	}
	if c.Note != "" {
		says = append(says, c.Note)
	}
	b.WriteString(strings.Join(says, "; ") + ".")
	for _, qt := range c.Quotes {
		fmt.Fprintf(&b, " §%s: “%s”", qt.Sec, strings.ReplaceAll(qt.Text, "|", "\\|"))
	}
	b.WriteString("\n")
	return b.String()
}

// UncoveredCells lists the cells the text gives an outcome no rule judges,
// for the tests and reports.
func UncoveredCells() []string {
	var out []string
	for _, o := range StateObjects {
		for _, c := range o.Cells {
			if c.NoRule != "" {
				out = append(out, fmt.Sprintf("%s: %s × %s: %s", o.Name, c.State, c.Op, c.NoRule))
			}
		}
	}
	sort.Strings(out)
	return out
}
