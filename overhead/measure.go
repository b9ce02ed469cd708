package overhead

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// Fixtures of the benchmarks. The tools' *_count builds count the calls each
// instance sees: they are the probes that show a chain is really walked; the
// timed runs use the builds that only pass calls on.
var (
	benchFixture = mpi.Fixture{Name: "bench", Sources: []string{"bench/bench.c"}, Flags: []string{"-O2"}}
	floorFixture = mpi.Fixture{Name: "bench_floor", Sources: []string{"bench/floor.c"}, Flags: []string{"-O2"}}
	qmpiTool     = mpi.Fixture{Name: "bench_qmpi_pass", Sources: []string{"bench/tool_qmpi_pass.c"}, Shared: true, Flags: []string{"-O2"}}
	qmpiCounting = mpi.Fixture{Name: "bench_qmpi_pass_count", Sources: []string{"bench/tool_qmpi_pass.c"}, Shared: true, Flags: []string{"-O2", "-DMPITS_BENCH_COUNT"}}
	pmpiTool     = mpi.Fixture{Name: "bench_pmpi_pass", Sources: []string{"bench/tool_pmpi_pass.c"}, Shared: true, Flags: []string{"-O2"}}
	pmpiCounting = mpi.Fixture{Name: "bench_pmpi_pass_count", Sources: []string{"bench/tool_pmpi_pass.c"}, Shared: true, Flags: []string{"-O2", "-DMPITS_BENCH_COUNT"}}
)

// qmpiFunctions is how many functions tool_qmpi_pass.c registers.
const qmpiFunctions = 10

// Results are what one benchmark run measured.
type Results struct {
	Keys    []Key              // what the benchmarks report, in order
	Samples map[Key][]float64  // ns per iteration, in round order
	Instrs  map[Key]float64    // instructions per iteration (callgrind)
	Profile map[Key]Profile    // the same, function by function (ProfileCalls only)
	Errors  map[Key][]string   // problems that cost a sample or the count
	Notes   []Note             // implementations, what could not be measured, the run
	Seconds map[string]float64 // time spent: "probe", "rounds", "callgrind"
}

func (r *Results) fail(keys []Key, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, k := range keys {
		r.Errors[k] = append(r.Errors[k], msg)
	}
}

// config is an implementation with a tool setting.
type config struct {
	st    *implState
	tools string // "0".."255" QMPI instances, "pmpi"; "" for the floor
	floor bool
}

func (c *config) String() string {
	if c.floor {
		return "floor (" + c.st.im.ID + ")"
	}
	return c.st.im.ID + " tools=" + c.tools
}

// job parts for this configuration: the preloads and the environment.
func (c *config) env() (env, rankEnv map[string]string) {
	env = map[string]string{}
	rankEnv = map[string]string{}
	switch {
	case c.floor || c.tools == "0":
	case c.tools == PMPI:
		rankEnv["LD_PRELOAD"] = c.st.pmpiTool
	default:
		n, _ := strconv.Atoi(c.tools)
		env["MPIR_CVAR_QMPI_TOOL_LIST"] = strings.TrimSuffix(strings.Repeat("p:", n), ":")
		rankEnv["LD_PRELOAD"] = c.st.qmpiTool
	}
	return env, rankEnv
}

// unit is one job a round runs: the 1-rank calls or the ping-pong of a
// configuration, or the floor.
type unit struct {
	cfg    *config
	ranks  int
	calls  []string
	counts map[string]int64 // loop counts the last sample settled on
	fails  int
	dead   string // why it is no longer run
}

func (u *unit) keys() []Key {
	var out []Key
	for _, c := range u.calls {
		out = append(out, u.cfg.key(c))
	}
	return out
}

func (c *config) key(call string) Key {
	if c.floor {
		return Key{Call: call}
	}
	return Key{Impl: c.st.im.ID, Call: call, Tools: c.tools}
}

// implState is an implementation's fixtures and what it was found to do.
type implState struct {
	im                          *mpi.Impl
	bench, floor                string // fixture paths as the implementation sees them
	qmpiTool, qmpiCount         string
	pmpiTool, pmpiCount         string
	benchErr                    string
	qmpi                        string // "yes" or why not
	valgrind                    string // valgrind as the implementation sees it
	noCount                     string // why no instruction counts
	selfCPU, pingCPUs, floorCPU string // cores the jobs pin themselves to
}

// Run measures what the settings select and writes one progress line a round.
func Run(s Settings, progress io.Writer) (*Results, error) {
	start := time.Now()
	impls, err := mpi.LoadImpls()
	if err != nil {
		return nil, err
	}
	if s.Short && settings.Setting("MPITS_IMPLS").String() == "" {
		impls = twins(impls)
	}
	res := &Results{Samples: map[Key][]float64{}, Instrs: map[Key]float64{}, Profile: map[Key]Profile{},
		Errors: map[Key][]string{}, Seconds: map[string]float64{}}
	run := Note{Kind: "run", Rounds: s.Rounds, SampleSeconds: s.SampleSeconds, CPUs: runtime.NumCPU(),
		LoadBefore: loadAverage(), Short: s.Short, Perf: perfStatus()}

	var configs []*config
	var floorCfg *config
	for _, im := range impls {
		st := &implState{im: im}
		cpuPlan(st)
		var tools []string
		for _, t := range s.Tools {
			if anyCall(s.Filter, im.ID, t) {
				tools = append(tools, t)
			}
		}
		wantFloor := floorCfg == nil && im.Available && im.Root == "" && anyFloor(s.Filter)
		if len(tools) == 0 && !wantFloor {
			continue
		}
		note := Note{Kind: "impl", Impl: im.ID, Version: im.Version, Family: im.Family, TwinOf: im.TwinOf}
		if !im.Available {
			note.QMPI, note.Count = "no: "+im.Reason, "no: "+im.Reason
			res.Notes = append(res.Notes, note, Note{Kind: "unsupported", Impl: im.ID, Tools: "all", Reason: "not available: " + im.Reason})
			continue
		}
		st.valgrind, st.noCount = findValgrind(im, s.Callgrind)
		note.Count = yesOr(st.noCount)
		if wantFloor {
			if b := mpi.Build(im, floorFixture); b.Error == "" {
				st.floor = b.Path
				floorCfg = &config{st: st, floor: true}
			} else {
				res.Notes = append(res.Notes, Note{Kind: "error", Impl: im.ID, Tools: "floor", Reason: "the floor fixture does not build: " + buildError(b.Error)})
			}
		}
		if len(tools) == 0 {
			continue
		}
		t0 := time.Now()
		b := mpi.Build(im, benchFixture)
		st.bench, st.benchErr = b.Path, b.Error
		st.qmpi = "not probed (no QMPI or PMPI configuration selected)"
		if st.benchErr == "" && needsProbe(tools) {
			st.qmpi = probeQMPI(st)
		}
		note.QMPI = st.qmpi
		res.Notes = append(res.Notes, note)
		for _, t := range tools {
			c := &config{st: st, tools: t}
			switch {
			case st.benchErr != "":
				res.fail(c.keysFor(s.Filter), "the benchmark fixture does not build: %s", buildError(st.benchErr))
				continue
			case t == "0":
			case t == PMPI:
				if st.qmpi != "yes" && im.TwinOf == "" {
					continue // PMPI is the reference where QMPI is measured (and on twin builds)
				}
				if why := probePMPI(st); why != "" {
					res.Notes = append(res.Notes, Note{Kind: "unsupported", Impl: im.ID, Tools: PMPI, Reason: why})
					continue
				}
			default:
				if st.qmpi != "yes" {
					continue // one note says why (below)
				}
			}
			configs = append(configs, c)
		}
		if st.qmpi != "yes" && hasQMPITools(tools) && st.benchErr == "" {
			res.Notes = append(res.Notes, Note{Kind: "unsupported", Impl: im.ID, Tools: qmpiToolsText(tools), Reason: st.qmpi})
		}
		res.Seconds["probe"] += time.Since(t0).Seconds()
	}

	var units []*unit
	for _, c := range configs {
		for _, ranks := range []int{1, 2} {
			var calls []string
			for _, call := range Calls {
				if call.Ranks == ranks && s.Filter.Match(OverheadBench, "impl="+c.st.im.ID, "call="+call.Name, "tools="+c.tools) {
					calls = append(calls, call.Name)
				}
			}
			if len(calls) > 0 {
				units = append(units, &unit{cfg: c, ranks: ranks, calls: calls, counts: map[string]int64{}})
				res.Keys = append(res.Keys, (&unit{cfg: c, calls: calls}).keys()...)
			}
		}
	}
	if floorCfg != nil {
		var calls []string
		for _, call := range FloorCalls {
			if s.Filter.Match(FloorBench, "call="+call.Name) {
				calls = append(calls, call.Name)
			}
		}
		u := &unit{cfg: floorCfg, calls: calls, counts: map[string]int64{}}
		units = append(units, u)
		res.Keys = append(res.Keys, u.keys()...)
	}
	sortKeys(res.Keys)

	// Rounds: every unit once a round, the order rotated round by round, so
	// that a slow minute of the machine spreads over all configurations.
	t0 := time.Now()
	for r := 0; r < s.Rounds && len(units) > 0; r++ {
		for i := range units {
			u := units[(i+r)%len(units)]
			if u.dead != "" {
				continue
			}
			if err := sample(u, s, r, res); err != "" {
				u.fails++
				res.fail(u.keys(), "round %d: %s", r+1, err)
				if u.fails >= 2 {
					u.dead = err
				}
			}
		}
		if progress != nil {
			fmt.Fprintf(progress, "# overhead: round %d/%d done (%d jobs a round), %.0f s so far\n", r+1, s.Rounds, len(units), time.Since(start).Seconds())
		}
	}
	res.Seconds["rounds"] = time.Since(t0).Seconds()

	// Instruction counts: deterministic, so one callgrind run a configuration.
	t0 = time.Now()
	for _, u := range units {
		if u.ranks == 2 || u.dead != "" || u.cfg.st.noCount != "" {
			continue // ping-pong: the waiting rank polls, so its count is not the call's
		}
		if err := count(u, res); err != "" {
			res.fail(u.keys(), "instruction count: %s", err)
		}
	}
	res.Seconds["callgrind"] = time.Since(t0).Seconds()
	if progress != nil && s.Callgrind {
		fmt.Fprintf(progress, "# overhead: instruction counts done, %.0f s so far\n", time.Since(start).Seconds())
	}
	run.Seconds, run.Phases = time.Since(start).Seconds(), res.Seconds
	run.LoadAfter = loadAverage()
	res.Notes = append(res.Notes, run)
	return res, nil
}

func (c *config) keysFor(f Filter) []Key {
	var out []Key
	for _, call := range Calls {
		if f.Match(OverheadBench, "impl="+c.st.im.ID, "call="+call.Name, "tools="+c.tools) {
			out = append(out, c.key(call.Name))
		}
	}
	return out
}

func anyCall(f Filter, impl, tools string) bool {
	for _, c := range Calls {
		if f.Match(OverheadBench, "impl="+impl, "call="+c.Name, "tools="+tools) {
			return true
		}
	}
	return false
}

func anyFloor(f Filter) bool {
	for _, c := range FloorCalls {
		if f.Match(FloorBench, "call="+c.Name) {
			return true
		}
	}
	return false
}

func needsProbe(tools []string) bool {
	for _, t := range tools {
		if t != "0" {
			return true
		}
	}
	return false
}

func hasQMPITools(tools []string) bool {
	for _, t := range tools {
		if t != "0" && t != PMPI {
			return true
		}
	}
	return false
}

func qmpiToolsText(tools []string) string {
	var q []string
	for _, t := range tools {
		if t != "0" && t != PMPI {
			q = append(q, t)
		}
	}
	return strings.Join(q, ",")
}

func yesOr(why string) string {
	if why == "" {
		return "yes"
	}
	return "no: " + why
}

// twins keeps the implementations that are a twin build or have one (the
// short run's pair); all of them if there is none.
func twins(impls []*mpi.Impl) []*mpi.Impl {
	keep := map[string]bool{}
	for _, im := range impls {
		if im.TwinOf != "" {
			keep[im.ID], keep[im.TwinOf] = true, true
		}
	}
	if len(keep) == 0 {
		return impls
	}
	var out []*mpi.Impl
	for _, im := range impls {
		if keep[im.ID] {
			out = append(out, im)
		}
	}
	return out
}

// cpuPlan pins 1-rank jobs and the floor to the last core this process
// may use and the ping-pong ranks to the last two (core 0 takes most
// interrupts).
func cpuPlan(st *implState) {
	cpus := allowedCPUs()
	last := strconv.Itoa(cpus[len(cpus)-1])
	st.selfCPU, st.floorCPU, st.pingCPUs = last, last, last+","+last
	if len(cpus) >= 2 {
		st.pingCPUs = strconv.Itoa(cpus[len(cpus)-2]) + "," + last
	}
}

// allowedCPUs reads Cpus_allowed_list of /proc/self/status ("0-1,4").
func allowedCPUs() []int {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		list, ok := strings.CutPrefix(line, "Cpus_allowed_list:")
		if !ok {
			continue
		}
		if cpus := parseCPUList(strings.TrimSpace(list)); len(cpus) > 0 {
			return cpus
		}
	}
	out := make([]int, runtime.NumCPU())
	for i := range out {
		out[i] = i
	}
	return out
}

// parseCPUList reads a Linux CPU list such as "0-3,6,8-9".
func parseCPUList(list string) []int {
	var out []int
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}

// findValgrind finds valgrind where the implementation's jobs run.
func findValgrind(im *mpi.Impl, want bool) (path, why string) {
	if !want {
		return "", "instruction counts turned off (MPITS_OVERHEAD_CALLGRIND=0)"
	}
	if im.Root == "" {
		p, err := exec.LookPath("valgrind")
		if err != nil {
			return "", "valgrind is not installed (apt-get install valgrind)"
		}
		return p, ""
	}
	for _, p := range []string{"/usr/bin/valgrind", "/usr/local/bin/valgrind"} {
		if _, err := os.Stat(im.HostPath(p)); err == nil {
			return p, ""
		}
	}
	return "", fmt.Sprintf("valgrind is not installed in the implementation's root %s", im.Root)
}

// perfStatus says whether perf can count instructions here (the report
// says why callgrind is the source).
func perfStatus() string {
	if _, err := exec.LookPath("perf"); err != nil {
		return "perf is not installed"
	}
	out, err := exec.Command("perf", "stat", "-x,", "-e", "instructions:u", "true").CombinedOutput()
	text := strings.TrimSpace(string(out))
	switch {
	case err != nil:
		return "perf stat -e instructions:u failed: " + verdict.FirstLine(text)
	case strings.Contains(text, "<not supported>"), strings.Contains(text, "<not counted>"):
		return "perf stat -e instructions:u: <not supported> (no hardware counters here)"
	}
	return "perf stat -e instructions:u works (" + verdict.FirstLine(text) + ")"
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func sortKeys(keys []Key) {
	callIndex := map[string]int{}
	for i, c := range append(append([]Call{}, Calls...), FloorCalls...) {
		callIndex[c.Name] = i
	}
	implIndex := map[string]int{}
	for _, k := range keys {
		if _, ok := implIndex[k.Impl]; !ok {
			implIndex[k.Impl] = len(implIndex)
		}
	}
	less := func(a, b Key) int {
		if a.Impl != b.Impl {
			if (a.Impl == "") != (b.Impl == "") { // the floor last
				if a.Impl == "" {
					return 1
				}
				return -1
			}
			return implIndex[a.Impl] - implIndex[b.Impl]
		}
		if a.Call != b.Call {
			return callIndex[a.Call] - callIndex[b.Call]
		}
		return ToolsOrder(a.Tools, b.Tools)
	}
	for i := 1; i < len(keys); i++ { // insertion sort: stable and short
		for j := i; j > 0 && less(keys[j-1], keys[j]) > 0; j-- {
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
}
