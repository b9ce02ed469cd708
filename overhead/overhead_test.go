package overhead

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestMain makes each benchmark iteration one sample: unless -benchtime is
// given, it is 1x, so a leaf benchmark's function runs once a -count.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.benchtime" })
	if !set {
		_ = flag.Set("test.benchtime", "1x")
	} else if v := flag.Lookup("test.benchtime").Value.String(); v != "1x" && testing.Verbose() {
		fmt.Fprintf(os.Stderr, "# overhead: -benchtime=%s only spins empty loops: each result line is one sample taken before (-count sets how many)\n", v)
	}
	os.Exit(m.Run())
}

var (
	measureOnce sync.Once
	measured    *Results
	measureErr  error
	next        = map[Key]int{} // the sample each key reports next
)

// results measures everything the flags select, once for both benchmarks,
// and prints the notes (implementations, what could not be measured).
func results() (*Results, error) {
	measureOnce.Do(func() {
		count := 1
		if f := flag.Lookup("test.count"); f != nil {
			if n, err := strconv.Atoi(f.Value.String()); err == nil {
				count = n
			}
		}
		bench := ""
		if f := flag.Lookup("test.bench"); f != nil {
			bench = f.Value.String()
		}
		s, err := ReadSettings(count, testing.Short(), bench)
		if err != nil {
			measureErr = err
			return
		}
		measured, measureErr = Run(s, os.Stdout)
		if measureErr != nil {
			return
		}
		for _, n := range measured.Notes {
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(n)
			fmt.Print(NoteTag + b.String())
		}
		for _, k := range measured.Keys {
			if p, ok := measured.Profile[k]; ok {
				var b strings.Builder
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				_ = enc.Encode(p)
				fmt.Print(ProfileTag + b.String())
			}
		}
	})
	return measured, measureErr
}

// BenchmarkOverhead reports ns/call (and instrs/call where callgrind ran)
// for each implementation, call kind and tool setting.
func BenchmarkOverhead(b *testing.B) { report(b, OverheadBench) }

// BenchmarkFloor reports the same for an empty loop, a direct and an
// indirect call: the floor the per-tool cost is compared with.
func BenchmarkFloor(b *testing.B) { report(b, FloorBench) }

func report(b *testing.B, top string) {
	res, err := results()
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range res.Keys {
		if (k.Impl == "") != (top == FloorBench) {
			continue
		}
		b.Run(k.Sub(), func(b *testing.B) { reportSample(b, res, k) })
	}
	// Problems fail the run after every sample was printed: a job that broke
	// is an error, whatever the times. Times never fail it.
	for _, k := range res.Keys {
		if (k.Impl == "") == (top == FloorBench) && len(res.Errors[k]) > 0 {
			b.Errorf("%s: %d problem(s), the first: %s", k.Sub(), len(res.Errors[k]), res.Errors[k][0])
		}
	}
	for _, n := range res.Notes {
		if n.Kind == "error" && (n.Tools == "floor") == (top == FloorBench) {
			b.Errorf("%s %s: %s", n.Impl, n.Tools, n.Reason)
		}
	}
}

// reportSample reports the next sample of k. The work was done before: the
// loop over b.N is empty.
func reportSample(b *testing.B, res *Results, k Key) {
	for range b.N {
	}
	if b.N == 1 { // each -count starts with b.N = 1 (later b.N only with an explicit -benchtime)
		next[k]++
	}
	i, v := next[k]-1, res.Samples[k]
	if i >= len(v) {
		b.Fatalf("no sample %d of %s (%d taken)", i+1, k.Sub(), len(v))
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(v[i], UnitNs)
	if n, ok := res.Instrs[k]; ok {
		b.ReportMetric(n, UnitInstrs)
	}
}
