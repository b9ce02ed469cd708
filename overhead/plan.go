package overhead

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/settings"
)

// Settings say what a benchmark run measures. From the go test flags
// (-count, -short, -bench) and the environment (harness/settings/settings.go lists
// every setting):
//
//	MPITS_IMPLS                     the implementations (mpi.LoadImpls)
//	MPITS_OVERHEAD_TOOLS            tools values, default 0,1,2,4,8,16,32,pmpi (short: 0,1,8,pmpi)
//	MPITS_OVERHEAD_SAMPLE_SECONDS   the least time of one sample, default 0.2 (short: 0.02)
//	MPITS_OVERHEAD_CALLGRIND=0      no instruction counts
type Settings struct {
	Rounds        int      // samples of each key: go test -count
	SampleSeconds float64  // the least time of one sample
	Tools         []string // "0", "1", ..., "pmpi"
	Callgrind     bool
	Short         bool // go test -short: the twin implementations only (all if there are no twins), fewer tools, shorter samples
	Filter        Filter
}

// ReadSettings reads the environment; rounds, short and the -bench pattern
// come from the caller (the testing flags).
func ReadSettings(rounds int, short bool, bench string) (Settings, error) {
	s := Settings{Rounds: rounds, SampleSeconds: 0.2, Callgrind: true, Short: short,
		Tools: []string{"0", "1", "2", "4", "8", "16", "32", PMPI}}
	if short {
		s.SampleSeconds = 0.02
		s.Tools = []string{"0", "1", "8", PMPI}
	}
	if s.Rounds < 1 {
		s.Rounds = 1
	}
	if err := settings.CheckSettings(); err != nil {
		return s, err
	}
	if v := settings.Setting("MPITS_OVERHEAD_SAMPLE_SECONDS"); v.String() != "" {
		s.SampleSeconds = v.Float()
	}
	if v := settings.Setting("MPITS_OVERHEAD_TOOLS").String(); v != "" {
		tools, err := ParseTools(v)
		if err != nil {
			return s, fmt.Errorf("MPITS_OVERHEAD_TOOLS=%q: %v", v, err)
		}
		s.Tools = tools
	}
	switch settings.Setting("MPITS_OVERHEAD_CALLGRIND").String() {
	case "0", "off", "no":
		s.Callgrind = false
	}
	f, err := NewFilter(bench)
	if err != nil {
		return s, err
	}
	s.Filter = f
	return s, nil
}

// ParseTools reads a comma-separated list of instance counts and "pmpi".
func ParseTools(v string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, t := range strings.Split(v, ",") {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if t != PMPI {
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n > 255 {
				return nil, fmt.Errorf("%q is neither a number of QMPI instances (0..255) nor %q", t, PMPI)
			}
			t = strconv.Itoa(n)
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no tools value")
	}
	return out, nil
}

// Filter is go test's -bench pattern, split at the slashes as the testing
// package splits it: element i matches level i of a benchmark name.
// Configurations no benchmark name matches are not measured.
type Filter []*regexp.Regexp

// NewFilter compiles a -bench pattern.
func NewFilter(pattern string) (Filter, error) {
	var f Filter
	for _, p := range splitPattern(pattern) {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("-bench %q: %v", pattern, err)
		}
		f = append(f, re)
	}
	return f, nil
}

// Match reports whether the levels of a name (e.g. "BenchmarkOverhead",
// "impl=x", "call=y", "tools=0") could run under the pattern.
func (f Filter) Match(levels ...string) bool {
	for i, l := range levels {
		if i < len(f) && !f[i].MatchString(l) {
			return false
		}
	}
	return true
}

// splitPattern splits at slashes outside brackets and parentheses, as
// testing does.
func splitPattern(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '\\':
			i++
		case '/':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
