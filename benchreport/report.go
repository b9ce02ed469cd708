package benchreport

import (
	"fmt"
	"math"
	"strings"

	"github.com/mpits/mpits/overhead"
)

// reportMarkdown is reports/overhead/overhead.md.
func reportMarkdown(d *benchData, s *ohSummary, tables []benchTable, inputs []string) string {
	var b strings.Builder
	b.WriteString("# Overhead of the tool layers\n\n")
	b.WriteString("What a tool layer costs per MPI call (issue 7; seed 001 asks for \"low to no overhead when no tool is attached\" and the \"possibility for zero overhead when disabled\"). ")
	b.WriteString("Written by `mpits overhead` from the output of `go test -bench ./overhead` (`ci/overhead`); every number below comes from that output, nothing is typed in.\n\n")
	b.WriteString(runLine(d, s))
	b.WriteString("\n## The floor\n\n")
	for _, line := range floorStatement(d, s) {
		b.WriteString(line + "\n")
	}
	for _, is := range s.QMPI {
		fmt.Fprintf(&b, "\n### Per call kind on %s\n\n", is.Impl)
		b.WriteString("Medians; [95 % interval] (distribution-free for a median, bootstrap for a difference or a slope; none with fewer than 6 samples). ")
		b.WriteString("Instructions are exact (callgrind) and have no interval. \"per tool\" is the slope over the instance counts, per intercepted call (an iteration of Isend_Irecv_Waitall makes 3 calls, a ping-pong round trip 4).\n\n")
		fmt.Fprintf(&b, "| call | no tool: ns | instrs | QMPI in but unused (vs %s): Δns | Δinstrs | per QMPI tool, per call: ns | instrs | one PMPI tool: Δns | Δinstrs |\n", orNone(is.Twin))
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, c := range is.Calls {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.Call,
				fmtEstimate(c.NoTool.Ns), fmtInstrs(c.NoTool.Instrs),
				fmtCostNs(c.ZeroTool), fmtCostInstrs(c.ZeroTool),
				fmtCostNs(c.PerToolPerCall), fmtCostInstrs(c.PerToolPerCall),
				fmtCostNs(c.PMPI), fmtCostInstrs(c.PMPI))
		}
	}
	b.WriteString(breakdownMarkdown(s))
	b.WriteString("\n## Plot\n\n![ns/call and instrs/call against the number of QMPI tools, per call kind](overhead.svg)\n\n")
	b.WriteString("`overhead.svg`: per call kind, the median ns/call (with its 95 % interval) and the instructions per call against the number of pass-through QMPI instances; the square at 0 is the same MPICH without QMPI, the dashed line one PMPI tool.\n")
	b.WriteString("\n## benchstat tables\n\n")
	b.WriteString("Made with `golang.org/x/perf/benchstat` (also in `tables.txt`): each column is a configuration, each row a call kind; a two-column table gives the change and its Mann-Whitney p-value. ")
	b.WriteString("instrs/call is one callgrind count per configuration repeated on each sample line, so its ± is 0 and its test only says whether the counts differ.\n")
	for _, t := range tables {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\n```text\n%s```\n", t.Title, t.About, t.Text)
	}
	if len(s.Skipped) > 0 {
		b.WriteString("\n## Not measured\n\n")
		for _, n := range s.Skipped {
			fmt.Fprintf(&b, "- %s, tools %s: %s — %s\n", n.Impl, n.Tools, n.Kind, oneLine(n.Reason))
		}
	}
	b.WriteString("\n## Implementations\n\n| id | version | QMPI (probed) | instruction counts |\n|---|---|---|---|\n")
	for _, n := range d.notes {
		if n.Kind == "impl" {
			twin := ""
			if n.TwinOf != "" {
				twin = " (twin of " + n.TwinOf + " without --enable-qmpi)"
			}
			fmt.Fprintf(&b, "| %s%s | %s %s | %s | %s |\n", n.Impl, twin, n.Family, n.Version, oneLine(n.QMPI), oneLine(n.Count))
		}
	}
	b.WriteString(methodText)
	fmt.Fprintf(&b, "\nInput: %s.\n", strings.Join(inputs, ", "))
	return b.String()
}

func runLine(d *benchData, s *ohSummary) string {
	var parts []string
	if s.Run != nil {
		r := s.Run
		mode := ""
		if r.Short {
			mode = " (short mode: go test -short)"
		}
		t := fmt.Sprintf("Run%s: %d sample(s) per configuration and call kind, each at least %g s, configurations interleaved round by round; %.0f s in all", mode, r.Rounds, r.SampleSeconds, r.Seconds)
		if p := r.Phases; len(p) > 0 {
			t += fmt.Sprintf(" (builds and probes %.0f s, the rounds %.0f s, callgrind %.0f s)", p["probe"], p["rounds"], p["callgrind"])
		}
		parts = append(parts, t)
		parts = append(parts, fmt.Sprintf("load average %s before and %s after, on %d CPUs", r.LoadBefore, r.LoadAfter, r.CPUs))
	}
	if d.cpu != "" {
		parts = append(parts, "CPU: "+d.cpu)
	}
	if s.Run != nil && s.Run.Perf != "" {
		parts = append(parts, "hardware counters: "+s.Run.Perf)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ".\n"
}

// floorStatement: the per-tool cost, the zero-tool cost with its interval,
// and both against one indirect call of the same run.
func floorStatement(d *benchData, s *ohSummary) []string {
	var out []string
	ind := s.Indirect
	if ind != nil {
		t := fmt.Sprintf("- **One indirect call** (fixtures/c/bench/floor.c: a call through a function pointer minus an empty loop iteration, same core, same run): %s ns", fmtEstimate(ind.Ns))
		if ind.Instrs != nil {
			t += fmt.Sprintf(", %s instructions", fmtNum(*ind.Instrs))
		}
		if s.Direct != nil {
			t += fmt.Sprintf(" (a direct call: %s ns)", fmtEstimate(s.Direct.Ns))
		}
		out = append(out, t+".")
	} else {
		out = append(out, "- The floor (BenchmarkFloor) was not measured in this run: no comparison with an indirect call.")
	}
	for _, is := range s.QMPI {
		if len(is.Calls) == 0 {
			continue
		}
		head := is.Calls[0] // the cheapest call: Comm_rank
		if p := head.PerToolPerCall; p != nil {
			t := fmt.Sprintf("- **Per tool** (%s): each pass-through QMPI instance adds %s ns", is.Impl, fmtEstimate(p.Ns))
			if p.Instrs != nil {
				t += fmt.Sprintf(" and %s instructions", fmtNum(*p.Instrs))
			}
			t += fmt.Sprintf(" to an MPI_%s call (slope over %s instances)", head.Call, joinInts(is.Tools))
			if ind != nil {
				t += ": " + versus(p, ind)
			}
			if lo, hi, ok := instrRange(is.Calls); ok && lo != hi {
				t += fmt.Sprintf(". Over the single-rank call kinds, %s to %s instructions per tool and intercepted call", fmtNum(lo), fmtNum(hi))
			}
			if bd := s.findBreakdown("tool", is.Impl, head.Call); bd != nil && bd.Match {
				t += fmt.Sprintf(". Where a tool's %s instructions go (%s; [by function](#where-the-instructions-go)): %s",
					fmtI(bd.Totals[len(bd.Totals)-1]), bd.Columns[len(bd.Columns)-1], layerSummary(bd, len(bd.Columns)-1))
			}
			out = append(out, t+".")
		}
		if z := head.ZeroTool; z != nil {
			t := fmt.Sprintf("- **Zero tools** (%s against its twin %s built without QMPI, no tool): QMPI compiled in but unused costs %s ns", is.Impl, is.Twin, fmtEstimate(z.Ns))
			if z.Instrs != nil {
				t += fmt.Sprintf(" and %s instructions", fmtNum(*z.Instrs))
			}
			t += fmt.Sprintf(" per MPI_%s call", head.Call)
			if ind != nil {
				t += ": " + versus(z, ind)
			}
			if bd := s.findBreakdown("zero", is.Impl, head.Call); bd != nil && bd.Match {
				t += fmt.Sprintf(" (%s; [by function](#where-the-instructions-go))", layerSummary(bd, len(bd.Columns)-1))
			}
			if !z.Ns.CI {
				t += " (too few samples for a 95 % interval: run with -count=10)"
			} else if z.Ns.Lo <= 0 && z.Ns.Hi >= 0 {
				t += "; the interval includes 0: no time difference shows at this noise"
			}
			out = append(out, t+".")
		} else {
			out = append(out, fmt.Sprintf("- **Zero tools** (%s): no twin build without QMPI was measured, so the cost of QMPI compiled in but unused is not known from this run.", is.Impl))
		}
		if pm := head.PMPI; pm != nil {
			t := fmt.Sprintf("- **PMPI** (%s): one pass-through PMPI tool adds %s ns", is.Impl, fmtEstimate(pm.Ns))
			if pm.Instrs != nil {
				t += fmt.Sprintf(" and %s instructions", fmtNum(*pm.Instrs))
			}
			out = append(out, t+fmt.Sprintf(" per MPI_%s call.", head.Call))
		}
	}
	if len(s.QMPI) == 0 {
		out = append(out, "- No implementation was measured with QMPI tools in this run.")
	}
	return out
}

// versus says how many indirect calls a cost is.
func versus(c, ind *cost) string {
	var parts []string
	if ind.Ns.Value > 0 {
		parts = append(parts, fmt.Sprintf("%s× an indirect call in time", fmtNum(c.Ns.Value/ind.Ns.Value)))
	}
	if c.Instrs != nil && ind.Instrs != nil && *ind.Instrs > 0 {
		parts = append(parts, fmt.Sprintf("%s× in instructions", fmtNum(*c.Instrs / *ind.Instrs)))
	}
	if len(parts) == 0 {
		return "not comparable (no indirect-call figure)"
	}
	return strings.Join(parts, ", ")
}

func instrRange(calls []callSummary) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range calls {
		if c.PerToolPerCall == nil || c.PerToolPerCall.Instrs == nil {
			continue
		}
		v := math.Round(*c.PerToolPerCall.Instrs*10) / 10
		lo, hi, ok = math.Min(lo, v), math.Max(hi, v), true
	}
	return lo, hi, ok
}

func fmtEstimate(e estimate) string {
	if !e.CI {
		return fmtNum(e.Value)
	}
	return fmt.Sprintf("%s [%s, %s]", fmtNum(e.Value), fmtNum(e.Lo), fmtNum(e.Hi))
}

func fmtCostNs(c *cost) string {
	if c == nil {
		return "–"
	}
	return fmtEstimate(c.Ns)
}

func fmtCostInstrs(c *cost) string {
	if c == nil {
		return "–"
	}
	return fmtInstrs(c.Instrs)
}

func fmtInstrs(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmtNum(math.Round(*v*10) / 10)
}

func orNone(s string) string {
	if s == "" {
		return "no twin measured"
	}
	return s
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return strings.ReplaceAll(s, "|", "\\|")
}

func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, ", ")
}

var methodText = `
## How it was measured

- **Fixture** ` + "`fixtures/c/bench/bench.c`" + `: tight loops of ` + callList() + `. Each sample is one loop of at least the sample time (0.2 s in a full run): the first run of a configuration calibrates the loop count by doubling, later rounds reuse it and the fixture tops a sample up if it ends early. ns/call is the sample's time over its iterations (` + "`clock_gettime(CLOCK_MONOTONIC)`" + ` around the loop).
- **Configurations**: no tool; 1, 2, 4, 8, 16 and 32 instances of the pass-through QMPI tool ` + "`fixtures/c/bench/tool_qmpi_pass.c`" + ` (it registers every timed function and calls ` + "`QMPI_Get_function`" + ` and the next instance on each call); one pass-through PMPI tool ` + "`fixtures/c/bench/tool_pmpi_pass.c`" + ` (LD_PRELOAD, the old way); the twin build without ` + "`--enable-qmpi`" + `; every implementation with no tool. QMPI support is probed, not assumed: the counting build of the tool must register, be initialized twice for ` + "`p:p`" + `, and see every call; a timed run must show as many initialized instances as asked.
- **Noise**: every job is pinned (1-rank jobs and the floor to the last core, the ping-pong ranks to the last two), configurations are interleaved (round r runs every configuration once, in an order rotated by r), and everything is reported as medians with intervals. The ping-pong needs two cores that both spin: on a machine with other jobs its spread is the largest. Benchmarks report; they never pass or fail on a time.
- **Instructions** ` + "`valgrind --tool=callgrind --dump-after=mpits_bench_mark`" + `: each call kind runs ` + fmt.Sprint(overhead.CountN1) + ` and ` + fmt.Sprint(overhead.CountN2) + ` iterations, each loop ended by a marker whose exit dumps the counts; (I(N2) − I(N1)) / (N2 − N1) cancels start-up and loop entry. Not for the ping-pong (the waiting rank polls, so its count is not the call's) nor where valgrind is missing. Callgrind rather than hardware counters: its counts are exact and the same from run to run.
- **Per function** (` + "`overhead/profile.go`" + `): for ` + callNames(overhead.ProfileCalls) + `, the same dumps are read function by function (callgrind's self count of each function, an unnamed stub named after its callee, recursion levels merged) and (f(N2) − f(N1)) / (N2 − N1) taken per function; the benchmarks print one ` + "`" + strings.TrimSpace(overhead.ProfileTag) + "`" + ` JSON line per configuration beside the result lines, and ` + "`mpits overhead`" + ` combines them into the tables of "Where the instructions go" and checks that each column adds up to its instrs/call figure.
- **Go benchmarks** ` + "`overhead`" + `: one result line per sample, ` + "`BenchmarkOverhead/impl=ID/call=KIND/tools=N`" + ` (N instances, or pmpi) and ` + "`BenchmarkFloor/call=KIND`" + `, metrics ns/call and instrs/call; all samples are taken before the first line is printed. ` + "`-count`" + ` is the number of rounds.

Reproduce: ` + "`bash ci/overhead [--short] [OUT]`" + `, or

` + "```sh" + `
go test -run '^$' -bench . -count=10 -timeout 30m ./overhead | tee bench.txt
go run ./cmd/mpits overhead -out reports/overhead bench.txt
` + "```" + `

and any slice with benchstat (` + "`go install golang.org/x/perf/cmd/benchstat@latest`" + `), e.g.

` + "```sh" + `
benchstat -col /tools -filter '/impl:mpich-tools' bench.txt                                  # per tool count
benchstat -col /impl -filter '/tools:0 /impl:(mpich-noqmpi OR mpich-tools)' bench.txt        # QMPI compiled out vs in
benchstat -col /tools -filter '/impl:mpich-tools /tools:(1 OR pmpi)' bench.txt               # QMPI vs PMPI
benchstat -col /impl -filter '/tools:0' bench.txt                                            # implementations side by side
` + "```" + `
`

func callNames(calls []string) string {
	var s []string
	for _, c := range calls {
		s = append(s, "MPI_"+c)
	}
	return strings.Join(s, ", ")
}

func callList() string {
	var s []string
	for _, c := range overhead.Calls {
		s = append(s, c.Note)
	}
	return strings.Join(s, "; ")
}
