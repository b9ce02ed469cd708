package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cmdBenchSum prints, for each benchmark of a Go benchmark file and each of
// its units, the minimum, median and maximum over its runs (ci/speed):
// ns/op as durations, any other unit (cpu-s/op, the CPU seconds a run took)
// as numbers.
func cmdBenchSum(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: mpits benchsum BENCH.txt (Go benchmark format)")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	out, err := benchSummary(f, args[0])
	if err != nil {
		return err
	}
	fmt.Print(out)
	return nil
}

// benchSummary is the table cmdBenchSum prints for the benchmark lines of r
// (name names r in errors).
func benchSummary(r io.Reader, name string) (string, error) {
	type metric struct{ bench, unit string }
	samples := map[metric][]float64{}
	var order []metric
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		// name, iterations, then value-unit pairs
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return "", fmt.Errorf("%s: %q: %v", name, sc.Text(), err)
			}
			m := metric{fields[0], fields[i+1]}
			if _, ok := samples[m]; !ok {
				order = append(order, m)
			}
			samples[m] = append(samples[m], v)
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if len(order) == 0 {
		return "", fmt.Errorf("%s: no benchmark line with a value", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %5s %10s %10s %10s\n", "benchmark", "runs", "min", "median", "max")
	for _, m := range order {
		s := samples[m]
		slices.Sort(s)
		med := s[len(s)/2]
		if len(s)%2 == 0 {
			med = (s[len(s)/2-1] + s[len(s)/2]) / 2
		}
		label := strings.TrimPrefix(m.bench, "Benchmark")
		show := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
		if m.unit == "ns/op" {
			show = func(ns float64) string { return time.Duration(ns).Round(100 * time.Millisecond).String() }
		} else {
			label += " (" + m.unit + ")"
		}
		fmt.Fprintf(&b, "%-40s %5d %10s %10s %10s\n", label, len(s), show(s[0]), show(med), show(s[len(s)-1]))
	}
	return b.String(), nil
}
