package harness

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// FuzzCorpus fuzzes the judges of the suites on the corpus in dir: an input
// picks a verdict of the corpus and a program of mutations, which is run on
// the records of one job that verdict's judge used (missing fields, empty
// lists, one rank instead of two, huge and negative values, unknown enums,
// truncated strings, lost or repeated lines, another exit). Whatever the
// records, a judge must end in a verdict: one that breaks (a panic that is
// no verdict) fails the input, which go test keeps in testdata/fuzz.
func FuzzCorpus(f *testing.F, dir string, suites ...*Suite) {
	c, err := LoadCorpus(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { mpi.Replaying.Store(false) })
	rules := RulesByID(suites...)
	// The verdicts whose judges used the tape, with the jobs they used.
	type cell struct {
		rule rulebook.Rule
		impl string
		keys []string
	}
	var cells []cell
	for _, v := range c.Verdicts {
		r, ok := rules[v.ID]
		if !ok {
			continue
		}
		t := c.Tape.Fresh()
		c.Replay(r, v.Impl, t)
		var keys []string
		for _, k := range dedup(t.Used(v.Impl)) {
			if c.Tape.Entry(v.Impl, k) != nil { // not a job the judge looked for in vain
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			cells = append(cells, cell{r, v.Impl, keys})
		}
	}
	if len(cells) == 0 {
		f.Skip("no judge of these suites used the corpus's tape")
	}
	// An input names its verdict by rule and implementation, so that a kept
	// crasher (testdata/fuzz) means the same once the corpus is made anew;
	// names of no verdict pick one by their hash.
	byName := map[string]int{}
	for i, cl := range cells {
		byName[cl.rule.ID+"\x00"+cl.impl] = i
	}
	for i := range min(len(cells), 64) {
		cl := cells[i*len(cells)/min(len(cells), 64)]
		f.Add(cl.rule.ID, cl.impl, []byte{0, byte(i), byte(i * 7), byte(i * 13)})
	}
	f.Fuzz(func(t *testing.T, rule, impl string, prog []byte) {
		i, ok := byName[rule+"\x00"+impl]
		if !ok {
			h := fnv.New32a()
			h.Write([]byte(rule + "\x00" + impl))
			i = int(h.Sum32() % uint32(len(cells)))
		}
		cl := cells[i]
		k := 0
		if len(prog) > 0 {
			k, prog = int(prog[0])%len(cl.keys), prog[1:]
		}
		e := c.Tape.Entry(cl.impl, cl.keys[k])
		if e == nil {
			return
		}
		m := Mutate(e, prog)
		v := c.Replay(cl.rule, cl.impl, c.Tape.With(m))
		if IsBroke(v) {
			t.Fatalf("%s on %s broke on mutated records of %s: %s\n%s", cl.rule.ID, cl.impl, e.Name, v.Reason, v.Evidence)
		}
	})
}

func dedup(keys []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Mutate is a copy of e changed by prog, read a byte at a time: an
// operation, then its operands.
func Mutate(e *rulebook.TapeEntry, prog []byte) *rulebook.TapeEntry {
	m := *e
	m.Records = make([][]string, len(e.Records))
	for i, r := range e.Records {
		if r != nil {
			m.Records[i] = append([]string{}, r...)
		}
	}
	next := func() int {
		if len(prog) == 0 {
			return 0
		}
		b := prog[0]
		prog = prog[1:]
		return int(b)
	}
	for len(prog) > 0 {
		op := next() % 9
		switch op {
		case 0: // a line lost
			if rank, i, ok := pickLine(&m, next(), next()); ok {
				m.Records[rank] = append(m.Records[rank][:i], m.Records[rank][i+1:]...)
			}
		case 1: // a rank lost, or all but the first
			if len(m.Records) > 1 && next()%2 == 0 {
				m.Records = m.Records[:1]
			} else if len(m.Records) > 0 {
				m.Records[next()%len(m.Records)] = nil
			}
		case 2: // a line repeated
			if rank, i, ok := pickLine(&m, next(), next()); ok {
				l := m.Records[rank][i]
				m.Records[rank] = append(m.Records[rank][:i+1], append([]string{l}, m.Records[rank][i+1:]...)...)
			}
		case 3, 4, 5, 6: // a field changed or removed
			if rank, i, ok := pickLine(&m, next(), next()); ok {
				m.Records[rank][i] = mutateRecord(m.Records[rank][i], op, next(), next())
			}
		case 7: // another end
			switch next() % 4 {
			case 0:
				m.ExitCode = 1
			case 1:
				m.ExitCode, m.Signal = -1, "SIGSEGV"
			case 2:
				m.TimedOut = true
			case 3:
				m.ExitCode, m.Signal, m.TimedOut = 0, "", false
			}
		case 8: // a line cut short
			if rank, i, ok := pickLine(&m, next(), next()); ok {
				l := m.Records[rank][i]
				m.Records[rank][i] = l[:next()%(len(l)+1)]
			}
		}
	}
	return &m
}

func pickLine(m *rulebook.TapeEntry, a, b int) (rank, i int, ok bool) {
	if len(m.Records) == 0 {
		return 0, 0, false
	}
	rank = a % len(m.Records)
	if len(m.Records[rank]) == 0 {
		return 0, 0, false
	}
	return rank, b % len(m.Records[rank]), true
}

// Values a field may take that no implementation here gave.
var (
	oddNumbers = []any{0, -1, 1 << 62, -(1 << 62), 2147483648, 1e300, 0.5}
	oddStrings = []any{"", "MPITS_UNKNOWN_ENUM", "x", strings.Repeat("é", 300)}
)

// mutateRecord changes one field (not "kind") of a JSON record: op 3
// removes it, 4 gives it an odd number, 5 an odd string, 6 an empty or
// one-element list, or null.
func mutateRecord(line string, op, field, value int) string {
	var rec map[string]any
	if json.Unmarshal([]byte(line), &rec) != nil {
		return line
	}
	var keys []string
	for k := range rec {
		if k != "kind" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return line
	}
	sort.Strings(keys)
	k := keys[field%len(keys)]
	switch op {
	case 3:
		delete(rec, k)
	case 4:
		rec[k] = oddNumbers[value%len(oddNumbers)]
	case 5:
		if s, ok := rec[k].(string); ok && value%2 == 1 {
			rec[k] = s[:len(s)/2]
		} else {
			rec[k] = oddStrings[value%len(oddStrings)]
		}
	case 6:
		switch l, _ := rec[k].([]any); {
		case value%3 == 0:
			rec[k] = []any{}
		case value%3 == 1 && len(l) > 0:
			rec[k] = l[:1]
		default:
			rec[k] = nil
		}
	}
	out, err := json.Marshal(rec)
	if err != nil {
		return line
	}
	return string(out)
}

// TestCorpus replays the corpus in dir on the suites' judges: every
// verdict must be the run's (or not replayable, for a judge that needs
// more than records), no judge may break, and every rule must have its
// verdicts in the corpus (else it is out of date).
func TestCorpus(t *testing.T, dir string, suites ...*Suite) {
	c, err := LoadCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mpi.Replaying.Store(false) })
	o := c.ReplayAll(suites...)
	t.Logf("%d verdicts replayed as the run gave them, %d not replayable from records alone, %d differ, %d broke",
		o.Same, len(o.NotReplayed), len(o.Differ), len(o.Broke))
	for _, s := range o.NotReplayed {
		t.Logf("not replayable: %s", s)
	}
	for _, list := range []struct {
		what  string
		items []string
	}{{"broke", o.Broke}, {"differs", o.Differ}, {"out of date", o.Unknown}} {
		for _, s := range list.items {
			t.Errorf("%s: %s", list.what, s)
		}
	}
	if o.Same == 0 {
		t.Errorf("no verdict of the corpus was replayed: %s", fmt.Sprint(len(c.Verdicts)))
	}
}
