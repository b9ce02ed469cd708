package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// cmdBenchSum prints, for each benchmark of a Go benchmark file, its
// minimum, median and maximum ns/op over its runs, as durations (ci/speed).
func cmdBenchSum(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: mpits benchsum BENCH.txt (Go benchmark format)")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	samples := map[string][]float64{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") || fields[3] != "ns/op" {
			continue
		}
		v, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			return fmt.Errorf("%s: %q: %v", args[0], sc.Text(), err)
		}
		if _, ok := samples[fields[0]]; !ok {
			order = append(order, fields[0])
		}
		samples[fields[0]] = append(samples[fields[0]], v)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("%s: no benchmark line with ns/op", args[0])
	}
	fmt.Printf("%-40s %5s %10s %10s %10s\n", "benchmark", "runs", "min", "median", "max")
	for _, name := range order {
		s := samples[name]
		slices.Sort(s)
		med := s[len(s)/2]
		if len(s)%2 == 0 {
			med = (s[len(s)/2-1] + s[len(s)/2]) / 2
		}
		d := func(ns float64) string { return time.Duration(ns).Round(100 * time.Millisecond).String() }
		fmt.Printf("%-40s %5d %10s %10s %10s\n", strings.TrimPrefix(name, "Benchmark"), len(s), d(s[0]), d(med), d(s[len(s)-1]))
	}
	return nil
}
