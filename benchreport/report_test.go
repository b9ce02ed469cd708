package benchreport

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/overhead"
)

func TestMedianCI(t *testing.T) {
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}
	lo, hi, cov, ok := medianCI(xs, 0.95)
	// n = 10: [x(2), x(9)] covers 1 - 2 * 11/1024 = 97.85 %.
	if !ok || lo != 2 || hi != 9 || math.Abs(cov-(1-22.0/1024)) > 1e-12 {
		t.Errorf("medianCI = %g, %g, %g, %v; want 2, 9, 0.9785, true", lo, hi, cov, ok)
	}
	if median(xs) != 5.5 {
		t.Errorf("median = %g", median(xs))
	}
	if _, _, _, ok := medianCI(xs[:5], 0.95); ok {
		t.Error("5 samples cannot give a 95 % interval of the median")
	}
	if _, _, _, ok := medianCI(xs[:6], 0.95); !ok {
		t.Error("6 samples give [x(1), x(6)] at 96.9 %")
	}
}

func TestDiffAndSlope(t *testing.T) {
	a := []float64{10, 11, 9, 10, 12, 10, 9, 11}
	b := []float64{20, 21, 19, 20, 22, 20, 19, 21}
	d, lo, hi, ok := diffCI(a, b)
	if !ok || d != 10 || lo > 10 || hi < 10 || lo < 7 || hi > 13 {
		t.Errorf("diffCI = %g [%g, %g] %v", d, lo, hi, ok)
	}
	d2, lo2, hi2, _ := diffCI(a, b)
	if d2 != d || lo2 != lo || hi2 != hi {
		t.Error("diffCI is not reproducible")
	}
	xs := []float64{0, 1, 2, 4, 8}
	var ys [][]float64
	for _, x := range xs {
		ys = append(ys, []float64{5 + 3*x - 0.5, 5 + 3*x, 5 + 3*x + 0.5})
	}
	s, lo, hi, ok := slopeCI(xs, ys)
	if !ok || math.Abs(s-3) > 1e-9 || lo > 3 || hi < 3 {
		t.Errorf("slopeCI = %g [%g, %g] %v, want 3", s, lo, hi, ok)
	}
}

// sampleOutput is what go test -bench ./overhead prints, shortened.
func sampleOutput() string {
	var b strings.Builder
	b.WriteString("# overhead: round 1/6 done\n")
	b.WriteString(overhead.NoteTag + `{"kind":"impl","impl":"q","version":"4.0.2","family":"mpich","qmpi":"yes","callgrind":"yes"}` + "\n")
	b.WriteString(overhead.NoteTag + `{"kind":"impl","impl":"noq","version":"4.0.2","family":"mpich","twin_of":"q","qmpi":"QMPI_Register_tool_name returned 44","callgrind":"yes"}` + "\n")
	b.WriteString(overhead.NoteTag + `{"kind":"unsupported","impl":"noq","tools":"1,8","reason":"QMPI_Register_tool_name returned 44"}` + "\n")
	b.WriteString(overhead.NoteTag + `{"kind":"run","rounds":6,"sample_seconds":0.2,"seconds":100,"load_before":"1 1 1","load_after":"1 1 1","cpus":2}` + "\n")
	b.WriteString("goos: linux\ncpu: Test CPU\n")
	line := func(k overhead.Key, ns, instrs float64) {
		fmt.Fprintf(&b, "%s-2   \t       1\t%g %s\t%g %s\n", k.Name(), instrs, overhead.UnitInstrs, ns, overhead.UnitNs)
	}
	for i := 0; i < 6; i++ {
		jitter := float64(i%3) * 0.1
		for _, c := range overhead.Calls[:2] {
			for _, n := range []int{0, 1, 8} {
				line(overhead.Key{Impl: "q", Call: c.Name, Tools: fmt.Sprint(n)}, 5+10*float64(n)+jitter, 63+48*float64(n))
			}
			line(overhead.Key{Impl: "q", Call: c.Name, Tools: overhead.PMPI}, 5.5+jitter, 65)
			line(overhead.Key{Impl: "noq", Call: c.Name, Tools: "0"}, 4.5+jitter, 59)
		}
		line(overhead.Key{Call: "loop"}, 0.5+jitter/10, 3)
		line(overhead.Key{Call: "indirect"}, 2.5+jitter/10, 6)
	}
	b.WriteString(profileLines(0))
	b.WriteString("--- FAIL: BenchmarkOverhead/impl=q/call=Wtime/tools=0\nPASS\n")
	return b.String()
}

// profileLines are the per-function lines of MPI_Comm_rank that match the
// instrs/call of sampleOutput, but for skew added to q tools=8.
func profileLines(skew float64) string {
	var b strings.Builder
	f := func(obj, fn string, self, calls float64) overhead.FuncCost {
		return overhead.FuncCost{Object: obj, Func: fn, Self: self, Incl: self, Calls: calls}
	}
	add := func(impl, tools string, instrs float64, funcs ...overhead.FuncCost) {
		js, _ := json.Marshal(overhead.Profile{Impl: impl, Call: "Comm_rank", Tools: tools, Instrs: instrs, Funcs: funcs})
		b.WriteString(overhead.ProfileTag + string(js) + "\n")
	}
	loop, work := f("bench", "run_comm_rank", 7, 0), f("libmpi.so.12", "QMPI_Comm_rank", 46, 1)
	add("q", "0", 63, loop, work, f("libmpi.so.12", "PMPI_Comm_rank", 9, 1), f("", "PLT stub → QMPI_Comm_rank", 1, 1))
	for _, n := range []float64{1, 8} {
		add("q", fmt.Sprint(n), 63+48*n, loop, work, f("libmpi.so.12", "PMPI_Comm_rank", 14, 1),
			f("bench_qmpi_pass", "comm_rank", 32*n+skew*(n-1), n), f("libmpi.so.12", "QMPI_Get_function", 12+16*(n-1), n))
	}
	add("q", overhead.PMPI, 65, loop, work, f("libmpi.so.12", "PMPI_Comm_rank", 9, 1), f("", "PLT stub → QMPI_Comm_rank", 1, 1),
		f("bench_pmpi_pass", "MPI_Comm_rank", 2, 1))
	add("noq", "0", 59, loop, f("libmpi.so.12", "PMPI_Comm_rank", 52, 1), f("bench", "main", -0.002, 0))
	return b.String()
}

func TestBreakdown(t *testing.T) {
	dir := t.TempDir()
	for _, skew := range []float64{0, 1} {
		in := filepath.Join(dir, "bench.txt")
		text := strings.ReplaceAll(sampleOutput(), profileLines(0), profileLines(skew))
		if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(dir, []string{in}); err != nil {
			t.Fatal(err)
		}
		md, _ := os.ReadFile(filepath.Join(dir, "overhead.md"))
		wants := []string{
			"## Where the instructions go",
			"### QMPI compiled in but unused: MPI_Comm_rank on q against noq, no tool",
			"### Per QMPI tool: MPI_Comm_rank on q with 0 to 8 pass-through instances",
			"### One PMPI tool: MPI_Comm_rank on q",
			"| `PLT stub → QMPI_Comm_rank` | – | PLT stub | 0 | 1 | 1 |",                     // zero-tool: in the QMPI build only
			"| QMPI dispatch in the MPI_ function | 0 | 9 | 9 |",                             // the layer table
			"| the call's own work in the library | 52 | 46 | -6 |",                          // moved from MPI_ to QMPI_, and cheaper here
			"| `QMPI_Get_function` | libmpi.so.12 | QMPI_Get_function | 0 | 12 | 124 (8×) |", // calls shown in a configuration column
			"(9 in QMPI dispatch in the MPI_ function, -6 in the call's own work",            // the zero-tool statement
		}
		if skew == 0 {
			wants = append(wants, "| instrs/call of the benchmark lines | 63 | 111 | 447 | 48 | 48 | 48 |",
				"32 in the QMPI tool's own wrapper, 15.5 in QMPI_Get_function", // the per-tool statement
				"Check: every column's total equals its instrs/call figure")
		} else {
			wants = append(wants, "**Check failed**")
		}
		for _, want := range wants {
			if !strings.Contains(string(md), want) {
				t.Errorf("skew %g: overhead.md lacks %q", skew, want)
			}
		}
		if skew == 0 && strings.Contains(string(md), "Check failed") {
			t.Error("a check failed on matching counts")
		}
		if skew != 0 && strings.Contains(string(md), "Where a tool's") {
			t.Error("the summary quotes a breakdown whose check failed")
		}
		js, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
		var sum struct {
			Breakdowns []breakdown `json:"breakdowns"`
		}
		if err := json.Unmarshal(js, &sum); err != nil || len(sum.Breakdowns) != 3 {
			t.Errorf("summary.json: %d breakdowns, %v", len(sum.Breakdowns), err)
		}
		if t.Failed() {
			t.Log(string(md))
			return
		}
	}
}

func TestOverheadReport(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bench.txt")
	if err := os.WriteFile(in, []byte(sampleOutput()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, err := Write(out, []string{in}); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(out, "overhead.md"))
	for _, want := range []string{
		"each pass-through QMPI instance adds 10 [", // the slope of 10 ns a tool
		"and 48 instructions to an MPI_Comm_rank call",
		"16× in instructions",         // 48 against 6 - 3
		"QMPI compiled in but unused", // the zero-tool statement
		"costs 0.500 [",               // 5 - 4.5 ns with its interval
		"and 4 instructions",          // 63 - 59
		"One indirect call",
		"QMPI compiled out (noq) vs in (q), no tool",
		"QMPI vs PMPI on q",
		"Implementations side by side",
		"noq, tools 1,8: unsupported — QMPI_Register_tool_name returned 44",
		"CPU: Test CPU",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("overhead.md lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(string(md))
	}
	svg, _ := os.ReadFile(filepath.Join(out, "overhead.svg"))
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("overhead.svg is not well-formed XML: %v", err)
		}
	}
	if n := strings.Count(string(svg), "<polyline"); n != 4 { // 2 call kinds × (ns, instrs)
		t.Errorf("overhead.svg has %d lines of QMPI instances, want 4", n)
	}
	tables, _ := os.ReadFile(filepath.Join(out, "tables.txt"))
	if !strings.Contains(string(tables), "tools=0") || !strings.Contains(string(tables), "delta") {
		t.Errorf("tables.txt lacks the tool-count columns or a delta:\n%s", tables)
	}
	if _, err := Write(out, []string{filepath.Join(dir, "missing.txt")}); err == nil {
		t.Error("a missing input gave no error")
	}
}
