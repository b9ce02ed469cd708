package qmpi

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Runs of the configurable tool fixtures/c/qmpi/tool_layer.c (names L0 …
// L31) under the counting application fixtures/c/qmpi/app_layer.c.

// layerRun says how to run app_layer under tool_layer.
type layerRun struct {
	Name    string   // names the job in evidence
	List    string   // the tool list (MPIR_CVAR_QMPI_TOOL_LIST)
	Funcs   string   // MPITS_QMPI_FUNCS: which functions each name registers ("" all)
	Trace   string   // MPITS_QMPI_TRACE: which functions are traced ("" all)
	Args    []string // app_layer arguments: init|thread, sends, threads, calls per thread
	Ranks   int      // default 2
	Preload []string // libraries preloaded before the tool (e.g. a PMPI tool)
	NoTool  bool     // run without tool_layer preloaded
	NoList  bool     // do not set the tool list at all
}

// The functions tool_layer intercepts and app_layer counts, by their names
// in records.
var layerFns = []string{"init", "init_thread", "finalize", "send", "recv", "barrier", "allreduce", "comm_rank"}

type layerInit struct {
	Tool       int    `json:"tool"`
	Name       string `json:"name"`
	Storage    string `json:"storage"`
	Order      int    `json:"order"`
	StorageRC  int    `json:"storage_rc"`
	FunctionRC int    `json:"function_rc"`
	Line       int    `json:"-"`
}

type layerSummary struct {
	Tool       int              `json:"tool"`
	Name       string           `json:"name"`
	Calls      map[string]int64 `json:"calls"`
	BadStorage int64            `json:"bad_storage"`
	UnknownIDs int64            `json:"unknown_ids"`
}

type layerRegister struct {
	List string         `json:"list"`
	RCs  map[string]int `json:"rcs"`
}

type appResult struct {
	Rank          int   `json:"rank"`
	Size          int   `json:"size"`
	Threads       int   `json:"threads"`
	PerThread     int64 `json:"per_thread"`
	Received      int   `json:"received"`
	ExtraMessages int   `json:"extra_messages"`
	Sum           int   `json:"sum"`
	WantSum       int   `json:"want_sum"`
	WrongRank     int64 `json:"wrong_rank"`
}

type appInit struct {
	RC       int `json:"rc"`
	Provided int `json:"provided"`
	Multiple int `json:"multiple"`
}

type appCalls struct {
	FinalizeRC int              `json:"finalize_rc"`
	Calls      map[string]int64 `json:"calls"`
}

// traceEvent is one pre, mpi or post record of a traced function.
type traceEvent struct {
	Kind string `json:"kind"`
	Tool int    `json:"tool"`
	Name string `json:"name"`
	Fn   string `json:"fn"`
	RC   int    `json:"rc"`
	Line int    `json:"-"`
}

// layerRank is what one rank of a layer run recorded.
type layerRank struct {
	Rank      int
	Register  *layerRegister
	Inits     []layerInit
	Summaries []layerSummary
	PMPI      *layerSummary // a PMPI tool's counts (pmpi_tool.c), if loaded
	Init      appInit
	InitLine  int // line of app_init_returned
	Result    appResult
	Calls     appCalls
	Events    []traceEvent
	Odd       []string // storage_mismatch, unknown_id, get_function_failed records
	Raw       []string // every record, for evidence
}

// summaryOf is the summary of the instance with that id, or nil.
func (r *layerRank) summaryOf(tool int) *layerSummary {
	for i := range r.Summaries {
		if r.Summaries[i].Tool == tool {
			return &r.Summaries[i]
		}
	}
	return nil
}

// evidence is the rank's records, capped, with the tool's complaints
// (wrong storage, unknown ids, failed QMPI_Get_function) first.
func (r *layerRank) evidence() string {
	odd := ""
	if len(r.Odd) > 0 {
		odd = fmt.Sprintf("rank %d, the tool's complaints:\n%s\n", r.Rank, capLines(r.Odd, 10))
	}
	return fmt.Sprintf("%srank %d records:\n%s", odd, r.Rank, capLines(r.Raw, 60))
}

func capLines(lines []string, n int) string {
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… (%d more records)", len(lines)-n)
}

// runLayer runs app_layer under tool_layer (once per identical job: the
// rules of a check share it) and decodes every rank's records.
func runLayer(x *rulebook.X, run layerRun) []*layerRank {
	if run.Ranks == 0 {
		run.Ranks = 2
	}
	env := map[string]string{}
	if !run.NoList {
		env["MPIR_CVAR_QMPI_TOOL_LIST"] = run.List
	}
	if run.Funcs != "" {
		env["MPITS_QMPI_FUNCS"] = run.Funcs
	}
	if run.Trace != "" {
		env["MPITS_QMPI_TRACE"] = run.Trace
	}
	preload := append([]string{}, run.Preload...)
	if !run.NoTool {
		preload = append(preload, x.Fixture("qmpi_tool_layer"))
	}
	rankEnv := map[string]string{}
	if len(preload) > 0 {
		rankEnv["LD_PRELOAD"] = strings.Join(preload, ":")
	}
	name := run.Name
	if name == "" {
		name = "qmpi_app_layer " + run.List
	}
	_, recs := x.JobOnce(mpi.Job{
		Name: name, Ranks: run.Ranks, Program: x.Fixture("qmpi_app_layer"), Args: run.Args,
		Env: env, RankEnv: rankEnv,
	})
	return decodeLayer(x, recs, run.Ranks)
}

func decodeLayer(x *rulebook.X, recs *mpi.Records, ranks int) []*layerRank {
	out := make([]*layerRank, ranks)
	for i := range out {
		out[i] = &layerRank{Rank: i}
	}
	seen := map[int]map[string]bool{}
	for _, r := range recs.All {
		lr := out[r.Rank]
		lr.Raw = append(lr.Raw, string(r.Raw))
		if seen[r.Rank] == nil {
			seen[r.Rank] = map[string]bool{}
		}
		seen[r.Rank][r.Kind] = true
		var err error
		switch r.Kind {
		case "register":
			lr.Register = &layerRegister{}
			err = r.Decode(lr.Register)
		case "init":
			var in layerInit
			err = r.Decode(&in)
			in.Line = r.Line
			lr.Inits = append(lr.Inits, in)
		case "summary":
			var s layerSummary
			err = r.Decode(&s)
			lr.Summaries = append(lr.Summaries, s)
		case "pmpi_summary":
			lr.PMPI = &layerSummary{Tool: -1, Name: "PMPI"}
			err = r.Decode(lr.PMPI)
		case "app_init_returned":
			err = r.Decode(&lr.Init)
			lr.InitLine = r.Line
		case "app_result":
			err = r.Decode(&lr.Result)
		case "app_calls":
			err = r.Decode(&lr.Calls)
		case "pre", "mpi", "post":
			var e traceEvent
			err = r.Decode(&e)
			e.Line = r.Line
			lr.Events = append(lr.Events, e)
		case "storage_mismatch", "unknown_id", "get_function_failed":
			lr.Odd = append(lr.Odd, string(r.Raw))
		}
		if err != nil {
			x.Errorf("", "%v", err)
		}
	}
	for _, lr := range out {
		for _, k := range []string{"app_init_returned", "app_result", "app_calls"} {
			if !seen[lr.Rank][k] {
				x.Errorf(lr.evidence(), "%s: rank %d wrote no %s record", recs.Fixture, lr.Rank, k)
			}
		}
	}
	return out
}

// listNames splits a tool list into its names.
func listNames(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ":")
}

// stackList is L0:L1:…:L(n-1).
func stackList(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("L%d", i)
	}
	return strings.Join(names, ":")
}

// nameOf maps each instance id to its name, from the init records.
func nameOf(r *layerRank) map[int]string {
	m := map[int]string{}
	for _, in := range r.Inits {
		m[in.Tool] = in.Name
	}
	return m
}

// sequence is the order of pre, mpi and post events of one function, with
// tools shown by name ("pre:L0", "mpi", "post:L0").
func sequence(r *layerRank, fn string) []string {
	var seq []string
	for _, e := range r.Events {
		if e.Fn != fn {
			continue
		}
		if e.Kind == "mpi" {
			seq = append(seq, "mpi")
		} else {
			seq = append(seq, e.Kind+":"+e.Name)
		}
	}
	return seq
}

// nested is the expected sequence of calls calls through the named stack.
func nested(names []string, calls int) []string {
	var one []string
	for _, n := range names {
		one = append(one, "pre:"+n)
	}
	one = append(one, "mpi")
	for i := len(names) - 1; i >= 0; i-- {
		one = append(one, "post:"+names[i])
	}
	var all []string
	for i := 0; i < calls; i++ {
		all = append(all, one...)
	}
	return all
}

// firstDiff describes where two sequences part.
func firstDiff(got, want []string) string {
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("at event %d: got %s, want %s", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("got %d events, want %d", len(got), len(want))
	}
	return ""
}
