package rulebook

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/gomega"
)

// Check is a group of rules judged from the same jobs: its rules share
// what the fixture recorded (LaunchOnce), each with its own verdict.
type Check struct {
	ID    string // e.g. MPIT-STRINGS
	Needs string // the capability its rules need (one of Needs), unless a rule says otherwise
	Title string // what the group covers, one sentence
	Rules []Rule
	File  string // where it is defined (set by Define)
	Line  int
}

// Define fills in where the check is defined.
func Define(c Check) Check {
	_, c.File, c.Line, _ = runtime.Caller(1)
	if i := strings.LastIndex(c.File, "/suites/"); i >= 0 {
		c.File = c.File[i+1:]
	}
	return c
}

// AllRules are the check's rules, each with the capability it needs (its
// check's unless it names its own).
func (c Check) AllRules() []Rule {
	rules := make([]Rule, len(c.Rules))
	for i, r := range c.Rules {
		if r.Needs == "" {
			r.Needs = c.Needs
		}
		rules[i] = r
	}
	return rules
}

// X is what a check runs with: one implementation, its capabilities and
// fixtures, and the fault injectors to preload (empty in conformance runs).
type X struct {
	Impl     *mpi.Impl
	Caps     *mpi.Caps
	Fixtures map[string]mpi.Built
	Preload  []string // paths (as the implementation sees them) of injector libraries
	// Injecting: the preloaded libraries are fault injectors, which do not
	// cure what the implementation itself dies of (LaunchResuming).
	Injecting bool
	All       []*Env // every implementation of the run, for checks across them
	g         gomega.Gomega
	rule      *Rule // the rule being judged (Evaluate)
	tape      *Tape // jobs are replayed from it, not launched (a corpus test)
	// afterChain: the judge has waited on a resumed chain (LaunchResuming),
	// so its later jobs are on the run's longest path too and go first.
	afterChain atomic.Bool
}

type failure struct{ msg string }

// EndsJudgement: a failed expectation ends the rule as meant (mpi.StopOf).
func (failure) EndsJudgement() {}

// Expect is Gomega's Expect; a failed expectation ends the rule's judgement with Fail.
func (x *X) Expect(actual any, extra ...any) gomega.Assertion {
	if x.g == nil {
		x.g = gomega.NewGomega(func(msg string, _ ...int) { panic(failure{msg}) })
	}
	return x.g.Expect(actual, extra...)
}

// Fixture returns the path of a built fixture, or ends the rule's judgement with Error.
func (x *X) Fixture(name string) string {
	b, ok := x.Fixtures[name]
	if !ok {
		panic(verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("fixture %s was not built for %s (not declared by the suite)", name, x.Impl.ID)})
	}
	return x.Use(b)
}

// Use returns the path of a built fixture (one of the suite's, or one a
// judge generated and built). A build refused for names the implementation
// lacks is judged by each rule that uses it (Lacking); any other refusal
// ends the rule's judgement with Error: the suite broke.
func (x *X) Use(b mpi.Built) string {
	if len(b.Missing) > 0 {
		panic(Lacking{Fixture: b.Fixture, Names: b.Missing, Evidence: b.Error})
	}
	if b.Error != "" {
		cause := fmt.Sprintf("%s: fixture %s did not build: %s", x.Impl.ID, b.Fixture, verdict.CauseLine(b.Error))
		panic(verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("fixture %s did not build for %s: %s", b.Fixture, x.Impl.ID, verdict.FirstLine(b.Error)), Evidence: b.Error, Cause: cause})
	}
	return b.Path
}

// Launch runs a fixture job with the injectors preloaded and returns what
// happened without judging it: for checks where a crash or an exit status
// is the verdict. recs is nil (and recErr says why) when records are missing.
func (x *X) Launch(j mpi.Job) (res *mpi.Result, recs *mpi.Records, recErr error) {
	j.Impl = x.Impl
	j.Urgent = j.Urgent || x.afterChain.Load()
	if len(x.Preload) > 0 {
		env := map[string]string{}
		for k, v := range j.RankEnv {
			env[k] = v
		}
		j.RankEnv = env
		pre := strings.Join(x.Preload, ":")
		if old := j.RankEnv["LD_PRELOAD"]; old != "" {
			pre += ":" + old
		}
		// the implementation's own preload (a translation layer such as
		// WI4MPI's preload mode) stays, under the injectors: the rank's
		// LD_PRELOAD replaces the one its env gives
		if own := x.Impl.Env["LD_PRELOAD"]; own != "" {
			pre += ":" + own
		}
		j.RankEnv["LD_PRELOAD"] = pre
	}
	if x.tape != nil {
		return x.tape.replay(x, j)
	}
	res, err := mpi.Run(j)
	if err != nil {
		panic(verdict.Verdict{Status: verdict.Error, Reason: err.Error()})
	}
	defer res.Cleanup()
	lines := mpi.RecordLines(res.Dir, j.Ranks)
	recordTape(x, j, res, lines)
	recs, recErr = mpi.RecordsOf(j.Name, j.Ranks, lines)
	return res, recs, recErr
}

// Job runs a fixture job with the injectors preloaded, and ends the rule's judgement
// with Error if it crashed, hung or failed, or its records are missing.
func (x *X) Job(j mpi.Job) (*mpi.Result, *mpi.Records) {
	res, recs, err := x.Launch(j)
	return res, x.mustBeWhole(j, res, recs, err)
}

// Unsupported ends the rule's judgement: the implementation lacks what it needs.
func (x *X) Unsupported(format string, args ...any) {
	panic(verdict.Verdict{Status: verdict.Unsupported, Reason: fmt.Sprintf(format, args...)})
}

// Errorf ends the rule's judgement with Error: the fixture or the suite broke.
func (x *X) Errorf(evidence string, format string, args ...any) {
	panic(verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf(format, args...), Evidence: evidence})
}

// Failf ends the rule's judgement with Fail.
func (x *X) Failf(evidence string, format string, args ...any) {
	panic(verdict.Verdict{Status: verdict.Fail, Reason: fmt.Sprintf(format, args...), Evidence: evidence})
}

// Evaluate judges r on x and turns every way it can end into a Verdict. An
// interpretation rule reports a reading and never fails: a fail from its
// judge is a defect of the suite, so an error.
func Evaluate(r Rule, x *X) (v verdict.Verdict) {
	if x.Caps != nil {
		if why := x.Caps.Lacks(r.Needs); why != "" {
			return verdict.Verdict{Status: verdict.Unsupported, Reason: why}
		}
	}
	x.rule = &r
	v = judge(r.Judge, x)
	if why := undeclaredPass(r, v); why != "" {
		v = verdict.Verdict{Status: verdict.Error, Reason: why + ": " + v.Reason, Evidence: v.Evidence}
	}
	if r.Basis == Interpretation && v.Status == verdict.Fail {
		v = verdict.Verdict{Status: verdict.Error, Reason: "the suite broke: interpretation rule " + r.ID + " gave fail: " + v.Reason, Evidence: v.Evidence}
	}
	return v
}

// judge runs a judge on x and turns every way it can end into a Verdict.
func judge(run func(x *X) verdict.Verdict, x *X) (v verdict.Verdict) {
	defer func() {
		switch r := mpi.StopOf(recover()).(type) {
		case nil:
		case verdict.Verdict:
			v = r
		case failure:
			v = verdict.Verdict{Status: verdict.Fail, Reason: verdict.FirstLine(r.msg), Evidence: r.msg}
		case mpi.Broke:
			v = brokeVerdict(r)
		case Lacking:
			v = x.lackingVerdict(r)
		case mpi.OffTape:
			v = verdict.Verdict{Status: NotReplayed, Reason: r.What}
		}
	}()
	v = run(x)
	if v.Status == "" {
		v.Status = verdict.Pass
	}
	if v.Status == verdict.Pass {
		v = earned(v)
	}
	return v
}

// PathFrom makes a file that other sees at p visible to x's implementation
// and returns x's path to it: the host sees into every root; into a root
// the file is copied, in a folder of this process that is removed when the
// suite ends (removeImportedAtEnd).
func (x *X) PathFrom(other *mpi.Impl, p string) string {
	switch {
	case other.Root == x.Impl.Root:
		return p
	case x.Impl.Root == "":
		return other.HostPath(p)
	}
	dir, err := importDir(x.Impl)
	if err != nil {
		panic(verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("cannot make a folder in %s's root: %v", x.Impl.ID, err)})
	}
	src, dst := other.HostPath(p), filepath.Join(dir, other.ID, filepath.Base(filepath.Dir(p)), filepath.Base(p))
	// Copied aside and renamed: rules judged side by side may be running the
	// copy another made (a file being run cannot be rewritten).
	tmp := dst + "." + mpi.RandomToken()
	if err := mpi.PlaceExecutable(src, tmp); err != nil {
		panic(verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("cannot copy %s into %s's root: %v", src, x.Impl.ID, err)})
	}
	if err := os.Rename(tmp, dst); err != nil {
		panic(verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf("cannot copy %s into %s's root: %v", src, x.Impl.ID, err)})
	}
	return x.Impl.InnerPath(dst)
}

// imported are the folders PathFrom copied files into, one a root.
var (
	importedMu sync.Mutex
	imported   = map[string]string{} // root -> folder
)

// importDir is this process's folder in im's root for imported files: a
// unique name, never one another process could guess and make first.
func importDir(im *mpi.Impl) (string, error) {
	importedMu.Lock()
	defer importedMu.Unlock()
	if d := imported[im.Root]; d != "" {
		return d, nil
	}
	os.MkdirAll(im.HostPath("/tmp"), 0o755) // a real root has one; a test's may not
	d, err := os.MkdirTemp(im.HostPath("/tmp"), "mpits-imported-")
	if err == nil {
		imported[im.Root] = d
	}
	return d, err
}

// RemoveImported removes what PathFrom imported into the roots (the
// suite does when it ends).
func RemoveImported() {
	importedMu.Lock()
	defer importedMu.Unlock()
	for root, dir := range imported {
		os.RemoveAll(dir)
		delete(imported, root)
	}
}

// FailOn ends the rule with Fail when problems holds any: the reason names
// the first and how many more, the evidence lists them all, then extra.
func (x *X) FailOn(problems []string, extra string) {
	if len(problems) == 0 {
		return
	}
	ev := strings.Join(problems, "\n")
	if extra != "" {
		ev += "\n\n" + extra
	}
	x.Failf(ev, "%s", verdict.FirstAndMore(problems))
}

// Injector is a fault injector or conforming shim: a shared object built
// from fixtures/c/inject, preloaded into every rank of a job.
func Injector(name string, sources ...string) mpi.Fixture {
	return mpi.Fixture{Name: name, Sources: sources, Shared: true, Flags: []string{"-ldl"}}
}
