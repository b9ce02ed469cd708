package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.6 (Control Variable Access Functions): MPI_T_cvar_read
// "queries the value of a control variable"; MPI_T_cvar_write "sets the
// value ... If it is not possible to change the variable at the time the
// call is made, the function returns either MPI_T_ERR_CVAR_SET_NOT_NOW ...
// or MPI_T_ERR_CVAR_SET_NEVER, if the variable cannot be set for the
// remainder of the application's execution"; scopes MPI_T_SCOPE_CONSTANT
// ("read-only, value is constant") and MPI_T_SCOPE_READONLY ("read-only,
// cannot be written") can never be set. §16.3.6: "On many systems, such
// variables can be set using environment variables": the implementation's
// own convention (MPICH: the variable's name; Open MPI: OMPI_MCA_<name>) is
// what reading the variable then returns.
var cvarRW = harness.Define(harness.Check{
	ID:        "MPIT-CVAR-RW-001",
	Clause:    "MPI-4.1:16.3.6",
	Needs:     "mpit",
	Title:     "every control variable reads through a handle; writable ones take a different value, read it back and take the old one back; read-only scopes refuse writes with MPI_T_ERR_CVAR_SET_NEVER; a variable set through the environment reads that value",
	Injectors: []string{"inject_mpit_cvar_write_lost"},
	Run:       runCvarRW,
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

type cvarCrashRec struct {
	Index  int    `json:"index"`
	Name   string `json:"name"`
	Scope  string `json:"scope"`
	Signal int    `json:"signal"`
}

type cvarEnvRec struct {
	Name     string `json:"name"`
	Expected string `json:"expected"`
	IndexRC  string `json:"index_rc"`
	ReadRC   string `json:"read_rc"`
	Value    vals   `json:"value"`
}

type cvarSum struct {
	InitRC       int `json:"init_rc"`
	Num          int `json:"num"`
	Read         int `json:"read"`
	ReadFailed   int `json:"read_failed"`
	WriteCrashes int `json:"write_crashes"`
}

func runCvarRW(x *harness.X) harness.Verdict {
	w := walk(x)
	if len(w.cvars) == 0 {
		x.Unsupported("MPI_T_cvar_get_num gives 0 after MPI_Init: no control variables")
	}
	job := harness.Job{Name: "mpit_cvar_rw", Ranks: 1, Program: x.Fixture("mpit_cvar_rw")}
	envName := ""
	for _, c := range envCandidates {
		for _, v := range w.cvars {
			if v.RC == "MPI_SUCCESS" && v.Name == c.name && (v.Datatype == "MPI_INT" || v.Datatype == "MPI_UNSIGNED") {
				envName = c.name
				job.Env = map[string]string{c.env: envValue}
				job.Args = []string{c.name, envValue}
				break
			}
		}
		if envName != "" {
			break
		}
	}
	res, recs, err := x.LaunchOnce(job)
	if err != nil {
		return harness.Verdict{Status: harness.Error, Reason: err.Error(), Evidence: res.Evidence()}
	}
	var p problems
	p.evidence = res.Evidence()
	if !res.OK() {
		p.add("the process died outside the per-variable children: %s", res.Problem())
	}
	sums := decode[cvarSum](recs, "summary")
	var inactive []string
	for _, r := range decode[cvarReadRec](recs, "read") {
		switch {
		case r.Object == 0:
			p.add("control variable %s (%d) is bound to an object this fixture cannot make", r.Name, r.Index)
		case r.AllocRC != "MPI_SUCCESS":
			p.add("MPI_T_cvar_handle_alloc(%s) returned %s", r.Name, r.AllocRC)
		case r.ReadRC == "MPI_T_ERR_INVALID_INDEX":
			inactive = append(inactive, r.Name) // "When a variable becomes inactive ... a corresponding return code"
		case r.ReadRC != "MPI_SUCCESS":
			p.add("MPI_T_cvar_read(%s) returned %s", r.Name, r.ReadRC)
		case r.Overrun != 0:
			p.add("MPI_T_cvar_read(%s) wrote past the %d elements of %s its handle counts", r.Name, r.Count, r.Datatype)
		case r.FreeRC != "MPI_SUCCESS" || r.FreedNull != 1:
			p.add("MPI_T_cvar_handle_free(%s) returned %s (handle set to MPI_T_CVAR_HANDLE_NULL: %v)", r.Name, r.FreeRC, r.FreedNull == 1)
		}
	}
	counts := map[string]int{}
	for _, r := range decode[cvarWriteRec](recs, "write") {
		who := fmt.Sprintf("%s (%d, scope %s)", r.Name, r.Index, r.Scope)
		switch r.How {
		case "readonly":
			counts["read-only refused"]++
			if r.WriteRC != "MPI_T_ERR_CVAR_SET_NEVER" {
				p.add("writing read-only %s returned %s, not MPI_T_ERR_CVAR_SET_NEVER", who, r.WriteRC)
			} else if r.ReadsOld != 1 {
				p.add("read-only %s changed although the write was refused: %s → %s", who, r.Old, r.ReadBack)
			}
		default: // changed (a different value) or same (strings)
			switch r.WriteRC {
			case "MPI_SUCCESS":
				counts["written"]++
				if r.ReadsWritten != 1 {
					p.add("%s: wrote %s (MPI_SUCCESS), read back %s", who, r.Written, r.ReadBack)
				}
				if r.How == "changed" && (r.RestoreRC != "MPI_SUCCESS" || r.RestoreRead != 0) {
					p.add("%s: writing the old value %s back returned %s (read back: %d)", who, r.Old, r.RestoreRC, r.RestoreRead)
				}
			case "MPI_T_ERR_CVAR_SET_NOT_NOW", "MPI_T_ERR_CVAR_SET_NEVER", "MPI_T_ERR_INVALID":
				counts["refused ("+strings.TrimPrefix(r.WriteRC, "MPI_T_ERR_")+")"]++
				if r.ReadsOld != 1 {
					p.add("%s changed although the write was refused with %s: %s → %s", who, r.WriteRC, r.Old, r.ReadBack)
				}
			default:
				p.add("writing %s returned %s", who, r.WriteRC)
			}
		}
	}
	for _, c := range decode[cvarCrashRec](recs, "write_crash") {
		p.add("writing control variable %s (%d, scope %s) killed the process: %s", c.Name, c.Index, c.Scope, signalName(c.Signal))
	}
	envNote := "no variable of the implementation's environment convention found to set"
	for _, e := range decode[cvarEnvRec](recs, "env") {
		switch {
		case e.IndexRC != "MPI_SUCCESS" || e.ReadRC != "MPI_SUCCESS":
			p.add("control variable %s (set through the environment): get_index %s, read %s", e.Name, e.IndexRC, e.ReadRC)
		case len(e.Value) == 0 || string(e.Value[0]) != e.Expected:
			p.add("control variable %s was set to %s through the environment but reads %s", e.Name, e.Expected, e.Value)
		default:
			envNote = fmt.Sprintf("%s set through the environment reads %s", e.Name, e.Expected)
		}
	}
	if len(sums) != 1 {
		p.add("the fixture wrote no summary (it stopped early)")
	}
	p.fail(x, "problems")
	var cs []string
	for _, k := range []string{"written", "read-only refused", "refused (CVAR_SET_NOT_NOW)", "refused (CVAR_SET_NEVER)", "refused (INVALID)"} {
		if counts[k] > 0 {
			cs = append(cs, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	reason := fmt.Sprintf("%d control variables read; writes: %s; %s", sums[0].Read, strings.Join(cs, ", "), envNote)
	if len(inactive) > 0 {
		reason += fmt.Sprintf("; %d read as inactive (MPI_T_ERR_INVALID_INDEX), e.g. %s", len(inactive), inactive[0])
	}
	return harness.Verdict{Reason: reason}
}
