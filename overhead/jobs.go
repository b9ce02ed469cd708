package overhead

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// sampleRecord is a "sample" record of bench.c or floor.c.
type sampleRecord struct {
	Call    string  `json:"call"`
	N       int64   `json:"n"`
	Seconds float64 `json:"seconds"`
	Ns      float64 `json:"ns"`
	CPU     int     `json:"cpu"`
}

type qmpiInit struct {
	Tool       int `json:"tool"`
	Registered int `json:"registered"`
	RC         int `json:"rc"`
}

type rcRecord struct {
	RC int `json:"rc"`
}

type skipRecord struct {
	Call   string `json:"call"`
	Reason string `json:"reason"`
}

// runJob runs a job and reads its records; problem says why it did not end
// well (the job's folder is kept for the caller to read, then removed).
func runJob(j mpi.Job, ranks int) (res *mpi.Result, recs *mpi.Records, problem string) {
	res, err := mpi.Run(j)
	if err != nil {
		return nil, nil, err.Error()
	}
	if !res.OK() {
		defer res.Cleanup()
		return nil, nil, res.Problem() + "\n" + res.Evidence()
	}
	recs, err = mpi.ReadRecords(res.Dir, j.Name, ranks)
	if err != nil {
		defer res.Cleanup()
		return nil, nil, err.Error() + "\n" + res.Evidence()
	}
	return res, recs, ""
}

// checkTools says what is wrong with the tool setting of a job from the
// records of rank 0 ("" if the tools were there as asked).
func checkTools(c *config, recs *mpi.Records) string {
	switch {
	case c.floor || c.tools == "0":
		if len(recs.Kind("qmpi_init", 0))+len(recs.Kind("pmpi_loaded", 0)) > 0 {
			return "a tool was loaded in a run without tools"
		}
	case c.tools == PMPI:
		if len(recs.Kind("pmpi_loaded", 0)) == 0 {
			return "the PMPI tool was not loaded (no pmpi_loaded record)"
		}
	default:
		want, _ := strconv.Atoi(c.tools)
		var inits []qmpiInit
		for _, r := range recs.Kind("qmpi_init", 0) {
			var in qmpiInit
			if err := r.Decode(&in); err != nil {
				return err.Error()
			}
			inits = append(inits, in)
		}
		if len(inits) != want {
			return fmt.Sprintf("%d QMPI instances were initialized, want %d", len(inits), want)
		}
		for _, in := range inits {
			if in.Registered != qmpiFunctions || in.RC != 0 {
				return fmt.Sprintf("instance %d registered %d of %d functions (last error %d)", in.Tool, in.Registered, qmpiFunctions, in.RC)
			}
		}
	}
	return ""
}

// sample runs one round of a unit and adds its samples.
func sample(u *unit, s Settings, round int, res *Results) string {
	c := u.cfg
	env, rankEnv := c.env()
	args := []string{"time", strings.Join(u.calls, ","), strconv.FormatFloat(s.SampleSeconds, 'g', -1, 64)}
	for _, call := range u.calls {
		if n := u.counts[call]; n > 0 {
			args = append(args, fmt.Sprintf("%s=%d", call, n))
		}
	}
	name := fmt.Sprintf("overhead %s round %d", c, round+1)
	j := mpi.Job{Impl: c.st.im, Name: name, Env: env, RankEnv: rankEnv, Deadline: 3 * time.Minute}
	ranks := u.ranks
	if c.floor {
		j.Program, j.Args = "taskset", append([]string{"-c", c.st.floorCPU, c.st.floor}, args...)
		ranks = 1
	} else {
		j.Ranks, j.Program, j.Args = u.ranks, c.st.bench, args
		env["MPITS_BENCH_CPUS"] = c.st.selfCPU
		if u.ranks == 2 {
			env["MPITS_BENCH_CPUS"] = c.st.pingCPUs
		}
	}
	job, recs, problem := runJob(j, ranks)
	if problem != "" {
		return problem
	}
	defer job.Cleanup()
	if why := checkTools(c, recs); why != "" {
		return why + "\n" + job.Evidence()
	}
	for _, r := range recs.Kind("pin", -1) {
		var pin struct{ CPU, RC int }
		if err := r.Decode(&pin); err != nil || pin.RC != 0 {
			return fmt.Sprintf("rank %d could not pin itself to core %d (sched_setaffinity returned %d)", r.Rank, pin.CPU, pin.RC)
		}
	}
	skips, _ := mpi.DecodeKind[skipRecord](recs, "skip")
	for _, sk := range skips {
		return fmt.Sprintf("the fixture skipped %s: %s", sk.Call, sk.Reason)
	}
	got, err := mpi.DecodeKind[sampleRecord](recs, "sample")
	if err != nil {
		return err.Error()
	}
	seen := map[string]bool{}
	for _, sr := range got {
		if sr.N <= 0 || sr.Seconds <= 0 {
			return fmt.Sprintf("%s: a sample of %d iterations in %g s", sr.Call, sr.N, sr.Seconds)
		}
		seen[sr.Call] = true
		k := c.key(sr.Call)
		res.Samples[k] = append(res.Samples[k], sr.Ns)
		u.counts[sr.Call] = NextCount(sr.N, sr.Seconds, s.SampleSeconds)
	}
	for _, call := range u.calls {
		if !seen[call] {
			return fmt.Sprintf("no sample of %s\n%s", call, job.Evidence())
		}
	}
	return ""
}

// count runs a unit once under callgrind and keeps its instruction counts.
func count(u *unit, res *Results) string {
	c := u.cfg
	env, rankEnv := c.env()
	prog := c.st.bench
	if c.floor {
		prog = c.st.floor
	}
	args := []string{"--tool=callgrind", "--dump-after=mpits_bench_mark", "--callgrind-out-file=callgrind.out.%p",
		prog, "count", strings.Join(u.calls, ","), strconv.Itoa(CountN1), strconv.Itoa(CountN2)}
	j := mpi.Job{Impl: c.st.im, Name: fmt.Sprintf("overhead %s callgrind", c), Program: c.st.valgrind, Args: args,
		Env: env, RankEnv: rankEnv, Deadline: 5 * time.Minute}
	ranks := 1
	if !c.floor {
		j.Ranks = 1
	}
	job, recs, problem := runJob(j, ranks)
	if problem != "" {
		return problem
	}
	defer job.Cleanup()
	if why := checkTools(c, recs); why != "" {
		return why + "\n" + job.Evidence()
	}
	marks, err := mpi.DecodeKind[Mark](recs, "mark")
	if err != nil {
		return err.Error()
	}
	dumps, err := ReadDumps(job.Dir)
	if err != nil {
		return err.Error() + "\n" + job.Evidence()
	}
	per, err := PerIteration(marks, dumps)
	if err != nil {
		return err.Error()
	}
	for _, call := range u.calls {
		v, ok := per[call]
		if !ok {
			return "no count of " + call
		}
		res.Instrs[c.key(call)] = v
	}
	return profile(u, marks, job.Dir, per, res)
}

// profile keeps the per-function split of the ProfileCalls a counted unit
// ran, read from the same dumps as its totals.
func profile(u *unit, marks []Mark, dir string, per map[string]float64, res *Results) string {
	var calls []string
	for _, call := range u.calls {
		if slices.Contains(ProfileCalls, call) {
			calls = append(calls, call)
		}
	}
	if len(calls) == 0 || u.cfg.floor {
		return ""
	}
	parts := map[int]bool{}
	for _, m := range marks {
		if slices.Contains(calls, m.Call) {
			parts[m.Seq] = true
		}
	}
	dumps, err := ReadProfiles(dir, func(part int) bool { return parts[part] })
	if err != nil {
		return "function profile: " + err.Error()
	}
	funcs, err := PerIterationProfile(marks, dumps, calls)
	if err != nil {
		return "function profile: " + err.Error()
	}
	for _, call := range calls {
		k := u.cfg.key(call)
		res.Profile[k] = Profile{Impl: k.Impl, Call: k.Call, Tools: k.Tools, Instrs: per[call], Funcs: funcs[call]}
	}
	return ""
}

// probeQMPI runs the counting QMPI tool as two instances and says "yes" if
// both registered, were initialized and saw every MPI_Comm_rank and
// MPI_Barrier of the run, else why not (a measured reason).
func probeQMPI(st *implState) string {
	tool := mpi.Build(st.im, qmpiTool)
	if tool.Error != "" {
		return "the pass-through QMPI tool does not build: " + buildError(tool.Error)
	}
	counting := mpi.Build(st.im, qmpiCounting)
	if counting.Error != "" {
		return "the counting QMPI tool does not build: " + buildError(counting.Error)
	}
	st.qmpiTool, st.qmpiCount = tool.Path, counting.Path
	j := mpi.Job{Impl: st.im, Name: "overhead QMPI probe " + st.im.ID, Ranks: 1, Program: st.bench,
		Args:    []string{"count", "Comm_rank,Barrier", "10", "20"},
		Env:     map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "p:p"},
		RankEnv: map[string]string{"LD_PRELOAD": st.qmpiCount}}
	job, recs, problem := runJob(j, 1)
	if problem != "" {
		return "the QMPI probe (2 instances) failed: " + verdict.FirstLine(problem)
	}
	defer job.Cleanup()
	regs, _ := mpi.DecodeKind[rcRecord](recs, "qmpi_register")
	if len(regs) == 0 {
		return "the preloaded QMPI tool did not run its constructor (not loaded?): " + verdict.FirstLine(job.Stderr)
	}
	for _, r := range regs {
		if r.RC != 0 {
			return fmt.Sprintf("QMPI_Register_tool_name returned %d", r.RC)
		}
	}
	var probe config
	probe.tools = "2"
	if why := checkTools(&probe, recs); why != "" {
		return "QMPI probe: " + why
	}
	type callsRecord struct {
		Tool  int              `json:"tool"`
		Calls map[string]int64 `json:"calls"`
	}
	calls, err := mpi.DecodeKind[callsRecord](recs, "qmpi_calls")
	if err != nil {
		return err.Error()
	}
	if len(calls) != 2 {
		return fmt.Sprintf("QMPI probe: %d instances reported their calls, want 2", len(calls))
	}
	const want = 16 + 10 + 20 // bench.c count: warm-up, N1, N2 (plus its own MPI_Comm_rank)
	for _, cr := range calls {
		if cr.Calls["Comm_rank"] < want || cr.Calls["Barrier"] != want {
			return fmt.Sprintf("QMPI probe: instance %d saw %d MPI_Comm_rank and %d MPI_Barrier calls, want at least %d and %d: the chain is not walked",
				cr.Tool, cr.Calls["Comm_rank"], cr.Calls["Barrier"], want, want)
		}
	}
	return "yes"
}

// probePMPI builds the PMPI tool and shows with its counting build that the
// calls go through it; "" if they do, else why not.
func probePMPI(st *implState) string {
	tool := mpi.Build(st.im, pmpiTool)
	if tool.Error != "" {
		return "the pass-through PMPI tool does not build: " + buildError(tool.Error)
	}
	counting := mpi.Build(st.im, pmpiCounting)
	if counting.Error != "" {
		return "the counting PMPI tool does not build: " + buildError(counting.Error)
	}
	st.pmpiTool, st.pmpiCount = tool.Path, counting.Path
	j := mpi.Job{Impl: st.im, Name: "overhead PMPI probe " + st.im.ID, Ranks: 1, Program: st.bench,
		Args: []string{"count", "Comm_rank,Barrier", "10", "20"}, RankEnv: map[string]string{"LD_PRELOAD": st.pmpiCount}}
	job, recs, problem := runJob(j, 1)
	if problem != "" {
		return "the PMPI probe failed: " + verdict.FirstLine(problem)
	}
	defer job.Cleanup()
	type callsRecord struct {
		Calls map[string]int64 `json:"calls"`
	}
	calls, err := mpi.DecodeKind[callsRecord](recs, "pmpi_calls")
	if err != nil {
		return err.Error()
	}
	const want = 16 + 10 + 20
	var got []string
	for _, cr := range calls {
		if cr.Calls["Barrier"] == want && cr.Calls["Comm_rank"] >= want {
			return ""
		}
		got = append(got, fmt.Sprintf("%d MPI_Comm_rank, %d MPI_Barrier", cr.Calls["Comm_rank"], cr.Calls["Barrier"]))
	}
	sort.Strings(got)
	return fmt.Sprintf("PMPI probe: the preloaded tool saw %v, want at least %d of each", got, want)
}

// buildError is the first line of a build error without the fixture
// cache's folders: "build x exited with status 1: bench/tool.c:39:22: error: ...".
func buildError(s string) string {
	s = verdict.FirstLine(s)
	if i := strings.Index(s, ": /"); i >= 0 {
		if j := strings.Index(s[i:], "/src/"); j >= 0 {
			s = s[:i+2] + s[i+j+len("/src/"):]
		}
	}
	return s
}
