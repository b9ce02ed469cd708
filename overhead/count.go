package overhead

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Instruction counts: the fixtures run each call kind N1 and N2 times, each
// loop followed by a call of mpits_bench_mark, under
// valgrind --tool=callgrind --dump-after=mpits_bench_mark. Every dump holds
// the instructions since the previous one, so dump k is the loop before mark
// k, and (I(N2) - I(N1)) / (N2 - N1) is the instructions of one iteration,
// with the loop's entry, the marker and any start-up cost cancelled.

// CountLoops are N1 and N2.
const (
	CountN1 = 1000
	CountN2 = 3000
)

// Mark is a "mark" record: which loop preceded dump Seq.
type Mark struct {
	Seq   int    `json:"seq"`
	Call  string `json:"call"`
	Phase string `json:"phase"` // warmup, n1, n2
	N     int64  `json:"n"`
}

// ReadDumps reads the callgrind dumps in dir (callgrind.out.PID.PART) into
// part number → instructions (the "totals:" line).
func ReadDumps(dir string) (map[int]float64, error) {
	files, err := filepath.Glob(filepath.Join(dir, "callgrind.out.*"))
	if err != nil {
		return nil, err
	}
	parts := map[int]float64{}
	for _, f := range files {
		part, total, trigger, err := readDump(f)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(trigger, "dump-after") {
			continue // the dump at program termination
		}
		if _, dup := parts[part]; dup {
			return nil, fmt.Errorf("%s: part %d appears twice (more than one process was counted)", dir, part)
		}
		parts[part] = total
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("no callgrind dump (callgrind.out.*.N) in %s", dir)
	}
	return parts, nil
}

func readDump(path string) (part int, total float64, trigger string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	havePart, haveTotal := false, false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "part:"):
			part, err = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "part:")))
			havePart = err == nil
		case strings.HasPrefix(line, "desc: Trigger:"):
			trigger = strings.TrimSpace(strings.TrimPrefix(line, "desc: Trigger:"))
		case strings.HasPrefix(line, "totals:"), strings.HasPrefix(line, "summary:"):
			fields := strings.Fields(line)
			if len(fields) >= 2 {
				total, err = strconv.ParseFloat(fields[1], 64)
				haveTotal = err == nil
			}
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, "", fmt.Errorf("%s: %v", path, err)
	}
	if !havePart || !haveTotal {
		return 0, 0, "", fmt.Errorf("%s: no part: or totals: line (not a callgrind dump?)", path)
	}
	return part, total, trigger, nil
}

// loopPair is one call kind's two loops: their lengths and what was
// measured after each (a dump's total, or its functions).
type loopPair[T any] struct {
	n1, n2 int64
	d1, d2 T
	have   int
}

// pairLoops matches each call kind's n1 and n2 marks with their dumps, in
// the order the call kinds first appear; calls selects the kinds (nil: all).
func pairLoops[T any](marks []Mark, dumps map[int]T, calls map[string]bool) (map[string]*loopPair[T], []string, error) {
	byCall := map[string]*loopPair[T]{}
	var order []string
	for _, m := range marks {
		if (calls != nil && !calls[m.Call]) || (m.Phase != "n1" && m.Phase != "n2") {
			continue
		}
		d, ok := dumps[m.Seq]
		if !ok {
			return nil, nil, fmt.Errorf("no callgrind dump %d for %s %s", m.Seq, m.Call, m.Phase)
		}
		p := byCall[m.Call]
		if p == nil {
			p = &loopPair[T]{}
			byCall[m.Call] = p
			order = append(order, m.Call)
		}
		if m.Phase == "n1" {
			p.n1, p.d1 = m.N, d
		} else {
			p.n2, p.d2 = m.N, d
		}
		p.have++
	}
	for _, c := range order {
		if p := byCall[c]; p.have != 2 || p.n2 == p.n1 {
			return nil, nil, fmt.Errorf("%s: need an n1 and an n2 loop of different lengths, have n1=%d n2=%d (%d marks)", c, p.n1, p.n2, p.have)
		}
	}
	return byCall, order, nil
}

// PerIteration turns the marks and the dumps into instructions per
// iteration of each call kind.
func PerIteration(marks []Mark, dumps map[int]float64) (map[string]float64, error) {
	byCall, order, err := pairLoops(marks, dumps, nil)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, c := range order {
		p := byCall[c]
		out[c] = (p.d2 - p.d1) / float64(p.n2-p.n1)
	}
	return out, nil
}

// NextCount is the loop count for the next sample of a call kind whose last
// sample ran n iterations in seconds: enough for 5 % more than min seconds
// at the same speed (the fixture tops a sample up if it ends too early).
func NextCount(n int64, seconds, min float64) int64 {
	if n <= 0 || seconds <= 0 {
		return 0 // let the fixture calibrate
	}
	next := float64(n) * min * 1.05 / seconds
	if next < 1 {
		return 1
	}
	if next > 1e12 {
		return 1e12
	}
	return int64(next + 0.5)
}
