package benchreport

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/suites/overhead"
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

// sampleOutput is what go test -bench ./suites/overhead prints, shortened.
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
	b.WriteString("--- FAIL: BenchmarkOverhead/impl=q/call=Wtime/tools=0\nPASS\n")
	return b.String()
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
