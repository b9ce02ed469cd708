package qmpi

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The workloads of the stacking, arguments, calling-address and coverage
// rules run under valgrind memcheck (fixtures are built with -g); an
// invalid read, write or free with a QMPI function on its stack, or in
// memory QMPI allocated or freed, is reported with that stack. Seed 000 and
// 001 say nothing of memory errors: the rules are quality ones. The
// calling-address rule is judged on the one workload whose tool calls
// QMPI_Get_calling_address (fixtures/c/qmpi/tool_addr.c); the rest of the
// layer on all four.
var memcheck = rulebook.Define(rulebook.Check{
	ID:    "QMPI-MEMCHECK",
	Needs: "qmpi",
	Title: "the workloads of the stacking, arguments, calling-address and coverage rules under valgrind memcheck: no invalid read, write or free in the QMPI layer",
	Rules: []rulebook.Rule{
		{ID: "QMPI-ADDR-04", Source: "seed 000", Basis: rulebook.Quality,
			Text:       "QMPI_Get_calling_address reads and writes only memory it owns (no memcheck error with it on the stack)",
			Injectors:  []string{"inject_qmpi_address_overrun"},
			Conformers: []string{"conform_qmpi_calling_address"},
			Exposure:   addr4Exposure.Declared(), Judge: judgeMemcheck(addr4Exposure, true, []string{wlAddress})},
		{ID: "QMPI-MEM-X1", Source: "seed 001", Basis: rulebook.Quality,
			Text:       "outside QMPI_Get_calling_address, the QMPI layer (registration, dispatch, storage, teardown) reads, writes and frees only memory it owns, before and after MPI_Finalize",
			Injectors:  []string{"inject_qmpi_heap_overrun"},
			Conformers: []string{"conform_qmpi_after_finalize"},
			Exposure:   memX1Exposure.Declared(), Judge: judgeMemcheck(memX1Exposure, false, []string{wlStack, wlArgs, wlAddress, wlCoverage})},
	},
})

// Each workload that ran to its end under memcheck could have shown an
// invalid access.
var (
	addr4Exposure = rulebook.Exposure[checkedWorkload]{Items: "workloads under memcheck"}
	memX1Exposure = rulebook.Exposure[checkedWorkload]{Items: "workloads under memcheck"}
)

// checkedWorkload names a workload that ran under memcheck.
type checkedWorkload string

// The memcheck workloads, by name.
const (
	wlStack    = "stack (order, storage, pass-through)"
	wlArgs     = "arguments and results"
	wlAddress  = "calling address"
	wlCoverage = "coverage"
)

// workloadShort is how a verdict lists the workloads it judged.
var workloadShort = map[string]string{wlStack: "stack", wlArgs: "arguments", wlAddress: "calling address", wlCoverage: "coverage"}

// vgError is one error valgrind reported.
type vgError struct {
	PID    string
	Kind   string   // "Invalid write of size 8"
	Run    string   // the workload it came from
	Stack  []string // function names, innermost first
	Memory []string // the functions that allocated or freed the memory touched
	Lines  []string // the whole report
}

var (
	vgLine  = regexp.MustCompile(`^==(\d+)== ?(.*)$`)
	vgFrame = regexp.MustCompile(`^\s+(?:at|by) 0x[0-9A-Fa-f]+: (.*?)(?: \((?:in |)(.*)\))?$`)
	// The QMPI interface and MPICH's internals behind it.
	qmpiLayer = regexp.MustCompile(`^(QMPI_(Register_tool_name|Register_tool_storage|Register_function|Get_function|Get_tool_storage|Get_calling_address)|MPII_qmpi_\w+|MPIR_QMPI_\w+)$`)
)

// parseValgrind collects the error reports in a job's output.
func parseValgrind(out string) []vgError {
	var errs []vgError
	current := map[string]*vgError{}
	inAddress := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		m := vgLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pid, text := m[1], m[2]
		e := current[pid]
		switch {
		case text == "":
			if e != nil {
				errs = append(errs, *e)
			}
			current[pid], inAddress[pid] = nil, false
		case e == nil && !strings.HasPrefix(text, " ") && isErrorKind(text):
			current[pid] = &vgError{PID: pid, Kind: text, Lines: []string{line}}
		case e != nil:
			e.Lines = append(e.Lines, line)
			if strings.HasPrefix(strings.TrimSpace(text), "Address ") || strings.Contains(text, "alloc'd") || strings.Contains(text, "free'd") {
				inAddress[pid] = true
			}
			if f := vgFrame.FindStringSubmatch(text); f != nil {
				if inAddress[pid] {
					e.Memory = append(e.Memory, f[1])
				} else {
					e.Stack = append(e.Stack, f[1])
				}
			}
		}
	}
	for _, e := range current {
		if e != nil {
			errs = append(errs, *e)
		}
	}
	return errs
}

func isErrorKind(text string) bool {
	for _, k := range []string{"Invalid ", "Mismatched free", "Process terminating with default action of signal", "Conditional jump", "Use of uninitialised", "Syscall param", "Source and destination overlap", "Argument '"} {
		if strings.HasPrefix(text, k) {
			return true
		}
	}
	return false
}

// invalid says whether the error is an invalid memory access (not an
// uninitialised value).
func (e vgError) invalid() bool {
	return strings.HasPrefix(e.Kind, "Invalid ") || strings.HasPrefix(e.Kind, "Mismatched free") || strings.Contains(e.Kind, "unaddressable") ||
		strings.Contains(e.Kind, "SIGSEGV") || strings.Contains(e.Kind, "SIGBUS")
}

// inQMPI says whether a QMPI function is on the error's stack, or the
// memory touched was allocated or freed by one (QMPI's own tables).
func (e vgError) inQMPI() bool {
	for _, f := range append(append([]string{}, e.Stack...), e.Memory...) {
		if qmpiLayer.MatchString(f) {
			return true
		}
	}
	return false
}

func (e vgError) short() string {
	s := fmt.Sprintf("%s in %s", e.Kind, strings.Join(head(e.Stack, 4), " ← "))
	for _, f := range e.Memory {
		if qmpiLayer.MatchString(f) && !contains(e.Stack, f) {
			return s + " (memory of " + f + ")"
		}
	}
	return s
}

// memcheckRun is one workload under memcheck.
type memcheckRun struct {
	name    string
	ranks   int
	app     string
	args    []string
	tools   []string
	env     map[string]string
	finishK string // a record kind every rank writes at its end
}

// memchecks keeps what memcheck found per implementation, preload and
// workload: both rules judge the calling-address workload, and a workload
// under valgrind costs seconds of CPU.
var memchecks mpi.Memo[*memcheckFound]

// memcheckFound is what memcheck found in one or more workloads.
type memcheckFound struct {
	inLayer  []vgError
	other    []vgError
	unjudged int // reports of other kinds (overlapping copies, bad syscall arguments)
	runs     []string
	crash    string // a workload that crashed after invalid accesses in the layer
}

func (m *memcheckFound) rule(address bool) ([]vgError, []string) {
	var errs []vgError
	var ev []string
	for _, e := range m.inLayer {
		if e.inCallingAddress() == address {
			errs = append(errs, e)
			ev = append(ev, fmt.Sprintf("== %s\n%s", e.Run, strings.Join(e.Lines, "\n")))
		}
	}
	return errs, ev
}

// inCallingAddress says whether QMPI_Get_calling_address is on the stack.
func (e vgError) inCallingAddress() bool {
	return contains(e.Stack, "QMPI_Get_calling_address")
}

// judgeMemcheck passes through the rule's exposure e.
func judgeMemcheck(e rulebook.Exposure[checkedWorkload], address bool, workloads []string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		m := memcheckAll(x, workloads)
		errs, ev := m.rule(address)
		notes := ""
		if len(m.other) > 0 {
			notes += fmt.Sprintf("; %d invalid accesses outside the QMPI layer, first: %s", len(m.other), m.other[0].short())
		}
		if m.unjudged > 0 {
			notes += fmt.Sprintf("; %d memcheck reports of other kinds (not judged)", m.unjudged)
		}
		where := "in the QMPI layer outside QMPI_Get_calling_address"
		if address {
			where = "with QMPI_Get_calling_address on the stack"
		}
		if len(errs) > 0 {
			kinds := map[string]int{}
			for _, e := range errs {
				kinds[e.short()]++
			}
			var list []string
			for k, n := range kinds {
				list = append(list, fmt.Sprintf("%d× %s", n, k))
			}
			sort.Strings(list)
			if m.crash != "" {
				notes += "; " + m.crash
			}
			x.Failf(strings.Join(ev, "\n"), "%d invalid accesses %s: %s%s", len(errs), where, strings.Join(list, "; "), notes)
		}
		if m.crash != "" {
			x.Errorf(m.crash, "memcheck: %s; none %s, but the workloads did not all run", m.crash, where)
		}
		var ran []checkedWorkload
		for _, name := range m.runs {
			ran = append(ran, checkedWorkload(name))
		}
		return e.Pass(ran, "%s under memcheck: no invalid access %s%s", workloadsSaid(m.runs), where, notes)
	}
}

// workloadsSaid names the workloads judged, e.g. "the calling address
// workload" or "4 workloads (stack, arguments, calling address, coverage)".
func workloadsSaid(names []string) string {
	if len(names) == 1 {
		return "the " + names[0] + " workload"
	}
	short := make([]string, len(names))
	for i, n := range names {
		short[i] = workloadShort[n]
	}
	return fmt.Sprintf("%d workloads (%s)", len(names), strings.Join(short, ", "))
}

// memcheckAll runs the named workloads under memcheck side by side (each
// once per implementation and preload) and reads what they found in order,
// as if one ran after the other: a workload that crashed ends the reading.
func memcheckAll(x *rulebook.X, names []string) *memcheckFound {
	tool := memcheckTool(x.Impl)
	if tool == "" {
		x.Unsupported("not measurable here: no valgrind memcheck where %s runs (%s)", x.Impl.ID, strings.Join(memcheckTools, ", "))
	}
	found := make([]*memcheckFound, len(names))
	stops := make([]any, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			defer func() { stops[i] = mpi.StopOf(recover()) }()
			found[i] = memchecks.Do(x.Impl.ID+"\x00"+strings.Join(x.Preload, ":")+"\x00"+name, func() *memcheckFound {
				return memcheckOne(x, tool, memcheckWorkload(x, name))
			})
		})
	}
	wg.Wait()
	m := &memcheckFound{}
	for i, f := range found {
		if stops[i] != nil {
			panic(stops[i]) // panic-ok: re-raises how workload i's judgement ended (a verdict, or where the suite broke), recovered on its goroutine
		}
		m.runs = append(m.runs, names[i])
		m.inLayer = append(m.inLayer, f.inLayer...)
		m.other = append(m.other, f.other...)
		m.unjudged += f.unjudged
		if f.crash != "" {
			m.crash = fmt.Sprintf("%s after %d invalid accesses in the QMPI layer", f.crash, len(m.inLayer))
			break
		}
	}
	return m
}

// memcheckWorkload is the named workload on x's implementation.
func memcheckWorkload(x *rulebook.X, name string) memcheckRun {
	switch name {
	case wlStack:
		return memcheckRun{name: name, ranks: 2, app: x.Fixture("qmpi_app_layer"), args: []string{"init", "3"},
			tools: []string{x.Fixture("qmpi_tool_layer")}, finishK: "app_calls",
			env: map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "L0:L1:L2", "MPITS_QMPI_TRACE": "send", "MPITS_QMPI_FUNCS": "L0=send,recv,barrier,init,finalize;L1=none"}}
	case wlArgs:
		return memcheckRun{name: name, ranks: 2, app: x.Fixture("qmpi_app_args"), tools: []string{x.Fixture("qmpi_tool_args")}, finishK: "app_args",
			env: map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "mod:rec"}}
	case wlAddress:
		return memcheckRun{name: name, ranks: 1, app: x.Fixture("qmpi_app_addr"), tools: []string{x.Fixture("qmpi_tool_addr")}, finishK: "app_done",
			env: map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "addr"}}
	case wlCoverage:
		cover := buildCoverage(x)
		return memcheckRun{name: name, ranks: 2, app: cover.App, tools: []string{cover.Tool}, finishK: "cover_app_done",
			env: map[string]string{"MPIR_CVAR_QMPI_TOOL_LIST": "cover"}}
	}
	x.Errorf("", "the suite broke: no memcheck workload is named %q", name)
	return memcheckRun{}
}

// memcheckTools are where valgrind installs its memcheck (Debian, then
// other distributions), as the implementation's processes see them.
var memcheckTools = []string{"/usr/libexec/valgrind/memcheck-amd64-linux", "/usr/lib/valgrind/memcheck-amd64-linux", "/usr/lib64/valgrind/memcheck-amd64-linux"}

// memcheckTool is the first of memcheckTools in im's root, or "".
func memcheckTool(im *mpi.Impl) string {
	for _, t := range memcheckTools {
		if _, err := os.Stat(im.HostPath(t)); err == nil {
			return t
		}
	}
	return ""
}

// memcheckOne runs one workload under memcheck (tool, memcheckTool): what
// it found, with the crash that ended it, if any.
func memcheckOne(x *rulebook.X, tool string, r memcheckRun) *memcheckFound {
	// Memcheck runs without valgrind's launcher (a shell script and a
	// dynamic program): the tools' LD_PRELOAD, set by env(1) for the rank
	// (injectors first, x.Launch), would run their constructors in it.
	// Memcheck itself is static and hands LD_PRELOAD to the application.
	// Uses of uninitialised values are judged by no rule: not tracked.
	// Not chasing branches across blocks only makes translation cheaper
	// (MPI_Init's code is translated once and run little).
	args := append([]string{"-q", "--error-exitcode=99", "--undef-value-errors=no", "--num-callers=16", "--vex-guest-chase=no", r.app}, r.args...)
	rankEnv := map[string]string{"LD_PRELOAD": strings.Join(r.tools, ":"), "VALGRIND_LIB": path.Dir(tool), "VALGRIND_LAUNCHER": "/usr/bin/valgrind"}
	res, recs, recErr := x.Launch(mpi.Job{Name: "memcheck " + r.name, Ranks: r.ranks, Program: tool, Args: args, Env: r.env, RankEnv: rankEnv, Deadline: 180 * time.Second, Long: true})
	m := &memcheckFound{}
	errs := parseValgrind(res.Stderr + "\n" + res.Stdout)
	crashed := res.TimedOut || res.Signal != ""
	if len(errs) == 0 && (crashed || res.ExitCode != 0) {
		x.Errorf(res.Evidence(), "under memcheck, %s", res.Problem())
	}
	if recErr == nil && !crashed {
		for rank := 0; rank < r.ranks; rank++ {
			if len(recs.Kind(r.finishK, rank)) == 0 {
				x.Errorf(res.Evidence(), "memcheck %s: rank %d did not finish (no %s record)", r.name, rank, r.finishK)
			}
		}
	}
	for _, e := range errs {
		switch {
		case e.invalid() && e.inQMPI():
			e.Run = r.name
			m.inLayer = append(m.inLayer, e)
		case e.invalid():
			m.other = append(m.other, e)
		default:
			m.unjudged++
		}
	}
	if crashed && len(m.inLayer) == 0 {
		x.Errorf(res.Evidence(), "memcheck %s: %s", r.name, res.Problem())
	}
	if crashed {
		m.crash = fmt.Sprintf("memcheck %s: %s", r.name, res.Problem())
	}
	return m
}
