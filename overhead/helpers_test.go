package overhead

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
)

// Plain tests of the helpers (no MPI): names, the -bench filter, the tools
// list, the calibration and the callgrind arithmetic.

func TestNamesRoundTrip(t *testing.T) {
	for _, k := range []Key{{Impl: "mpich-tools", Call: "Comm_rank", Tools: "4"}, {Impl: "x-2", Call: "Barrier", Tools: PMPI}, {Call: "indirect"}} {
		for _, suffix := range []string{"", "-2", "-16"} {
			got, err := ParseName(k.Name() + suffix)
			if err != nil || got != k {
				t.Errorf("ParseName(%q) = %+v, %v; want %+v", k.Name()+suffix, got, err, k)
			}
		}
	}
	if k := (Key{Impl: "mpich-tools", Call: "Comm_rank", Tools: "4"}); k.Name() != "BenchmarkOverhead/impl=mpich-tools/call=Comm_rank/tools=4" {
		t.Errorf("Name = %s", k.Name())
	}
	for _, bad := range []string{"BenchmarkOverhead/impl=x/call=y", "BenchmarkOther/call=x", "BenchmarkOverhead/impl=x/call=/tools=1"} {
		if _, err := ParseName(bad); err == nil {
			t.Errorf("ParseName(%q) gave no error", bad)
		}
	}
}

func TestToolsOrder(t *testing.T) {
	got := []string{PMPI, "32", "0", "4", "16", "1"}
	slices.SortFunc(got, ToolsOrder)
	if want := []string{"0", "1", "4", "16", "32", PMPI}; !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

func TestParseTools(t *testing.T) {
	got, err := ParseTools(" 0,1, 04,pmpi,1")
	if err != nil || !slices.Equal(got, []string{"0", "1", "4", PMPI}) {
		t.Errorf("ParseTools = %v, %v", got, err)
	}
	for _, bad := range []string{"", "x", "-1", "1,,qmpi"} {
		if _, err := ParseTools(bad); err == nil {
			t.Errorf("ParseTools(%q) gave no error", bad)
		}
	}
}

func TestFilter(t *testing.T) {
	cases := []struct {
		pattern string
		levels  []string
		want    bool
	}{
		{"", []string{OverheadBench, "impl=a", "call=Comm_rank", "tools=0"}, true},
		{".", []string{FloorBench, "call=loop"}, true},
		{"Overhead", []string{FloorBench, "call=loop"}, false},
		{"Overhead/impl=mpich-tools/", []string{OverheadBench, "impl=mpich-tools", "call=Wtime", "tools=1"}, true},
		{"Overhead/impl=mpich-tools", []string{OverheadBench, "impl=mpich-deb", "call=Wtime", "tools=0"}, false},
		{"Overhead//call=(Comm_rank|Barrier)/tools=[01]$", []string{OverheadBench, "impl=x", "call=Barrier", "tools=1"}, true},
		{"Overhead//call=(Comm_rank|Barrier)/tools=[01]$", []string{OverheadBench, "impl=x", "call=Barrier", "tools=16"}, false},
		{"Overhead/.*/.*/tools=pmpi", []string{OverheadBench, "impl=x", "call=Barrier", "tools=0"}, false},
	}
	for _, c := range cases {
		f, err := NewFilter(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(c.levels...); got != c.want {
			t.Errorf("-bench %q on %v: %v, want %v", c.pattern, c.levels, got, c.want)
		}
	}
	if _, err := NewFilter("a/("); err == nil {
		t.Error("a bad pattern gave no error")
	}
}

func TestNextCount(t *testing.T) {
	cases := []struct {
		n         int64
		secs, min float64
		want      int64
	}{
		{1000, 0.1, 0.2, 2100}, // twice as many at the same speed, 5 % margin
		{1000, 0.4, 0.2, 525},
		{0, 0.1, 0.2, 0}, // no sample yet: the fixture calibrates
		{1, 10, 0.2, 1},
	}
	for _, c := range cases {
		if got := NextCount(c.n, c.secs, c.min); got != c.want {
			t.Errorf("NextCount(%d, %g, %g) = %d, want %d", c.n, c.secs, c.min, got, c.want)
		}
	}
}

func TestCallgrindDumps(t *testing.T) {
	dumps, err := ReadDumps("testdata/callgrind")
	if err != nil {
		t.Fatal(err)
	}
	if len(dumps) != 3 || dumps[2] != 63028 || dumps[3] != 189024 {
		t.Fatalf("dumps = %v (the termination dump must be left out)", dumps)
	}
	marks := []Mark{{1, "Comm_rank", "warmup", 16}, {2, "Comm_rank", "n1", 1000}, {3, "Comm_rank", "n2", 3000}}
	per, err := PerIteration(marks, dumps)
	if err != nil {
		t.Fatal(err)
	}
	if v := per["Comm_rank"]; math.Abs(v-62.998) > 1e-9 {
		t.Errorf("Comm_rank: %g instructions per call, want (189024-63028)/2000 = 62.998", v)
	}
	if _, err := PerIteration(append(marks, Mark{4, "Barrier", "n1", 1000}), dumps); err == nil {
		t.Error("a mark without its dump gave no error")
	}
	if _, err := ReadDumps(t.TempDir()); err == nil {
		t.Error("a folder without dumps gave no error")
	}
}

func TestBuildError(t *testing.T) {
	in := "build bench_qmpi_pass exited with status 1: /var/cache/mpits/fixtures/openmpi-deb/bench_qmpi_pass-9c5287ffe2db3fb2/src/bench/tool_qmpi_pass.c:39:22: error: unknown type name 'QMPI_Context'\nmpicc ..."
	want := "build bench_qmpi_pass exited with status 1: bench/tool_qmpi_pass.c:39:22: error: unknown type name 'QMPI_Context'"
	if got := buildError(in); got != want {
		t.Errorf("buildError = %q, want %q", got, want)
	}
}

func TestParseCPUList(t *testing.T) {
	if got := parseCPUList("0-3,6,8-9"); !slices.Equal(got, []int{0, 1, 2, 3, 6, 8, 9}) {
		t.Errorf("parseCPUList = %v", got)
	}
	for _, bad := range []string{"", "x", "3-1", "1,,2"} {
		if got := parseCPUList(bad); got != nil {
			t.Errorf("parseCPUList(%q) = %v, want nil", bad, got)
		}
	}
	if len(allowedCPUs()) == 0 {
		t.Error("no CPU allowed")
	}
}

// TestCallgrindProfile reads real dumps of bench count Comm_rank 1000 3000
// on mpich-tools (no tool, and 8 instances of tool_qmpi_pass.c) function by
// function: the self counts add up to the totals, the unnamed stub is named
// after its callee, and the instances' recursion levels are merged.
func TestCallgrindProfile(t *testing.T) {
	marks := []Mark{{1, "Comm_rank", "warmup", 16}, {2, "Comm_rank", "n1", 1000}, {3, "Comm_rank", "n2", 3000}}
	cases := []struct {
		dir   string
		total float64
		want  map[string][2]float64 // function → self, calls per iteration
	}{
		{"testdata/profile/tools0", 62.998, map[string][2]float64{
			"QMPI_Comm_rank": {46, 1}, "PMPI_Comm_rank": {9, 1}, "run_comm_rank": {7, 0}, "PLT stub → QMPI_Comm_rank": {1, 1}}},
		{"testdata/profile/tools8", 446.998, map[string][2]float64{
			"comm_rank": {256, 8}, "QMPI_Get_function": {124, 8}, "QMPI_Comm_rank": {46, 1}, "PMPI_Comm_rank": {14, 1}, "run_comm_rank": {7, 0}}},
	}
	for _, c := range cases {
		totals, err := ReadDumps(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		per, err := PerIteration(marks, totals)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(per["Comm_rank"]-c.total) > 1e-9 {
			t.Errorf("%s: total %g, want %g", c.dir, per["Comm_rank"], c.total)
		}
		dumps, err := ReadProfiles(c.dir, func(part int) bool { return part != 1 })
		if err != nil {
			t.Fatal(err)
		}
		funcs, err := PerIterationProfile(marks, dumps, []string{"Comm_rank"})
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		got := map[string][2]float64{}
		for _, f := range funcs["Comm_rank"] {
			sum += f.Self
			if math.Abs(f.Self) >= 0.05 {
				got[f.Func] = [2]float64{f.Self, f.Calls}
			}
			if strings.Contains(f.Func, "'") || strings.HasPrefix(f.Func, "0x") {
				t.Errorf("%s: function %q keeps a recursion suffix or an address", c.dir, f.Func)
			}
		}
		if math.Abs(sum-c.total) > 1e-6 {
			t.Errorf("%s: the self counts add up to %g, the total is %g", c.dir, sum, c.total)
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: functions %v, want %v", c.dir, got, c.want)
		}
	}
	if _, err := PerIterationProfile(marks[:2], map[int]*dumpProfile{}, []string{"Comm_rank"}); err == nil {
		t.Error("a mark without its dump gave no error")
	}
}
