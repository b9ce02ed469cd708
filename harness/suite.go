package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
)

// Suite is one of the four suites: its checks, the fixtures they use, and
// the fault injectors that prove the checks can fail.
type Suite struct {
	Name      string
	Checks    []Check
	Fixtures  []Fixture // built for every implementation
	Injectors []Fixture // shared libraries, preloaded by the injector specs
}

// Env is one implementation as the suite sees it after setup.
type Env struct {
	Impl     *Impl            `json:"impl"`
	Caps     *Caps            `json:"caps"`
	Fixtures map[string]Built `json:"fixtures"`
	all      []*Env
	tape     *Tape // a corpus replay's: jobs come from it (Corpus.Envs)
}

// Run loads the implementations, declares the suite's specs and runs them.
// A bad setting, or a suite whose rules do not validate, ends the test
// binary with one line naming it.
func (s *Suite) Run(t *testing.T) {
	if err := s.Validate(map[string]string{}); err != nil {
		fmt.Fprintln(os.Stderr, "mpits: the suite itself is wrong:", err)
		os.Exit(2)
	}
	impls, err := LoadImpls()
	if err == nil {
		err = s.readVendorSettings() // MPITS_EXPECT, MPITS_INJECT (expectations.go)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mpits:", err)
		os.Exit(2)
	}
	if err := s.checkSelection(impls); err != nil {
		fmt.Fprintln(os.Stderr, "mpits:", err)
		os.Exit(2)
	}
	// The console is opened now: once the go command is gone, its stderr
	// can no longer be found (interrupt.go).
	con := goStderr()
	interruptStart = time.Now()
	sweepAtStart(s.Name, impls, con)
	envs := map[string]*Env{}
	var all []*Env
	prog := newProgress(s.Name)
	ginkgo.SynchronizedBeforeSuite(func() []byte {
		set := s.Needed(impls)
		prog.setupStarted(len(set))
		setUp := Setup(set, append(append([]Fixture{}, s.Fixtures...), s.Injectors...))
		for _, e := range setUp {
			prog.notJudged(e.probeCause())
		}
		writeFixturesReport(s.Name, setUp)
		out, _ := json.Marshal(setUp)
		prog.setupDone()
		return out
	}, func(data []byte) {
		gomega.Expect(json.Unmarshal(data, &all)).To(gomega.Succeed())
		for _, e := range all {
			e.all = all
			envs[e.Impl.ID] = e
		}
		s.prefetch(impls, envs, prog)
	})
	s.declare(impls, envs, prog)
	// The summary comes last, after Ginkgo's own, so that the end of the
	// output names every failed rule with its reason.
	var summary string
	var final ginkgo.Report
	ginkgo.ReportAfterSuite("mpits summary", func(r ginkgo.Report) { final, summary = r, Summary(r)+expectAfterSuite(r) })
	// Rules left not judged fail the run once (notjudged.go): after the
	// summary, whose expectations update would take that for an unfinished
	// run, and before JUnit, which shows it.
	ginkgo.ReportAfterSuite(SetupNode, failSetup)
	// JUnit is the suite's to write, one file per package (junit.go).
	_, rc := ginkgo.GinkgoConfiguration()
	if junit := JUnitPath(rc.JUnitReport, packageName()); junit != "" {
		ginkgo.ReportAfterSuite("mpits JUnit", func(r ginkgo.Report) {
			if err := WriteJUnit(r, junit); err != nil {
				ginkgo.Fail("cannot write the JUnit report: " + err.Error())
			}
		})
	}
	rc.JUnitReport = ""
	gomega.RegisterFailHandler(ginkgo.Fail)
	judgedBefore.Lock()
	judgedBefore.on = true
	judgedBefore.Unlock()
	watchInterrupts()
	ginkgo.RunSpecs(t, s.Name, rc)
	if it := interruptedRun(final); it != nil {
		// go test prints nothing of an interrupted run: the console gets
		// what was judged, once the jobs are killed and their folders gone.
		cleaned := it.wait(10 * time.Second)
		fmt.Fprint(con, s.interruptedSummary(it, prog.expected(), cleaned))
		t.Fail()
		return
	}
	fmt.Print(summary)
	neverCached(s.Name)
}

// InjectorContainer is the text of the container of the fault-injector
// specs, which reports tell apart from verdicts.
const InjectorContainer = "fault injectors"

// One spec per rule and implementation: a check is a container, its rules
// containers in it, each with the rule's labels.
func (s *Suite) declare(impls []*Impl, envs map[string]*Env, prog *progress) {
	for _, c := range s.Checks {
		c := c
		ginkgo.Describe(c.ID+": "+c.Title, ginkgo.Label("check:"+c.ID), func() {
			for _, r := range c.AllRules() {
				r := r
				info := s.Info(c, r)
				loc := types.CodeLocation{FileName: info.File, LineNumber: info.Line}
				ginkgo.Describe(r.ID+": "+r.Text, ginkgo.Label(r.Labels()...), func() {
					for _, im := range impls {
						im := im
						ginkgo.It("on "+im.ID, ginkgo.Label("impl:"+im.ID), loc, func() {
							ginkgo.AddReportEntry("rule", Judged{RuleInfo: info, Impl: im.ID}, quiet)
							v := evaluateOnce(r, envs[im.ID])
							prog.notJudged(v.Cause)    // said once, here or by prefetch
							notJudged(v)               // its implementation's setup broke: skipped, the run fails once (SetupNode)
							expectVerdict(r, im.ID, v) // MPITS_EXPECT: may end the spec
							report(r, v)
						})
					}
				})
			}
		})
	}
	ginkgo.Describe(InjectorContainer, ginkgo.Label(SelftestLabels...), func() {
		for _, c := range s.Checks {
			for _, r := range c.AllRules() {
				for _, inj := range r.Injectors {
					r, inj := r, inj
					ginkgo.It(r.ID+" fails under "+inj, ginkgo.Label(r.ID), func() {
						p := proveOnce(r, inj, Fail, impls, envs)
						recordTurns(r, inj, Fail, impls, envs)
						expectProof(r, inj, Fail, p)
					})
				}
				for _, shim := range r.Conformers {
					r, shim := r, shim
					ginkgo.It(r.ID+" passes under "+shim, ginkgo.Label(r.ID), func() {
						p := proveOnce(r, shim, Pass, impls, envs)
						recordTurns(r, shim, Pass, impls, envs)
						expectProof(r, shim, Pass, p)
					})
				}
			}
		}
	})
}

// recordTurns adds the library's turns on every implementation to the spec's
// report when the run asks for them (ProveEnv); the spec's outcome stays the
// one proof's.
func recordTurns(r Rule, lib string, want Status, impls []*Impl, envs map[string]*Env) {
	if proveEverywhereOn() {
		ginkgo.AddReportEntry(TurnsEntry, proveEverywhere(r, lib, want, impls, envs), quiet)
	}
}

// quiet keeps a spec's report entries out of the console unless it failed
// or the run is verbose: a vendor's run of hundreds of passed and skipped
// specs would print each one's entries (they are in the JSON report all
// the same).
var quiet = ginkgo.ReportEntryVisibilityFailureOrVerbose

// Judged is what a spec records first of all: the rule and the
// implementation it judges, so that reports need not parse labels.
type Judged struct {
	RuleInfo
	Impl string `json:"impl"`
}

// verdicts remembers each rule's verdict per implementation in this
// process: rules are judged side by side ahead of their specs (prefetch),
// and an injector spec needs the verdicts of every implementation.
var verdicts Memo[Verdict] // by rule and implementation

// evaluateOnce judges r on e's implementation, or waits for the verdict
// this process already has or is reaching.
func evaluateOnce(r Rule, e *Env) Verdict {
	if e == nil { // not set up (Setup): the run selects no spec on it
		return Verdict{Status: Unsupported, Reason: "not set up: the run's label filter selects no spec on this implementation"}
	}
	return verdicts.Do(r.ID+"\x00"+e.Impl.ID, func() Verdict {
		v := e.Evaluate(r, injected(e))
		noteJudged(r, e.Impl.ID, v)
		return v
	})
}

// Evaluate judges r on this implementation with the injectors preloaded:
// an implementation that is unavailable gives unsupported, a broken
// capability probe an error, without judging.
func (e *Env) Evaluate(r Rule, preload []string) Verdict { return e.evaluate(r, preload, false) }

// evaluate is Evaluate, telling whether the preloaded libraries are fault
// injectors.
func (e *Env) evaluate(r Rule, preload []string, injecting bool) Verdict {
	if e.Caps != nil && !e.Caps.Available {
		return Verdict{Status: Unsupported, Reason: "implementation unavailable: " + e.Caps.Reason}
	}
	if c := e.probeCause(); c != "" {
		// What the implementation can do is unknown: no verdict can be true.
		return Verdict{Status: Error, Reason: "the capability probe broke: " + e.Caps.Problems[0], Evidence: strings.Join(e.Caps.Problems, "\n"), Cause: c}
	}
	x := e.X()
	x.Preload, x.Injecting = preload, injecting
	return Evaluate(r, x)
}

// X is what a check runs with on this implementation.
func (e *Env) X() *X {
	return &X{Impl: e.Impl, Caps: e.Caps, Fixtures: e.Fixtures, All: e.all, tape: e.tape}
}

// Own is the Env of x's implementation in the run: its X launches without
// the injectors x preloads, and replays from x's tape in a corpus test.
func (x *X) Own() *Env {
	for _, e := range x.All {
		if e.Impl.ID == x.Impl.ID {
			return e
		}
	}
	return &Env{Impl: x.Impl, Caps: x.Caps, Fixtures: x.Fixtures, all: x.All, tape: x.tape}
}

// A proof is the outcome of one fault-injector (or conforming-shim) spec:
// the rule judged with the library preloaded on the first implementation
// that gives the other verdict without it, or why no implementation can.
type proof struct {
	impl     string
	buildErr string
	v        Verdict
	skip     string
}

var proofs Memo[proof] // by rule and library

// proveOnce finds the proof that r gives want with lib preloaded, once per
// process: an injector (want Fail) runs where r passes, a conforming shim
// (want Pass) where it fails.
func proveOnce(r Rule, lib string, want Status, impls []*Impl, envs map[string]*Env) proof {
	return proofs.Do(r.ID+"\x00"+lib, func() proof { return prove(r, lib, want, impls, envs) })
}

func prove(r Rule, lib string, want Status, impls []*Impl, envs map[string]*Env) proof {
	without := Pass
	if want == Pass {
		without = Fail
	}
	// The first implementation where the library turns the verdict proves
	// it; one where it does not is no fault of that implementation (an
	// injector may aim at another family's behaviour), so the others are
	// tried before the spec says the library turns it nowhere. The cheapest
	// to launch are tried first: any of them proves the judge alike.
	var tried []string
	for _, im := range cheapestFirst(impls, envs) {
		e := envs[im.ID]
		if evaluateOnce(r, e).Status != without {
			continue
		}
		b := e.Fixtures[lib]
		if b.Error != "" {
			return proof{impl: im.ID, buildErr: b.Error}
		}
		v := e.evaluate(r, []string{b.Path}, want == Fail)
		v.Evidence = capText(v.Evidence, evidenceCap)
		if v.Status == want {
			return proof{impl: im.ID, v: v}
		}
		tried = append(tried, fmt.Sprintf("%s: %s (%s)", im.ID, v.Status, FirstLine(v.Reason)))
	}
	if len(tried) > 0 {
		// This project's CI expects every proof to hold (reports/baseline.json),
		// so a library that stops working fails there; a vendor's run learns
		// that its implementations cannot show it, not that they broke a rule.
		return proof{skip: fmt.Sprintf("%s does not turn %s to %s on any implementation of this run: %s", lib, r.ID, want, strings.Join(tried, "; "))}
	}
	if want == Pass {
		return proveShimAlone(r, lib, impls, envs)
	}
	// No implementation passes: the rule is shown failing by a real one, if any.
	for _, im := range impls {
		if v := evaluateOnce(r, envs[im.ID]); v.Status == Fail {
			return proof{skip: fmt.Sprintf("no implementation passes %s; it fails on a real one, %s: %s", r.ID, im.ID, v.Reason)}
		}
	}
	if p, ok := proveOverShim(r, lib, impls, envs); ok {
		return p
	}
	return proof{skip: fmt.Sprintf("unsupported: no implementation passes %s, so its injector cannot be shown to break it", r.ID)}
}

// proveShimAlone is the proof of a conforming shim where no implementation
// fails r: not needed where one passes it by itself; where none does (r is
// unsupported everywhere), the shim shows r passing on the first
// implementation where it does.
func proveShimAlone(r Rule, shim string, impls []*Impl, envs map[string]*Env) proof {
	for _, im := range impls {
		if evaluateOnce(r, envs[im.ID]).Status == Pass {
			return proof{skip: fmt.Sprintf("no implementation fails %s, so a conforming shim is not needed to show it passing", r.ID)}
		}
	}
	var tried []string
	for _, im := range cheapestFirst(impls, envs) {
		e := envs[im.ID]
		if e == nil || e.Fixtures[shim].Error != "" {
			continue
		}
		v := e.evaluate(r, []string{e.Fixtures[shim].Path}, false)
		if v.Status == Pass {
			return proof{impl: im.ID, v: v}
		}
		tried = append(tried, fmt.Sprintf("%s: %s (%s)", im.ID, v.Status, FirstLine(v.Reason)))
	}
	return proof{skip: fmt.Sprintf("no implementation passes or fails %s, and %s makes it pass on none: %s", r.ID, shim, strings.Join(tried, "; "))}
}

// proveOverShim shows injector lib failing r where no implementation passes
// or fails r by itself (it is unsupported everywhere, e.g. the library's
// own fault leaves it nothing to act on): on the first implementation where
// r passes under one of its conforming shims, lib preloaded over that shim
// must make it fail.
func proveOverShim(r Rule, lib string, impls []*Impl, envs map[string]*Env) (proof, bool) {
	for _, shim := range r.Conformers {
		for _, im := range cheapestFirst(impls, envs) {
			e := envs[im.ID]
			if e == nil || e.Fixtures[shim].Error != "" || e.Fixtures[lib].Error != "" {
				continue
			}
			if v := e.evaluate(r, []string{e.Fixtures[shim].Path}, false); v.Status != Pass {
				continue
			}
			// The injector first: it wraps the shim, which wraps the library.
			v := e.evaluate(r, []string{e.Fixtures[lib].Path, e.Fixtures[shim].Path}, true)
			v.Evidence = capText(v.Evidence, evidenceCap)
			return proof{impl: im.ID + " under " + shim, v: v}, true
		}
	}
	return proof{}, false
}

// expectProof ends an injector or shim spec: skipped with its reason, or
// expecting the verdict want under lib.
func expectProof(r Rule, lib string, want Status, p proof) {
	if p.skip != "" {
		ginkgo.Skip(p.skip)
	}
	what := "injector"
	if want == Pass {
		what = "conforming shim"
	}
	gomega.Expect(p.buildErr).To(gomega.BeEmpty(), "%s %s did not build for %s", what, lib, p.impl)
	ginkgo.AddReportEntry("injected", map[string]any{"impl": p.impl, "injector": lib, "verdict": p.v}, quiet)
	gomega.Expect(p.v.Status).To(gomega.Equal(want), "%s under %s on %s gave %s (%s), not %s", r.ID, lib, p.impl, p.v.Status, p.v.Reason, want)
}

// evidenceCap bounds the evidence kept in reports: enough to see the fault.
const evidenceCap = 4096

func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("\n… (%d more bytes)", len(s)-n)
}

// report turns a verdict into the spec's outcome. go test ./suites/... is
// strict where the text is: a fail or error of a normative or seed rule
// fails the spec; of a quality or interpretation rule only when asked for
// (Strict). Unsupported skips.
func report(r Rule, v Verdict) {
	v.Evidence = capText(v.Evidence, evidenceCap)
	ginkgo.AddReportEntry("verdict", v, quiet)
	switch v.Status {
	case Unsupported:
		ginkgo.Skip("unsupported: " + v.Reason)
	case Fail, Error:
		// the reason, where the rule is judged and its finding, the evidence
		file, line := r.Location()
		msg := v.Reason + "\n" + rulePointer(r.ID, file, line)
		if v.Evidence != "" && v.Evidence != v.Reason {
			msg += "\n" + v.Evidence
		}
		if !Strict(r.Basis, ginkgo.GinkgoLabelFilter()) {
			fmt.Fprintf(ginkgo.GinkgoWriter, "%s (%s rule, reported; %s=%s to fail the run on it): %s\n", v.Status, r.Basis, StrictEnv, r.Basis, msg)
			return
		}
		// An error is not the implementation's fault: its message says
		// "error:", and JUnit keeps it apart from a failure (<error>,
		// WriteJUnit). A failure, not a panic: Ginkgo prints a panic's Go
		// stack trace, which would show only this line.
		ginkgo.Fail(string(v.Status) + ": " + msg)
	}
}

// Probed is an implementation with its capabilities, as reports show it.
type Probed struct {
	Impl *Impl `json:"impl"`
	Caps *Caps `json:"caps"`
}

// ProbedFile is where Setup writes the probed implementations, in
// MPITS_REPORT_DIR.
const ProbedFile = "capabilities.json"

// Setup probes the implementations and builds the fixtures for them, all
// at once (their jobs and builds take slots); a suite passes those some
// selected spec runs on (Suite.Needed), and the others get no Env. With
// MPITS_REPORT_DIR set it writes what it probed there (ProbedFile).
func Setup(impls []*Impl, fixtures []Fixture) []*Env {
	removeImportedAtEnd()
	envs := make([]*Env, len(impls))
	var wg sync.WaitGroup
	for i, im := range impls {
		wg.Add(1)
		go func(i int, im *Impl) {
			defer wg.Done()
			e := &Env{Impl: im, Caps: ProbeOnce(im), Fixtures: map[string]Built{}}
			// nothing is built where no rule can be judged (probeCause)
			if e.Caps.Available && len(e.Caps.Problems) == 0 {
				for _, f := range fixtures {
					if f.ABI && im.ABI == nil {
						continue
					}
					e.Fixtures[f.Name] = Build(im, f)
				}
			}
			envs[i] = e
		}(i, im)
	}
	wg.Wait()
	if dir := Setting("MPITS_REPORT_DIR").String(); dir != "" {
		var probed []Probed
		for _, e := range envs {
			probed = append(probed, Probed{Impl: e.Impl, Caps: e.Caps})
		}
		_ = writeJSON(filepath.Join(dir, ProbedFile), probed)
	}
	return envs
}

// FixturesReportDir is where, in MPITS_REPORT_DIR, each suite writes what
// became of its fixtures on each implementation (a corpus replays judges
// with them).
const FixturesReportDir = "fixtures"

func writeFixturesReport(suite string, envs []*Env) {
	dir := Setting("MPITS_REPORT_DIR").String()
	if dir == "" {
		return
	}
	built := map[string]map[string]Built{}
	for _, e := range envs {
		built[e.Impl.ID] = e.Fixtures
	}
	_ = writeJSON(filepath.Join(dir, FixturesReportDir, strings.ReplaceAll(suite, " ", "_")+".json"), built)
}

// writeJSON writes v indented, atomically (suites may write the same file).
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
