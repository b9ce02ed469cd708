package overhead

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Per-function instruction counts: the same callgrind dumps as the totals
// (count.go), read function by function. Dump k holds, for every function
// that ran in the loop before mark k, its self cost (the instructions of
// the function itself) and the cost of each call it made (inclusive of the
// callee). (f(N2) - f(N1)) / (N2 - N1) is then one iteration's share of
// function f; the self shares of all functions add up to the total exactly,
// since callgrind's totals are the sum of the self costs.

// ProfileCalls are the call kinds whose per-function counts the benchmarks
// report (one "profile" line a configuration and call kind).
var ProfileCalls = []string{"Comm_rank"}

// ProfileTag starts a profile line of the benchmark output: one JSON
// Profile. benchstat ignores it; mpits overhead reads it.
const ProfileTag = "# mpits-overhead-profile: "

// FuncCost is one function's share of an iteration of a call kind.
type FuncCost struct {
	Object string  `json:"object"` // file name of the ELF object ("" if callgrind knew none)
	Func   string  `json:"func"`   // symbol; an unnamed PLT stub is "PLT stub → CALLEE"
	Self   float64 `json:"self"`   // instructions executed in the function itself, per iteration
	Incl   float64 `json:"incl"`   // self plus its callees, counted on calls from other functions, per iteration
	Calls  float64 `json:"calls"`  // calls of the function per iteration (from any caller)
}

// Profile is the per-function split of one call kind in one configuration.
type Profile struct {
	Impl   string     `json:"impl"`
	Call   string     `json:"call"`
	Tools  string     `json:"tools"`
	Instrs float64    `json:"instrs"` // the instrs/call of the same dumps: the sum of Self
	Funcs  []FuncCost `json:"funcs"`  // by Self, largest first
}

// funcKey names a function across dumps and builds: the object's file name
// and the symbol without callgrind's recursion suffix ('2, '3, ...).
type funcKey struct{ obj, fn string }

// dumpProfile is one dump read function by function.
type dumpProfile struct {
	self, incl, calls map[funcKey]float64
	total             float64
}

// ReadProfiles reads the callgrind dumps in dir into part number →
// per-function costs, like ReadDumps; only the parts want accepts (nil: all).
func ReadProfiles(dir string, want func(part int) bool) (map[int]*dumpProfile, error) {
	files, err := filepath.Glob(filepath.Join(dir, "callgrind.out.*"))
	if err != nil {
		return nil, err
	}
	out := map[int]*dumpProfile{}
	for _, f := range files {
		part, p, trigger, err := readProfile(f, want)
		if err != nil {
			return nil, err
		}
		if p == nil || !strings.Contains(trigger, "dump-after") {
			continue // not wanted, or the dump at program termination
		}
		if _, dup := out[part]; dup {
			return nil, fmt.Errorf("%s: part %d appears twice (more than one process was counted)", dir, part)
		}
		out[part] = p
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no callgrind dump (callgrind.out.*.N) in %s", dir)
	}
	return out, nil
}

var recSuffix = regexp.MustCompile(`'[0-9]+$`)

// readProfile parses one file of the callgrind format
// (https://valgrind.org/docs/manual/cl-format.html) with name compression
// and one event (Ir). Position columns are skipped whatever their number.
func readProfile(path string, want func(int) bool) (part int, p *dumpProfile, trigger string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, "", err
	}
	defer f.Close()
	p = &dumpProfile{self: map[funcKey]float64{}, incl: map[funcKey]float64{}, calls: map[funcKey]float64{}}
	// name compression: "(id) name" defines, "(id)" refers; ids are per kind
	names := map[string]map[string]string{}
	name := func(kind, v string) string {
		v = strings.TrimSpace(v)
		if names[kind] == nil {
			names[kind] = map[string]string{}
		}
		if strings.HasPrefix(v, "(") {
			if i := strings.IndexByte(v, ')'); i > 0 {
				id, rest := v[:i+1], strings.TrimSpace(v[i+1:])
				if rest != "" {
					names[kind][id] = rest
					return rest
				}
				return names[kind][id]
			}
		}
		return v
	}
	npos := 1
	var ob, fn, cob, cfn string
	var curFn funcKey
	pendingCall := false // the next cost line is a call's inclusive cost
	var callee funcKey
	var callCount float64
	havePart := false
	// stubs: unnamed functions and their largest callee, named after parsing
	stubCallee := map[funcKey]funcKey{}
	stubCost := map[funcKey]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	key := func(obj, fn string) funcKey {
		return funcKey{obj: filepath.Base(obj), fn: recSuffix.ReplaceAllString(fn, "")}
	}
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		c := line[0]
		if (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*' {
			fields := strings.Fields(line)
			if len(fields) <= npos {
				continue // a position without cost
			}
			v, perr := strconv.ParseFloat(fields[npos], 64)
			if perr != nil {
				return 0, nil, "", fmt.Errorf("%s: cost line %q: %v", path, line, perr)
			}
			if pendingCall {
				pendingCall = false
				p.calls[callee] += callCount
				if callee != curFn {
					p.incl[callee] += v
				}
				if strings.HasPrefix(curFn.fn, "0x") {
					if v > stubCost[curFn] {
						stubCost[curFn], stubCallee[curFn] = v, callee
					}
				}
				continue
			}
			p.self[curFn] += v
			p.total += v
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.Contains(k, ":") {
			switch {
			case strings.HasPrefix(line, "part:"):
				part, err = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "part:")))
				havePart = err == nil
				if havePart && want != nil && !want(part) {
					return part, nil, trigger, nil // the rest is not read
				}
			case strings.HasPrefix(line, "desc: Trigger:"):
				trigger = strings.TrimSpace(strings.TrimPrefix(line, "desc: Trigger:"))
			case strings.HasPrefix(line, "positions:"):
				npos = len(strings.Fields(strings.TrimPrefix(line, "positions:")))
			case strings.HasPrefix(line, "events:"):
				if n := len(strings.Fields(strings.TrimPrefix(line, "events:"))); n < 1 {
					return 0, nil, "", fmt.Errorf("%s: no event", path)
				}
			}
			continue
		}
		switch k {
		case "ob":
			ob = name("ob", v)
		case "fl", "fi", "fe":
			name("fl", v)
		case "fn":
			fn = name("fn", v)
			curFn = key(ob, fn)
			cob = ""
		case "cob":
			cob = name("ob", v)
		case "cfi", "cfl":
			name("fl", v)
		case "cfn":
			cfn = name("fn", v)
		case "calls":
			n, _ := strconv.ParseFloat(strings.Fields(v)[0], 64)
			o := cob
			if o == "" {
				o = ob
			}
			callee, callCount, pendingCall = key(o, cfn), n, true
			cob = ""
		}
	}
	if err := sc.Err(); err != nil {
		return 0, nil, "", fmt.Errorf("%s: %v", path, err)
	}
	if !havePart {
		return 0, nil, "", fmt.Errorf("%s: no part: line (not a callgrind dump?)", path)
	}
	// an unnamed function that calls on (a PLT stub that callgrind does not
	// recognize as one) is named after its callee, which is the same in
	// every build, unlike its address
	rename := map[funcKey]funcKey{}
	for stub, to := range stubCallee {
		rename[stub] = funcKey{obj: "", fn: "PLT stub → " + to.fn}
	}
	for _, m := range []map[funcKey]float64{p.self, p.incl, p.calls} {
		for from, to := range rename {
			if v, ok := m[from]; ok {
				delete(m, from)
				m[to] += v
			}
		}
	}
	return part, p, trigger, nil
}

// PerIterationProfile turns the marks and the per-function dumps into one
// iteration's share of each function, for the call kinds asked.
func PerIterationProfile(marks []Mark, dumps map[int]*dumpProfile, calls []string) (map[string][]FuncCost, error) {
	want := map[string]bool{}
	for _, c := range calls {
		want[c] = true
	}
	byCall, _, err := pairLoops(marks, dumps, want)
	if err != nil {
		return nil, err
	}
	out := map[string][]FuncCost{}
	for c, p := range byCall {
		dn := float64(p.n2 - p.n1)
		keys := map[funcKey]bool{}
		for _, d := range []*dumpProfile{p.d1, p.d2} {
			for _, m := range []map[funcKey]float64{d.self, d.incl, d.calls} {
				for k := range m {
					keys[k] = true
				}
			}
		}
		var fs []FuncCost
		for k := range keys {
			fc := FuncCost{Object: k.obj, Func: k.fn,
				Self:  round4((p.d2.self[k] - p.d1.self[k]) / dn),
				Incl:  round4((p.d2.incl[k] - p.d1.incl[k]) / dn),
				Calls: round4((p.d2.calls[k] - p.d1.calls[k]) / dn)}
			if math.Abs(fc.Self) < 1e-9 && math.Abs(fc.Calls) < 1e-9 {
				continue // no instruction and no call of its own in the loop (a caller of it, or not in it)
			}
			fs = append(fs, fc)
		}
		SortFuncs(fs)
		out[c] = fs
	}
	return out, nil
}

// SortFuncs orders by self cost, largest first, then by name.
func SortFuncs(fs []FuncCost) {
	sort.Slice(fs, func(i, j int) bool {
		if a, b := math.Round(fs[i].Self*100), math.Round(fs[j].Self*100); a != b {
			return a > b
		}
		if fs[i].Func != fs[j].Func {
			return fs[i].Func < fs[j].Func
		}
		return fs[i].Object < fs[j].Object
	})
}

// round4 keeps 4 decimals: (N2 - N1) is 2000, so the counts per iteration
// are multiples of 0.0005 and lose nothing.
func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
