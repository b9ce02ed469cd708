package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/report"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// cmdCorpus keeps a run (ci/run-suites OUT, which writes OUT/tape) as the
// judges' corpus: implementations and capabilities, fixture outcomes,
// every conformance job's outcome, every verdict. With -check it says
// whether the committed corpus holds the run's verdicts, rule by rule (the
// records themselves differ from run to run: timings, addresses).
func cmdCorpus(args []string) error {
	fs := flag.NewFlagSet("corpus", flag.ExitOnError)
	run := fs.String("run", "", "a ci/run-suites output folder (raw/, tape/, verdicts.json)")
	out := fs.String("out", "judges/testdata/corpus", "the corpus folder")
	check := fs.Bool("check", false, "only check that the corpus holds the run's verdicts")
	fs.Parse(args)
	if *run == "" {
		return fmt.Errorf("corpus: -run names no folder: give the output folder of a ci/run-suites run")
	}
	verdicts, err := corpusVerdicts(filepath.Join(*run, "verdicts.json"))
	if err != nil {
		return err
	}
	if *check {
		return checkCorpus(*out, verdicts)
	}
	probed, err := report.ReadProbed(filepath.Join(*run, "raw", mpi.ProbedFile))
	if err != nil {
		return err
	}
	fixtures, err := corpusFixtures(filepath.Join(*run, "raw", harness.FixturesReportDir))
	if err != nil {
		return err
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(*out, harness.CorpusTapeDir), 0o755); err != nil {
		return err
	}
	for name, v := range map[string]any{harness.CorpusProbed: probed, harness.CorpusFixtures: fixtures, harness.CorpusVerdicts: verdicts} {
		data, _ := json.MarshalIndent(v, "", " ")
		if err := os.WriteFile(filepath.Join(*out, name), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	tapes, _ := filepath.Glob(filepath.Join(*run, "tape", "*.jsonl"))
	if len(tapes) == 0 {
		return fmt.Errorf("corpus: %s/tape holds no tape: the run wrote none (ci/run-suites sets %s)", *run, settings.TapeEnv)
	}
	for _, f := range tapes {
		if err := writeCorpusTape(f, filepath.Join(*out, harness.CorpusTapeDir, strings.TrimSuffix(filepath.Base(f), ".jsonl")+".jsonl.gz")); err != nil {
			return err
		}
	}
	fmt.Printf("corpus: %d verdicts, %d implementations, %d tapes in %s\n", len(verdicts), len(probed), len(tapes), *out)
	return nil
}

// corpusVerdicts are a run's verdicts, sorted.
func corpusVerdicts(path string) ([]harness.CorpusVerdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %v: give the output folder of a ci/run-suites run", err)
	}
	var doc struct {
		Verdicts []report.Row `json:"verdicts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("corpus: %s: %v", path, err)
	}
	var out []harness.CorpusVerdict
	for _, r := range doc.Verdicts {
		v := harness.CorpusVerdict{ID: r.ID, Impl: r.Impl, Status: verdict.Status(r.Status)}
		if e := r.Exercised; e != nil && v.Status == verdict.Pass {
			v.Judged, v.Exposed = e.Judged, e.Exposed
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].ID+"\x00"+out[i].Impl < out[j].ID+"\x00"+out[j].Impl
	})
	return out, nil
}

// corpusFixtures merges the suites' fixture outcomes, with paths that say
// only which fixture (a replay launches nothing).
func corpusFixtures(dir string) (map[string]map[string]mpi.Built, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus: no fixture outcomes in %s: the suites write them when MPITS_REPORT_DIR is set", dir)
	}
	out := map[string]map[string]mpi.Built{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var m map[string]map[string]mpi.Built
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("corpus: %s: %v", f, err)
		}
		for impl, fx := range m {
			if out[impl] == nil {
				out[impl] = map[string]mpi.Built{}
			}
			for name, b := range fx {
				if b.Path != "" {
					b.Path = "/corpus/fixtures/" + name
				}
				out[impl][name] = b
			}
		}
	}
	return out, nil
}

// writeCorpusTape writes a run's tape of one implementation sorted by key,
// each key once, gzipped.
func writeCorpusTape(from, to string) error {
	entries, err := rulebook.ReadTapeFile(from)
	if err != nil {
		return err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Key < entries[j].Key })
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	last := "\x00"
	for _, e := range entries {
		if e.Key == last {
			continue
		}
		last = e.Key
		line, _ := json.Marshal(e)
		z.Write(append(line, '\n'))
	}
	if err := z.Close(); err != nil {
		return err
	}
	return os.WriteFile(to, buf.Bytes(), 0o644)
}

// checkCorpus says which of the run's verdicts the corpus does not hold.
func checkCorpus(dir string, run []harness.CorpusVerdict) error {
	data, err := os.ReadFile(filepath.Join(dir, harness.CorpusVerdicts))
	if err != nil {
		return fmt.Errorf("corpus %s: %v: regenerate it with bash ci/corpus", dir, err)
	}
	var kept []harness.CorpusVerdict
	if err := json.Unmarshal(data, &kept); err != nil {
		return fmt.Errorf("corpus %s: %v", dir, err)
	}
	have := map[string]verdict.Status{}
	for _, v := range kept {
		have[v.ID+" on "+v.Impl] = v.Status
	}
	var differ []string
	for _, v := range run {
		k := v.ID + " on " + v.Impl
		if have[k] != v.Status {
			differ = append(differ, fmt.Sprintf("%s: the corpus %q, the run %q", k, have[k], v.Status))
		}
		delete(have, k)
	}
	for k := range have {
		differ = append(differ, k+": in the corpus, not in the run")
	}
	if len(differ) > 0 {
		sort.Strings(differ)
		return fmt.Errorf("corpus %s is out of date: %d verdicts differ from the run's (first: %s): regenerate it with bash ci/corpus", dir, len(differ), differ[0])
	}
	fmt.Printf("corpus: %s holds the run's %d verdicts\n", dir, len(run))
	return nil
}
