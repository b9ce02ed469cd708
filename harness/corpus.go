package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// A corpus is one real run kept small enough to commit: the implementations
// as probed, what became of each fixture, every conformance job's outcome
// (the tape) and every rule's verdict. Judges replayed on it must give the
// run's verdicts (TestCorpus), and must never break on its records mutated
// (FuzzCorpus). mpits corpus writes it from a run.

// Corpus files, in the corpus folder.
const (
	CorpusProbed   = "probed.json"   // []Probed: implementations and capabilities
	CorpusFixtures = "fixtures.json" // impl -> fixture -> Built
	CorpusVerdicts = "verdicts.json" // []CorpusVerdict
	CorpusTapeDir  = "tape"          // <impl>.jsonl.gz, one TapeEntry a line
)

// CorpusVerdict is one rule's verdict on one implementation in the run.
type CorpusVerdict struct {
	ID     string         `json:"id"`
	Impl   string         `json:"impl"`
	Status verdict.Status `json:"status"`
	// Judged and Exposed are a pass's counts (verdict.Exercise): a replay
	// whose judge counts otherwise differs from the run.
	Judged  int `json:"judged,omitempty"`
	Exposed int `json:"exposed,omitempty"`
}

// Corpus is a loaded corpus.
type Corpus struct {
	Probed   []mpi.Probed
	Fixtures map[string]map[string]mpi.Built
	Verdicts []CorpusVerdict
	Tape     *rulebook.Tape
}

// LoadCorpus reads a corpus folder.
func LoadCorpus(dir string) (*Corpus, error) {
	c := &Corpus{}
	for name, v := range map[string]any{CorpusProbed: &c.Probed, CorpusFixtures: &c.Fixtures, CorpusVerdicts: &c.Verdicts} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("corpus %s: %v: regenerate it (ci/corpus)", dir, err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return nil, fmt.Errorf("corpus %s: %s: %v", dir, name, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, CorpusTapeDir, "*.jsonl.gz"))
	var entries []*rulebook.TapeEntry
	for _, f := range files {
		e, err := rulebook.ReadTapeFile(f)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e...)
	}
	c.Tape = rulebook.NewTape(entries)
	return c, nil
}

// Envs are the run's implementations for one replay from tape t.
func (c *Corpus) Envs(t *rulebook.Tape) map[string]*rulebook.Env {
	envs := map[string]*rulebook.Env{}
	var all []*rulebook.Env
	for _, p := range c.Probed {
		im := *p.Impl
		im.Root = mpi.CorpusRoot
		caps := *p.Caps
		e := &rulebook.Env{Impl: &im, Caps: &caps, Fixtures: c.Fixtures[p.Impl.ID], Tape: t}
		envs[p.Impl.ID] = e
		all = append(all, e)
	}
	for _, e := range all {
		e.All = all
	}
	return envs
}

// Replay judges r on impl from tape t (the corpus's own when nil).
func (c *Corpus) Replay(r rulebook.Rule, impl string, t *rulebook.Tape) verdict.Verdict {
	v, _ := c.replay(r, impl, t)
	return v
}

// replay is Replay, also telling whether the judge looked at the
// implementation's files (a header, a library, valgrind in its root).
func (c *Corpus) replay(r rulebook.Rule, impl string, t *rulebook.Tape) (verdict.Verdict, bool) {
	if t == nil {
		t = c.Tape
	}
	mpi.Replaying.Store(true)
	mpi.Memos.ResetAll()
	mpi.ReadFiles.Store(false)
	e := c.Envs(t)[impl]
	if e == nil {
		return verdict.Verdict{Status: rulebook.NotReplayed, Reason: impl + " is not in the corpus"}, false
	}
	v := e.Evaluate(r, nil)
	return v, mpi.ReadFiles.Load()
}

// IsBroke tells a verdict of a judge that broke from every other.
func IsBroke(v verdict.Verdict) bool {
	return v.Status == verdict.Error && strings.HasPrefix(v.Reason, rulebook.BrokePrefix)
}

// RulesByID are the rules of the suites by id.
func RulesByID(suites ...*Suite) map[string]rulebook.Rule {
	out := map[string]rulebook.Rule{}
	for _, s := range suites {
		for _, c := range s.Checks {
			for _, r := range c.AllRules() {
				out[r.ID] = r
			}
		}
	}
	return out
}

// CorpusOutcome is what replaying a corpus gave.
type CorpusOutcome struct {
	Same        int      // verdicts equal to the run's
	NotReplayed []string // rule on impl: the judge needs more than records (a direct run, the implementation's files)
	Differ      []string // rule on impl: run's vs replay's verdict
	Broke       []string // rule on impl: the judge broke
	Unknown     []string // verdicts of rules no suite declares, rules with no verdict
}

// ReplayAll replays every verdict of the corpus whose rule the suites
// declare, and names every rule of theirs the corpus has no verdict of.
func (c *Corpus) ReplayAll(suites ...*Suite) CorpusOutcome {
	rules := RulesByID(suites...)
	var o CorpusOutcome
	seen := map[string]bool{}
	for _, cell := range c.Verdicts {
		r, ok := rules[cell.ID]
		seen[cell.ID] = true
		if !ok {
			continue // another suite's
		}
		v, files := c.replay(r, cell.Impl, nil)
		where := cell.ID + " on " + cell.Impl
		switch {
		case IsBroke(v):
			o.Broke = append(o.Broke, where+": "+v.Reason)
		case v.Status == cell.Status && v.Status == verdict.Pass && !sameCounts(cell, v):
			o.Differ = append(o.Differ, fmt.Sprintf("%s: the run's pass judged %d and exposed %d, the replay's %d and %d (%s)", where, cell.Judged, cell.Exposed, v.Exercised.Judged, v.Exercised.Exposed, verdict.FirstLine(v.Reason)))
		case v.Status == cell.Status:
			o.Same++
		case v.Status == rulebook.NotReplayed || files:
			o.NotReplayed = append(o.NotReplayed, fmt.Sprintf("%s (%s): %s", where, cell.Status, verdict.FirstLine(v.Reason)))
		default:
			o.Differ = append(o.Differ, fmt.Sprintf("%s: the run gave %s, the replay %s (%s)", where, cell.Status, v.Status, verdict.FirstLine(v.Reason)))
		}
	}
	var missing []string
	for id := range rules {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	for _, id := range missing {
		o.Unknown = append(o.Unknown, "rule "+id+" has no verdict in the corpus")
	}
	return o
}

// sameCounts says whether a replayed pass counts what the run's did; a
// corpus written before the counts were kept has none to compare.
func sameCounts(cell CorpusVerdict, v verdict.Verdict) bool {
	if cell.Judged == 0 && cell.Exposed == 0 {
		return true
	}
	return v.Exercised != nil && v.Exercised.Judged == cell.Judged && v.Exercised.Exposed == cell.Exposed
}
