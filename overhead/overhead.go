// Package overhead measures what a tool layer costs per MPI call (issue 7,
// seed 001: "low to no overhead when no tool is attached"): Go benchmarks
// that run the C benchmark fixtures/c/bench/bench.c on every implementation,
// with no tool, with 1..32 pass-through QMPI instances, with a pass-through
// PMPI tool, and on the twin build with QMPI compiled out, plus the cost of
// one indirect call on the same machine (the floor).
//
//	go test -run '^$' -bench . -count=10 -timeout 30m ./overhead | tee bench.txt
//	go run ./cmd/mpits overhead -out reports/overhead bench.txt
//
// Each result line is one sample (one fixture run of at least 0.2 s a call
// kind) in ns per iteration, and the instructions per iteration callgrind
// counted, named BenchmarkOverhead/impl=ID/call=KIND/tools=N (N = 0..32
// QMPI instances, or "pmpi"), so benchstat compares configurations. All
// samples are taken before the first line is printed, configurations
// interleaved round by round (see plan.go).
package overhead

import (
	"fmt"
	"strconv"
	"strings"
)

// Measures are the rows of the project's checklist the benchmarks answer,
// with where: they measure and report a cost, and never give a verdict.
var Measures = map[string]string{
	"QMPI-OVH-01": "the QMPI cost compiled in but unused (mpich-tools against mpich-noqmpi) and per pass-through tool, in `reports/overhead/overhead.md` (`bash ci/overhead`)",
}

// Call is a call kind bench.c times.
type Call struct {
	Name    string
	Ranks   int // 1: on MPI_COMM_SELF in a 1-rank job; 2: ping-pong in a 2-rank job
	PerIter int // intercepted MPI calls on the critical path of one iteration
	Note    string
}

// Calls are the kinds, in report order.
var Calls = []Call{
	{"Comm_rank", 1, 1, "MPI_Comm_rank(MPI_COMM_WORLD)"},
	{"Comm_size", 1, 1, "MPI_Comm_size(MPI_COMM_WORLD)"},
	{"Wtime", 1, 1, "MPI_Wtime()"},
	{"Sendrecv", 1, 1, "MPI_Sendrecv of 0 bytes to itself on MPI_COMM_SELF"},
	{"Isend_Irecv_Waitall", 1, 3, "MPI_Irecv + MPI_Isend of 0 bytes on MPI_COMM_SELF + MPI_Waitall: 3 calls an iteration"},
	{"Barrier", 1, 1, "MPI_Barrier(MPI_COMM_SELF)"},
	{"PingPong_1B", 2, 4, "a 1-byte MPI_Send/MPI_Recv round trip between 2 ranks (4 calls: 2 on each rank)"},
	{"PingPong_4KiB", 2, 4, "a 4 KiB MPI_Send/MPI_Recv round trip between 2 ranks (4 calls: 2 on each rank)"},
}

// FloorCalls are the kinds of fixtures/c/bench/floor.c.
var FloorCalls = []Call{
	{"loop", 1, 1, "an empty loop iteration"},
	{"direct", 1, 1, "a direct call of an empty function (not inlined)"},
	{"indirect", 1, 1, "a call of the same function through a pointer read from memory"},
}

// CallByName finds a call kind of Calls or FloorCalls.
func CallByName(name string) (Call, bool) {
	for _, c := range append(append([]Call{}, Calls...), FloorCalls...) {
		if c.Name == name {
			return c, true
		}
	}
	return Call{}, false
}

// PMPI is the tools value of the configuration with the pass-through PMPI tool.
const PMPI = "pmpi"

// ToolCounts are the numbers of QMPI instances measured besides 0.
var ToolCounts = []int{1, 2, 4, 8, 16, 32}

// Units of the reported metrics.
const (
	UnitNs     = "ns/call"     // nanoseconds per iteration of the call kind
	UnitInstrs = "instrs/call" // instructions per iteration, from callgrind
)

// Benchmark names.
const (
	OverheadBench = "BenchmarkOverhead"
	FloorBench    = "BenchmarkFloor"
)

// Key names one benchmark: a call kind in a configuration (implementation
// and tools). The floor has no Impl and no Tools.
type Key struct {
	Impl, Call, Tools string
}

// Sub is the benchmark name below the top level, e.g.
// "impl=mpich-tools/call=Comm_rank/tools=4" or "call=indirect".
func (k Key) Sub() string {
	if k.Impl == "" {
		return "call=" + k.Call
	}
	return "impl=" + k.Impl + "/call=" + k.Call + "/tools=" + k.Tools
}

// Name is the full benchmark name without the GOMAXPROCS suffix.
func (k Key) Name() string {
	if k.Impl == "" {
		return FloorBench + "/" + k.Sub()
	}
	return OverheadBench + "/" + k.Sub()
}

// ToolsNumber is Tools as a number of QMPI instances; ok is false for PMPI.
func (k Key) ToolsNumber() (n int, ok bool) {
	n, err := strconv.Atoi(k.Tools)
	return n, err == nil
}

// ParseName reads a benchmark name as go test prints it (with or without the
// "-N" GOMAXPROCS suffix) back into a Key.
func ParseName(name string) (Key, error) {
	parts := strings.Split(name, "/")
	if len(parts) > 0 {
		last := parts[len(parts)-1]
		if i := strings.LastIndexByte(last, '-'); i > 0 {
			if _, err := strconv.Atoi(last[i+1:]); err == nil {
				parts[len(parts)-1] = last[:i]
			}
		}
	}
	var k Key
	switch {
	case len(parts) == 4 && parts[0] == OverheadBench:
		for _, p := range parts[1:] {
			name, value, ok := strings.Cut(p, "=")
			if !ok || value == "" {
				return k, fmt.Errorf("benchmark %s: %q is not key=value", name, p)
			}
			switch name {
			case "impl":
				k.Impl = value
			case "call":
				k.Call = value
			case "tools":
				k.Tools = value
			}
		}
		if k.Impl == "" || k.Call == "" || k.Tools == "" {
			return k, fmt.Errorf("benchmark %s lacks impl=, call= or tools=", name)
		}
	case len(parts) == 2 && parts[0] == FloorBench && strings.HasPrefix(parts[1], "call="):
		k.Call = strings.TrimPrefix(parts[1], "call=")
	default:
		return k, fmt.Errorf("benchmark %s is neither %s/impl=ID/call=KIND/tools=N nor %s/call=KIND", name, OverheadBench, FloorBench)
	}
	return k, nil
}

// ToolsOrder sorts tools values: 0, 1, 2, ... then pmpi.
func ToolsOrder(a, b string) int {
	na, errA := strconv.Atoi(a)
	nb, errB := strconv.Atoi(b)
	switch {
	case errA == nil && errB == nil:
		return na - nb
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// NoteTag starts the lines the benchmarks print besides their results: one
// JSON Note each. benchstat ignores them; mpits overhead reads them.
const NoteTag = "# mpits-overhead: "

// Note is what the benchmark run says about an implementation, a
// configuration it could not measure, or the run itself.
type Note struct {
	Kind string `json:"kind"` // "impl", "unsupported", "error", "run"
	Impl string `json:"impl,omitempty"`
	// impl
	Version string `json:"version,omitempty"`
	Family  string `json:"family,omitempty"`
	TwinOf  string `json:"twin_of,omitempty"`
	QMPI    string `json:"qmpi,omitempty"`      // "yes" or why not
	Count   string `json:"callgrind,omitempty"` // "yes" or why no instruction counts
	// unsupported, error
	Tools  string `json:"tools,omitempty"`
	Reason string `json:"reason,omitempty"`
	// run
	Rounds        int                `json:"rounds,omitempty"`
	SampleSeconds float64            `json:"sample_seconds,omitempty"`
	Seconds       float64            `json:"seconds,omitempty"`
	Phases        map[string]float64 `json:"phases,omitempty"` // seconds of "probe" (builds, probes), "rounds", "callgrind"
	LoadBefore    string             `json:"load_before,omitempty"`
	LoadAfter     string             `json:"load_after,omitempty"`
	CPUs          int                `json:"cpus,omitempty"`
	Short         bool               `json:"short,omitempty"`
	Perf          string             `json:"perf,omitempty"` // what perf stat -e instructions answered
}
