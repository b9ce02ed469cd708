package mpit

import (
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// MPI-5.0 §15.3.6 (MPI-4.1 §16.3.6 in the HTML numbering; Control Variable
// Access Functions): MPI_T_cvar_read
// "queries the value of a control variable"; MPI_T_cvar_write "sets the
// value ... If it is not possible to change the variable at the time the
// call is made, the function returns either MPI_T_ERR_CVAR_SET_NOT_NOW ...
// or MPI_T_ERR_CVAR_SET_NEVER, if the variable cannot be set for the
// remainder of the application's execution"; scopes MPI_T_SCOPE_CONSTANT
// ("read-only, value is constant") and MPI_T_SCOPE_READONLY ("read-only,
// cannot be written") can never be set. §16.3.6: "On many systems, such
// variables can be set using environment variables": the implementation's
// own convention (MPICH: the variable's name; Open MPI: OMPI_MCA_<name>) is
// what reading the variable then returns. CVAR-10 to -15 and CVAR-X3 are
// judged in cvar_rw_judges.go, each on its own records of the reads or the
// writes run.
var cvarRW = rulebook.Define(rulebook.Check{
	ID:    "MPIT-CVAR-RW",
	Needs: "mpit",
	Title: "every control variable reads through a handle; writable ones take a different value, read it back and take the old one back; read-only scopes refuse writes with MPI_T_ERR_CVAR_SET_NEVER; a variable set through the environment reads that value",
	Rules: []rulebook.Rule{
		// §15.3.6.2: MPI_T_CVAR_HANDLE_ALLOC binds the variable and returns in
		// count "the number of elements used to represent this variable".
		{ID: "CVAR-10", Source: "MPI-5.0 §15.3.6.2", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_handle_alloc succeeds for every control variable (bound to an object this fixture makes) and MPI_T_cvar_read writes no more than its count",
			Injectors: []string{"inject_mpit_cvar_alloc_fails"}, Exposure: cvar10Exposure.Declared(), Judge: judgeCvar10},
		// §15.3.6.2: "On a successful return, MPI sets the handle to
		// MPI_T_CVAR_HANDLE_NULL."
		{ID: "CVAR-11", Source: "MPI-5.0 §15.3.6.2", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_handle_free succeeds and sets the handle to MPI_T_CVAR_HANDLE_NULL",
			Injectors: []string{"inject_mpit_cvar_free_keeps"}, Exposure: cvar11Exposure.Declared(), Judge: judgeCvar11},
		// §15.3.6.3: MPI_T_CVAR_READ "queries the value of a control variable".
		{ID: "CVAR-12", Source: "MPI-5.0 §15.3.6.3", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_read succeeds on a valid handle (an inactive variable's MPI_T_ERR_INVALID_INDEX excepted)",
			Injectors: []string{"inject_mpit_cvar_read_fails"}, Exposure: cvar12Exposure.Declared(), Judge: judgeCvar12},
		// §15.3.6.3: MPI_T_CVAR_WRITE "sets the value of the control variable".
		{ID: "CVAR-13", Source: "MPI-5.0 §15.3.6.3", Basis: rulebook.Normative,
			Text:      "a write MPI_T_cvar_write accepts sets the variable: it reads back the value written, and the old value can be written back",
			Injectors: []string{"inject_mpit_cvar_write_lost"}, Exposure: cvar13Exposure.Declared(), Judge: judgeCvar13},
		// §15.3.6.3: "If it is not possible to change the variable at the time
		// the call is made, the function returns either
		// MPI_T_ERR_CVAR_SET_NOT_NOW ... or MPI_T_ERR_CVAR_SET_NEVER".
		{ID: "CVAR-14", Source: "MPI-5.0 §15.3.6.3", Basis: rulebook.Normative,
			Text:      "a write of a writable-scope variable either succeeds or is refused with MPI_T_ERR_CVAR_SET_NOT_NOW or _SET_NEVER, and a refused write leaves the value",
			Injectors: []string{"inject_mpit_cvar_write_memory"}, Exposure: cvar14Exposure.Declared(), Judge: judgeCvar14},
		// Table 20: MPI_T_SCOPE_CONSTANT "read-only, value is constant",
		// MPI_T_SCOPE_READONLY "read-only, cannot be written, but can change".
		{ID: "CVAR-15", Source: "MPI-5.0 §15.3.6.1, §15.3.6.3", Basis: rulebook.Normative,
			Text:      "writing a variable of scope CONSTANT or READONLY returns MPI_T_ERR_CVAR_SET_NEVER and leaves its value",
			Injectors: []string{"inject_mpit_cvar_write_memory"}, Exposure: cvar15Exposure.Declared(), Judge: judgeCvar15},
		// §15.3.6: "On many systems, such variables can be set using
		// environment variables": a convention of the implementation, not a
		// requirement.
		{ID: "CVAR-X3", Source: "MPI-5.0 §15.3.6", Basis: rulebook.Quality,
			Text:      "a control variable set through the implementation's environment convention reads the value set",
			Injectors: []string{"inject_mpit_cvar_env_ignored"}, Exposure: cvarX3Exposure.Declared(), Judge: judgeCvarX3},
		// §15.3.5: "If a variable has type MPI_CHAR, the value of the count
		// parameter returned by MPI_T_CVAR_HANDLE_ALLOC and
		// MPI_T_PVAR_HANDLE_ALLOC must be large enough to include any valid
		// value, including its terminating null character." (judge: charvars.go)
		{ID: "META-7", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "the count MPI_T_cvar_handle_alloc returns for an MPI_CHAR control variable holds the value it reads plus its terminating NUL",
			Injectors: []string{"inject_mpit_char_unterminated"}, Exposure: meta7Exposure.Declared(), Judge: judgeMeta7},
		// §15.3.5: "The use of the datatype MPI_CHAR in the MPI tool
		// information interface implies a null-terminated character array"
		// (judge: charvars.go).
		{ID: "META-8", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_read of an MPI_CHAR control variable returns an array with a NUL within the handle's count",
			Injectors: []string{"inject_mpit_char_unterminated"}, Exposure: meta8Exposure.Declared(), Judge: judgeMeta8},
	},
})

// Integer control variables set through the environment, by the
// implementation's convention; the first that the walk finds is used.
var envCandidates = []struct{ name, env string }{
	{"MPIR_CVAR_BCAST_SHORT_MSG_SIZE", "MPIR_CVAR_BCAST_SHORT_MSG_SIZE"},
	{"MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE", "MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE"},
	{"mpi_add_procs_cutoff", "OMPI_MCA_mpi_add_procs_cutoff"},
	{"btl_self_free_list_max", "OMPI_MCA_btl_self_free_list_max"},
}

const envValue = "4711"

type cvarReadRec struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Bound     int    `json:"bound"`
	Object    int    `json:"object"`
	AllocRC   string `json:"alloc_rc"`
	Count     int    `json:"count"`
	Datatype  string `json:"datatype"`
	ReadRC    string `json:"read_rc"`
	Overrun   int    `json:"overrun"`
	FreeRC    string `json:"free_rc"`
	FreedNull int    `json:"freed_null"`
}

type cvarWriteRec struct {
	Index        int    `json:"index"`
	Name         string `json:"name"`
	Scope        string `json:"scope"`
	How          string `json:"how"`
	Datatype     string `json:"datatype"`
	Old          vals   `json:"old"`
	Written      vals   `json:"written"`
	ReadBack     vals   `json:"read_back"`
	WriteRC      string `json:"write_rc"`
	ReadBackRC   string `json:"read_back_rc"`
	ReadsWritten int    `json:"reads_written"`
	ReadsOld     int    `json:"reads_old"`
	RestoreRC    string `json:"restore_rc"`
	RestoreRead  int    `json:"restore_read"`
}

// cvarTryRec names the variable a write item is about to write.
type cvarTryRec struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	Scope string `json:"scope"`
}

type cvarEnvRec struct {
	Name     string `json:"name"`
	Expected string `json:"expected"`
	IndexRC  string `json:"index_rc"`
	ReadRC   string `json:"read_rc"`
	Value    vals   `json:"value"`
}

type cvarSum struct {
	InitRC     int `json:"init_rc"`
	Num        int `json:"num"`
	Read       int `json:"read"`
	ReadFailed int `json:"read_failed"`
}

// cvarReadsJob is the reads run of mpit_cvar_rw (one job, shared by every
// rule that judges its records), with the variable it sets through the
// environment (envName, "" when none of envCandidates exists).
func cvarReadsJob(x *rulebook.X) (job mpi.Job, envName string) {
	w := walk(x)
	if len(w.cvars) == 0 {
		x.Unsupported("MPI_T_cvar_get_num gives 0 after MPI_Init: no control variables")
	}
	job = mpi.Job{Name: "mpit_cvar_rw", Ranks: 1, Program: x.Fixture("mpit_cvar_rw")}
	for _, c := range envCandidates {
		for _, v := range w.cvars {
			if v.RC == "MPI_SUCCESS" && v.Name == c.name && (v.Datatype == "MPI_INT" || v.Datatype == "MPI_UNSIGNED") {
				job.Env = map[string]string{c.env: envValue}
				job.Args = []string{c.name, envValue}
				return job, c.name
			}
		}
	}
	return job, ""
}
