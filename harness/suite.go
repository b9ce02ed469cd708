package harness

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
)

// Info describes rule r of check c in suite s.
func (s *Suite) Info(c rulebook.Check, r rulebook.Rule) rulebook.RuleInfo {
	file, line := r.Location()
	inj := r.Injectors
	if inj == nil {
		inj = []string{}
	}
	return rulebook.RuleInfo{ID: r.ID, Suite: s.suiteOf(c), Check: c.ID, Source: r.Source, Basis: r.Basis, Rule: r.Text,
		Needs: r.Needs, File: file, Line: line, Injectors: inj, Conformers: r.Conformers, Exposure: r.Exposure.String()}
}

// Validate rejects what would make a verdict untrue or a report wrong: a
// duplicate rule id, an injector the suite does not declare (it would
// become an empty build and "pass, not fail"), a source that names no
// section of the standard, a rule without basis, text or judge.
func (s *Suite) Validate(seen map[string]string) error {
	if len(s.parts) > 0 {
		for _, p := range s.parts {
			if err := p.Validate(seen); err != nil {
				return err
			}
		}
		return nil
	}
	declared := map[string]bool{}
	for _, f := range s.Injectors {
		declared[f.Name] = true
	}
	var errs []string
	add := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, c := range s.Checks {
		if c.ID == "" || c.Title == "" {
			add("a check of suite %s has no id or title", s.Name)
		}
		rules := c.AllRules()
		if len(rules) == 0 {
			add("check %s has no rule", c.ID)
		}
		for _, r := range rules {
			where := fmt.Sprintf("rule %s (check %s)", r.ID, c.ID)
			if r.ID == "" || strings.ContainsAny(r.ID, "&|!,()/: ") {
				add("%s: the id must be non-empty and hold none of &|!,()/: or spaces", where)
			}
			if prev, dup := seen[r.ID]; dup {
				add("%s: the id is used already by %s", where, prev)
			}
			seen[r.ID] = s.Name + " " + c.ID
			if r.Text == "" || r.Judge == nil {
				add("%s: no text or no judge", where)
			}
			switch r.Basis {
			case rulebook.Normative, rulebook.SeedBasis, rulebook.Quality, rulebook.Interpretation:
			default:
				add("%s: basis %q is not one of normative, seed, quality, interpretation", where, r.Basis)
			}
			if !slices.Contains(mpi.Needs, r.Needs) {
				add("%s: needs %q is not one of %s", where, r.Needs, strings.Join(mpi.Needs, ", "))
			}
			if err := rulebook.CheckSource(r.Source); err != nil {
				add("%s: %v", where, err)
			} else if seed := strings.HasPrefix(r.Source, "seed "); seed != (r.Basis == rulebook.SeedBasis) && (r.Basis == rulebook.SeedBasis || r.Basis == rulebook.Normative) {
				add("%s: a %s rule needs a %s source, not %q", where, r.Basis, map[bool]string{true: "standard", false: "seed"}[r.Basis == rulebook.Normative], r.Source)
			}
			for _, inj := range append(append([]string{}, r.Injectors...), r.Conformers...) {
				if !declared[inj] {
					add("%s: injector %s is not declared by suite %s", where, inj, s.Name)
				}
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("suite %s: %s", s.Name, strings.Join(errs, "; "))
	}
	return nil
}

// Suite is one of the four suites: its checks, the fixtures they use, and
// the fault injectors that prove the checks can fail.
type Suite struct {
	Name      string
	Checks    []rulebook.Check
	Fixtures  []mpi.Fixture // built for every implementation
	Injectors []mpi.Fixture // shared libraries, preloaded by the injector specs

	parts []*Suite          // the suites a combined suite runs (Combine)
	owner map[string]string // a combined suite's check ids → their suite's name
}

// Run is the go test door: one suite package a process. It loads the
// implementations, declares the suite's specs and runs them. A bad setting,
// or a suite whose rules do not validate, ends the test binary with one
// line naming it.
func (s *Suite) Run(t *testing.T) { s.run(t, true) }

// RunAll is mpits run's door: the suite (a Combine of every suite) in this
// process, with the Ginkgo configuration of its flags. It returns what the
// run found.
func (s *Suite) RunAll() Outcome {
	var t failed
	final, probed := s.run(&t, false)
	return Outcome{Report: final, Passed: !t.failed, Probed: probed}
}

// Outcome is what a run of mpits run found: its report (every spec, an
// interrupted run's as interruptedReport makes it), whether it passed, and
// what it probed of each implementation it set up.
type Outcome struct {
	Report ginkgo.Report
	Passed bool
	Probed []mpi.Probed
}

// Preflight is every check a run makes before it does any work: the
// suite's rules, every setting, the implementations they select, the
// expectations and injectors named, the label filter. Its error is one
// line; mpits run calls it first, so that bad input is exit 2 before
// anything runs, and every run calls it again as it starts.
func (s *Suite) Preflight() ([]*mpi.Impl, error) {
	if err := s.Validate(map[string]string{}); err != nil {
		return nil, fmt.Errorf("the suite itself is wrong: %v", err)
	}
	impls, err := mpi.LoadImpls()
	if err == nil {
		err = s.readVendorSettings() // MPITS_EXPECT, MPITS_INJECT (expectations.go)
	}
	if err == nil {
		err = s.checkSelection(impls)
	}
	return impls, err
}

// failed is the GinkgoTestingT of a run outside go test.
type failed struct{ failed bool }

func (f *failed) Fail() { f.failed = true }

// run runs the suite; goTest says it runs in a go test package (its
// console is the go command's stderr, its JUnit file is named after the
// package, its end writes the run stamp).
func (s *Suite) run(t ginkgo.GinkgoTestingT, goTest bool) (ginkgo.Report, []mpi.Probed) {
	impls, err := s.Preflight()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mpits:", err)
		os.Exit(2)
	}
	// The console is opened now: once the go command is gone, its stderr
	// can no longer be found (interrupt.go).
	con := io.Writer(os.Stderr)
	if goTest {
		con = mpi.GoStderr()
	}
	consoleOut = con
	interruptStart = time.Now()
	mpi.SweepAtStart(s.Name, impls, con)
	envs := map[string]*rulebook.Env{}
	var all []*rulebook.Env
	prog := newProgress(s.Name)
	var needed []string // the implementations an interrupted run names
	for _, im := range s.Needed(impls) {
		needed = append(needed, im.ID)
	}
	ginkgo.SynchronizedBeforeSuite(func() []byte {
		// The run's signals are its own from here on (interrupt.go).
		watchInterrupts(goTest)
		set := s.Needed(impls)
		prog.setupStarted(len(set))
		setUp := Setup(set, s.neededFixtures())
		for _, e := range setUp {
			prog.notJudged(e.ProbeCause())
		}
		for _, name := range s.partNames() {
			writeFixturesReport(name, setUp)
		}
		out, _ := json.Marshal(setUp)
		prog.setupDone()
		return out
	}, func(data []byte) {
		gomega.Expect(json.Unmarshal(data, &all)).To(gomega.Succeed())
		for _, e := range all {
			e.All = all
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
	// An interrupted run is no success, even when nothing it judged failed
	// (a deadline during setup judged nothing).
	ginkgo.ReportAfterSuite(InterruptNode, func(ginkgo.Report) {
		if it := mpi.Ongoing.Load(); it != nil {
			ginkgo.Fail("interrupted by " + it.Cause + ": the rules not reached are not judged")
		}
	})
	// JUnit is the suite's to write (junit.go): one file per package under
	// go test, the one file asked for otherwise.
	_, rc := ginkgo.GinkgoConfiguration()
	junit := rc.JUnitReport
	if goTest {
		junit = JUnitPath(junit, packageName())
	}
	if junit != "" {
		ginkgo.ReportAfterSuite("mpits JUnit", func(r ginkgo.Report) {
			if it := mpi.Ongoing.Load(); it != nil {
				r = s.interruptedReport(it, needed)
			}
			if err := WriteJUnit(r, junit); err != nil {
				ginkgo.Fail("cannot write the JUnit report: " + err.Error())
			}
		})
	}
	rc.JUnitReport = ""
	if goTest {
		// Ginkgo writes the JSON report itself: named as JUnit is, so that
		// the packages of one go test command keep a file each.
		rc.JSONReport = JUnitPath(rc.JSONReport, packageName())
	}
	gomega.RegisterFailHandler(ginkgo.Fail)
	judgedBefore.Lock()
	judgedBefore.on = true
	judgedBefore.Unlock()
	if d, cause := runDeadline(goTest); d > 0 {
		watchDeadline(d, cause)
	}
	ginkgo.RunSpecs(t, s.Name, rc)
	if it := interruptedRun(final); it != nil {
		// go test prints nothing of an interrupted run: the console gets
		// what was judged, once the jobs are killed and their folders gone.
		cleaned := it.Wait(10 * time.Second)
		fmt.Fprint(con, s.interruptedSummary(it, prog.expected(), cleaned, needed...))
		t.Fail()
		return s.interruptedReport(it, needed), probedOf(all)
	}
	fmt.Print(summary)
	if goTest {
		neverCached(s.Name)
	}
	return final, probedOf(all)
}

// probedOf is what the run probed of each implementation it set up.
func probedOf(envs []*rulebook.Env) []mpi.Probed {
	var out []mpi.Probed
	for _, e := range envs {
		out = append(out, mpi.Probed{Impl: e.Impl, Caps: e.Caps})
	}
	return out
}

// One spec per rule and implementation: a check is a container, its rules
// containers in it, each with the rule's labels.
func (s *Suite) declare(impls []*mpi.Impl, envs map[string]*rulebook.Env, prog *progress) {
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
							skipIfNotReached(r.ID, im.ID)          // the run's interrupt or deadline came first
							prog.notJudged(v.Cause)                // said once, here or by prefetch
							expectVerdict(info.Suite, r, im.ID, v) // MPITS_EXPECT: may end the spec, a rule not judged too
							notJudged(v)                           // a cause left it: skipped, the run fails once (SetupNode)
							report(r, v)
						})
					}
				})
			}
		})
	}
	ginkgo.Describe(rulebook.InjectorContainer, ginkgo.Label(SelftestLabels...), func() {
		for _, c := range s.Checks {
			for _, r := range c.AllRules() {
				for _, inj := range r.Injectors {
					r, inj := r, inj
					ginkgo.It(r.ID+" fails under "+inj, ginkgo.Label(r.ID), func() {
						ginkgo.AddReportEntry(ProofEntry, Proof{Rule: r.ID, Library: inj, Want: verdict.Fail}, quiet)
						p := proveOnce(r, inj, verdict.Fail, impls, envs)
						skipIfInterrupted()
						recordTurns(r, inj, verdict.Fail, impls, envs)
						expectProof(r, inj, verdict.Fail, p)
					})
				}
				for _, shim := range r.Conformers {
					r, shim := r, shim
					ginkgo.It(r.ID+" passes under "+shim, ginkgo.Label(r.ID), func() {
						ginkgo.AddReportEntry(ProofEntry, Proof{Rule: r.ID, Library: shim, Want: verdict.Pass}, quiet)
						p := proveOnce(r, shim, verdict.Pass, impls, envs)
						skipIfInterrupted()
						recordTurns(r, shim, verdict.Pass, impls, envs)
						expectProof(r, shim, verdict.Pass, p)
					})
				}
			}
		}
	})
}

// recordTurns adds the library's turns on every implementation to the spec's
// report when the run asks for them (ProveEnv); the spec's outcome stays the
// one proof's.
func recordTurns(r rulebook.Rule, lib string, want verdict.Status, impls []*mpi.Impl, envs map[string]*rulebook.Env) {
	if proveEverywhereOn() {
		ginkgo.AddReportEntry(TurnsEntry, proveEverywhere(r, lib, want, impls, envs), quiet)
	}
}

// quiet keeps a spec's report entries out of the console: a failed spec's
// message already says its reason, judge and evidence (report), and the
// entries, printed as Go values, would say them again. They are in the
// JSON report all the same, and under -ginkgo.v.
var quiet = ginkgo.ReportEntryVisibilityNever

// Judged is what a spec records first of all: the rule and the
// implementation it judges, so that reports need not parse labels.
type Judged struct {
	rulebook.RuleInfo
	Impl string `json:"impl"`
}

// verdicts remembers each rule's verdict per implementation in this
// process: rules are judged side by side ahead of their specs (prefetch),
// and an injector spec needs the verdicts of every implementation.
var verdicts mpi.Memo[verdict.Verdict] // by rule and implementation

// evaluateOnce judges r on e's implementation, or waits for the verdict
// this process already has or is reaching.
func evaluateOnce(r rulebook.Rule, e *rulebook.Env) verdict.Verdict {
	if e == nil { // not set up (Setup): the run selects no spec on it
		return verdict.Verdict{Status: verdict.Unsupported, Reason: "not set up: the run's label filter selects no spec on this implementation"}
	}
	return verdicts.Do(r.ID+"\x00"+e.Impl.ID, func() verdict.Verdict {
		v := e.Evaluate(r, injected(e))
		noteJudged(r, e.Impl.ID, v)
		return v
	})
}

// A proof is the outcome of one fault-injector (or conforming-shim) spec:
// the rule judged with the library preloaded on the first implementation
// that gives the other verdict without it, or why no implementation can.
type proof struct {
	impl     string
	buildErr string
	v        verdict.Verdict
	skip     string
}

var proofs mpi.Memo[proof] // by rule and library

// proveOnce finds the proof that r gives want with lib preloaded, once per
// process: an injector (want Fail) runs where r passes, a conforming shim
// (want Pass) where it fails.
func proveOnce(r rulebook.Rule, lib string, want verdict.Status, impls []*mpi.Impl, envs map[string]*rulebook.Env) proof {
	return proofs.Do(r.ID+"\x00"+lib, func() proof { return prove(r, lib, want, impls, envs) })
}

func prove(r rulebook.Rule, lib string, want verdict.Status, impls []*mpi.Impl, envs map[string]*rulebook.Env) proof {
	without := verdict.Pass
	if want == verdict.Pass {
		without = verdict.Fail
	}
	// The first implementation where the library turns the verdict proves
	// it; one where it does not is no fault of that implementation (an
	// injector may aim at another family's behaviour), so the others are
	// tried before the spec says the library turns it nowhere. The cheapest
	// to launch are tried first: any of them proves the judge alike.
	var tried []string
	for _, im := range rulebook.CheapestFirst(impls, envs) {
		e := envs[im.ID]
		if evaluateOnce(r, e).Status != without {
			continue
		}
		b := e.Fixtures[lib]
		if b.Error != "" {
			return proof{impl: im.ID, buildErr: b.Error}
		}
		v := e.EvaluateWith(r, []string{b.Path}, want == verdict.Fail)
		v.Evidence = capText(v.Evidence, evidenceCap)
		if v.Status == want {
			return proof{impl: im.ID, v: v}
		}
		tried = append(tried, fmt.Sprintf("%s: %s (%s)", im.ID, v.Status, verdict.FirstLine(v.Reason)))
	}
	if len(tried) > 0 {
		// This project's CI expects every proof to hold (reports/baseline.json),
		// so a library that stops working fails there; a vendor's run learns
		// that its implementations cannot show it, not that they broke a rule.
		return proof{skip: fmt.Sprintf("%s does not turn %s to %s on any implementation of this run: %s", lib, r.ID, want, strings.Join(tried, "; "))}
	}
	if want == verdict.Pass {
		return proveShimAlone(r, lib, impls, envs)
	}
	// No implementation passes: the rule is shown failing by a real one, if any.
	for _, im := range impls {
		if v := evaluateOnce(r, envs[im.ID]); v.Status == verdict.Fail {
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
func proveShimAlone(r rulebook.Rule, shim string, impls []*mpi.Impl, envs map[string]*rulebook.Env) proof {
	for _, im := range impls {
		if evaluateOnce(r, envs[im.ID]).Status == verdict.Pass {
			return proof{skip: fmt.Sprintf("no implementation fails %s, so a conforming shim is not needed to show it passing", r.ID)}
		}
	}
	var tried []string
	for _, im := range rulebook.CheapestFirst(impls, envs) {
		e := envs[im.ID]
		if e == nil || e.Fixtures[shim].Error != "" {
			continue
		}
		v := e.EvaluateWith(r, []string{e.Fixtures[shim].Path}, false)
		if v.Status == verdict.Pass {
			return proof{impl: im.ID, v: v}
		}
		tried = append(tried, fmt.Sprintf("%s: %s (%s)", im.ID, v.Status, verdict.FirstLine(v.Reason)))
	}
	return proof{skip: fmt.Sprintf("no implementation passes or fails %s, and %s makes it pass on none: %s", r.ID, shim, strings.Join(tried, "; "))}
}

// proveOverShim shows injector lib failing r where no implementation passes
// or fails r by itself (it is unsupported everywhere, e.g. the library's
// own fault leaves it nothing to act on): on the first implementation where
// r passes under one of its conforming shims, lib preloaded over that shim
// must make it fail.
func proveOverShim(r rulebook.Rule, lib string, impls []*mpi.Impl, envs map[string]*rulebook.Env) (proof, bool) {
	for _, shim := range r.Conformers {
		for _, im := range rulebook.CheapestFirst(impls, envs) {
			e := envs[im.ID]
			if e == nil || e.Fixtures[shim].Error != "" || e.Fixtures[lib].Error != "" {
				continue
			}
			if v := e.EvaluateWith(r, []string{e.Fixtures[shim].Path}, false); v.Status != verdict.Pass {
				continue
			}
			// The injector first: it wraps the shim, which wraps the library.
			v := e.EvaluateWith(r, []string{e.Fixtures[lib].Path, e.Fixtures[shim].Path}, true)
			v.Evidence = capText(v.Evidence, evidenceCap)
			return proof{impl: im.ID + " under " + shim, v: v}, true
		}
	}
	return proof{}, false
}

// expectProof ends an injector or shim spec: skipped with its reason, or
// expecting the verdict want under lib.
func expectProof(r rulebook.Rule, lib string, want verdict.Status, p proof) {
	if p.skip != "" {
		ginkgo.Skip(p.skip)
	}
	what := "injector"
	if want == verdict.Pass {
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
func report(r rulebook.Rule, v verdict.Verdict) {
	v.Evidence = verdict.Printable(capText(v.Evidence, evidenceCap))
	ginkgo.AddReportEntry("verdict", v, quiet)
	switch v.Status {
	case verdict.Unsupported:
		ginkgo.Skip("unsupported: " + v.Reason)
	case verdict.Fail, verdict.Error:
		// the reason, where the rule is judged and its finding, the evidence
		file, line := r.Location()
		msg := v.Reason + "\n" + rulePointer(r.ID, file, line)
		if v.Evidence != "" && v.Evidence != v.Reason {
			msg += "\n" + v.Evidence
		}
		if !rulebook.Strict(r.Basis, ginkgo.GinkgoLabelFilter()) {
			fmt.Fprintf(ginkgo.GinkgoWriter, "%s (%s rule, reported; %s=%s to fail the run on it): %s\n", v.Status, r.Basis, settings.StrictEnv, r.Basis, msg)
			return
		}
		// An error is not the implementation's fault: its message says
		// "error:", and JUnit keeps it apart from a failure (<error>,
		// WriteJUnit). A failure, not a panic: Ginkgo prints a panic's Go
		// stack trace, which would show only this line.
		ginkgo.Fail(string(v.Status) + ": " + msg)
	}
}

// Setup probes the implementations and builds the fixtures for them, all
// at once (their jobs and builds take slots); a suite passes those some
// selected spec runs on (Suite.Needed), and the others get no Env. With
// MPITS_REPORT_DIR set it writes what it probed there (ProbedFile).
func Setup(impls []*mpi.Impl, fixtures []mpi.Fixture) []*rulebook.Env {
	removeImportedAtEnd()
	envs := make([]*rulebook.Env, len(impls))
	var wg sync.WaitGroup
	for i, im := range impls {
		wg.Add(1)
		go func(i int, im *mpi.Impl) {
			defer wg.Done()
			e := &rulebook.Env{Impl: im, Caps: mpi.ProbeOnce(im), Fixtures: map[string]mpi.Built{}}
			// nothing is built where no rule can be judged (probeCause)
			if e.Caps.Available && len(e.Caps.Problems) == 0 {
				for _, f := range fixtures {
					if f.ABI && im.ABI == nil {
						continue
					}
					e.Fixtures[f.Name] = mpi.Build(im, f)
				}
			}
			envs[i] = e
		}(i, im)
	}
	wg.Wait()
	if dir := settings.Setting("MPITS_REPORT_DIR").String(); dir != "" {
		_ = mpi.WriteJSON(filepath.Join(dir, mpi.ProbedFile), probedOf(envs))
	}
	return envs
}

// FixturesReportDir is where, in MPITS_REPORT_DIR, each suite writes what
// became of its fixtures on each implementation (a corpus replays judges
// with them).
const FixturesReportDir = "fixtures"

func writeFixturesReport(suite string, envs []*rulebook.Env) {
	dir := settings.Setting("MPITS_REPORT_DIR").String()
	if dir == "" {
		return
	}
	built := map[string]map[string]mpi.Built{}
	for _, e := range envs {
		built[e.Impl.ID] = e.Fixtures
	}
	_ = mpi.WriteJSON(filepath.Join(dir, FixturesReportDir, strings.ReplaceAll(suite, " ", "_")+".json"), built)
}

// removeImportedAtEnd removes, when the suite ends, what PathFrom imported
// into the roots. It works inside a Ginkgo suite node (Setup runs in one);
// elsewhere it does nothing.
func removeImportedAtEnd() {
	if !ginkgo.CurrentSpecReport().LeafNodeType.Is(types.NodeTypeBeforeSuite | types.NodeTypeSynchronizedBeforeSuite) {
		return
	}
	ginkgo.DeferCleanup(rulebook.RemoveImported)
}
