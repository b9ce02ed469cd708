package main

import (
	"strings"
	"testing"
)

func TestBenchSummaryEveryUnit(t *testing.T) {
	in := `goos: linux
BenchmarkFullRun/all	1	86000000000 ns/op	157.4 cpu-s/op
BenchmarkFullRun/all	1	84000000000 ns/op	150.0 cpu-s/op
BenchmarkFullRun/all	1	90000000000 ns/op	160.2 cpu-s/op
BenchmarkVendorRun/mpich-tools	1	9200000000 ns/op
`
	got, err := benchSummary(strings.NewReader(in), "bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"FullRun/all                                  3      1m24s      1m26s      1m30s",
		"FullRun/all (cpu-s/op)                       3      150.0      157.4      160.2",
		"VendorRun/mpich-tools                        1       9.2s       9.2s       9.2s",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if _, err := benchSummary(strings.NewReader("BenchmarkX 1 abc ns/op\n"), "bench.txt"); err == nil || !strings.Contains(err.Error(), "bench.txt") {
		t.Errorf("a bad value: got %v, want an error naming the file", err)
	}
}
