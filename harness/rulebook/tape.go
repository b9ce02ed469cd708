package rulebook

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// A judge is a function of the records of its jobs. The tape makes that
// testable without MPI: a real run with MPITS_TAPE set writes the outcome
// of every conformance job (no injector preloaded) there, records and all;
// the corpus (mpits corpus) keeps it, and a replay hands it back to the
// judges in place of launching (X.Launch), so that their verdicts can be
// compared with the run's and their records mutated (FuzzCorpus).

// TapeEntry is one job's outcome.
type TapeEntry struct {
	Impl       string     `json:"impl"`
	Key        string     `json:"key"`
	Name       string     `json:"name"`
	Ranks      int        `json:"ranks"`
	ExitCode   int        `json:"exit"`
	Signal     string     `json:"signal,omitempty"`
	TimedOut   bool       `json:"timed_out,omitempty"`
	DurationMS int64      `json:"ms"`
	Stdout     string     `json:"stdout,omitempty"`
	Stderr     string     `json:"stderr,omitempty"`
	Records    [][]string `json:"records"` // per rank, the lines it wrote; nil where it wrote no file
}

// tapeOutputCap bounds the output a tape keeps of a job: its tail, which
// is what evidence shows.
const tapeOutputCap = 16 << 10

// tapeKey names a job the same way in the run that wrote it and in the
// replay: paths by their last element (the fixture's name; folders are
// unique to a process), arguments and environment otherwise whole.
func tapeKey(j mpi.Job) string {
	env := func(m map[string]string) string {
		var kv []string
		for k, v := range m {
			kv = append(kv, k+"="+tapePath(v))
		}
		sort.Strings(kv)
		return strings.Join(kv, " ")
	}
	args := make([]string, len(j.Args))
	for i, a := range j.Args {
		args[i] = tapePath(a)
	}
	return fmt.Sprintf("%s|%s|%d|%v|%s|%s|%s", j.Name, tapePath(j.Program), j.Ranks, j.OneNode, strings.Join(args, " "), env(j.Env), env(j.RankEnv))
}

var tapePathRe = regexp.MustCompile(`(?:/[^/:\s=]+)+/([^/:\s=]+)`)

// tapePath is s with every absolute path cut to its last element.
func tapePath(s string) string { return tapePathRe.ReplaceAllString(s, "$1") }

var tapeMu sync.Mutex

// recordTape appends the job's outcome to the run's tape, when asked for.
func recordTape(x *X, j mpi.Job, res *mpi.Result, lines [][]string) {
	dir := settings.Setting(settings.TapeEnv).String()
	if dir == "" || len(x.Preload) > 0 {
		return
	}
	e := TapeEntry{Impl: x.Impl.ID, Key: tapeKey(j), Name: j.Name, Ranks: j.Ranks, ExitCode: res.ExitCode, Signal: res.Signal,
		TimedOut: res.TimedOut, DurationMS: res.Duration.Milliseconds(), Stdout: mpi.Tail(res.Stdout, tapeOutputCap), Stderr: mpi.Tail(res.Stderr, tapeOutputCap),
		Records: lines}
	line, err := json.Marshal(e)
	if err != nil {
		return
	}
	tapeMu.Lock()
	defer tapeMu.Unlock()
	// The suites of a run write side by side: one locked append a job.
	path := filepath.Join(dir, x.Impl.ID+".jsonl")
	unlock, err := mpi.LockFile(path + ".lock")
	if err != nil {
		return
	}
	defer unlock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Write(append(line, '\n'))
	f.Close()
}

// Tape is what a replay hands to the judges: each implementation's jobs
// by key.
type Tape struct {
	jobs map[string]map[string]*TapeEntry // impl -> key -> entry
	// Used notes every key a replay looked up, by implementation
	// (FuzzCorpus mutates what a rule used).
	mu   sync.Mutex
	used map[string][]string
}

// NewTape makes a tape of entries (the first of a key wins: a job run
// again by another suite process gave the same records).
func NewTape(entries []*TapeEntry) *Tape {
	t := &Tape{jobs: map[string]map[string]*TapeEntry{}, used: map[string][]string{}}
	for _, e := range entries {
		if t.jobs[e.Impl] == nil {
			t.jobs[e.Impl] = map[string]*TapeEntry{}
		}
		if t.jobs[e.Impl][e.Key] == nil {
			t.jobs[e.Impl][e.Key] = e
		}
	}
	return t
}

// ReadTapeFile reads a tape file (JSON lines, gzipped if it ends in .gz).
func ReadTapeFile(path string) ([]*TapeEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var sc *bufio.Scanner
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		defer z.Close()
		sc = bufio.NewScanner(z)
	} else {
		sc = bufio.NewScanner(f)
	}
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []*TapeEntry
	for sc.Scan() {
		var e TapeEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, &e)
	}
	return out, sc.Err()
}

// NotReplayed is the status of a rule a replay could not judge (OffTape).
const NotReplayed verdict.Status = "not-replayed"

// replay is the outcome of entry e for job j, as Launch returns it.
func (t *Tape) replay(x *X, j mpi.Job) (*mpi.Result, *mpi.Records, error) {
	impl, key := x.Impl.ID, tapeKey(j)
	t.mu.Lock()
	t.used[impl] = append(t.used[impl], key)
	e := t.jobs[impl][key]
	t.mu.Unlock()
	if e == nil {
		panic(mpi.OffTape{What: "job " + j.Name + " of " + impl + " is not on the tape"})
	}
	res := &mpi.Result{Name: j.Name, Argv: []string{"(replayed from the corpus)", j.Name}, ExitCode: e.ExitCode, Signal: e.Signal,
		TimedOut: e.TimedOut, Duration: time.Duration(e.DurationMS) * time.Millisecond, Stdout: e.Stdout, Stderr: e.Stderr}
	recs, err := mpi.RecordsOf(j.Name, max(j.Ranks, 1), e.Records)
	return res, recs, err
}

// Used is every key the replay looked up for impl, in order, repeated
// where a judge asked again.
func (t *Tape) Used(impl string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string{}, t.used[impl]...)
}

// Entry is impl's entry of key, or nil.
func (t *Tape) Entry(impl, key string) *TapeEntry { return t.jobs[impl][key] }

// Fresh is the tape with nothing looked up yet.
func (t *Tape) Fresh() *Tape { return &Tape{jobs: t.jobs, used: map[string][]string{}} }

// With is a tape that holds e in place of its key's entry.
func (t *Tape) With(e *TapeEntry) *Tape {
	n := &Tape{jobs: map[string]map[string]*TapeEntry{}, used: map[string][]string{}}
	for impl, m := range t.jobs {
		n.jobs[impl] = m
	}
	m := map[string]*TapeEntry{}
	for k, v := range t.jobs[e.Impl] {
		m[k] = v
	}
	m[e.Key] = e
	n.jobs[e.Impl] = m
	return n
}
