package harness

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/reporters"
)

// A suite package of a module: twelve rules that run a fixture (ten
// normative, two quality) in three checks, and one that runs nothing and
// passes.
func brokenSetupModule(t *testing.T) string {
	var rules, entries []string
	for _, c := range []string{"A", "B", "C"} {
		var rs []string
		for i, n := range []string{"1", "2", "3", "4"} {
			basis := "normative"
			if c == "C" && i >= 2 {
				basis = "quality"
			}
			id := "R-" + c + n
			rs = append(rs, `		{ID: "`+id+`", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Basis("`+basis+`"), Text: "runs", Judge: runs},`)
			entries = append(entries, `{"id": "`+id+`", "suite": "PX", "check": "C-`+c+`", "source": "MPI-5.0 §15.3.3", "basis": "`+basis+`", "needs": "mpi", "injectors": []}`)
		}
		rules = append(rules, `	rulebook.Define(rulebook.Check{ID: "C-`+c+`", Title: "runs a fixture", Needs: "mpi", Rules: []rulebook.Rule{
`+strings.Join(rs, "\n")+`
	}}),`)
	}
	entries = append(entries, `{"id": "R-D1", "suite": "PX", "check": "C-D", "source": "MPI-5.0 §15.3.3", "basis": "normative", "needs": "mpi", "injectors": []}`)
	return testModule(t, map[string]string{
		"suites/px/px_test.go": `package px

import (
	"testing"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func runs(x *rulebook.X) verdict.Verdict {
	x.Job(mpi.Job{Name: "hello", Ranks: 2, Program: x.Fixture("hello")})
	return rulebook.Exposed(1, "jobs", "it ran")
}

var Suite = &harness.Suite{Name: "PX", Fixtures: []mpi.Fixture{{Name: "hello", Sources: []string{"probe/launch_check.c"}}}, Checks: []rulebook.Check{
` + strings.Join(rules, "\n") + `
	rulebook.Define(rulebook.Check{ID: "C-D", Title: "runs nothing", Needs: "mpi", Rules: []rulebook.Rule{
		{ID: "R-D1", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "passes", Judge: func(*rulebook.X) verdict.Verdict { return rulebook.Exposed(1, "things", "fine") }},
	}}),
}}

func TestPX(t *testing.T) { Suite.Run(t) }
`,
		RulesFile: "{\"rules\": [\n" + strings.Join(entries, ",\n") + "\n]}\n",
	})
}

// brokenCompiler is an implementations file of two implementations whose
// compiler wrapper refuses everything, and the settings that run on them
// (a run folder and a cache of their own, progress on).
func brokenCompiler(t *testing.T) (cc string, env []string) {
	tmp := t.TempDir()
	cc = mpitest.WriteFile(t, filepath.Join(tmp, "bin", "mpicc"), "#!/bin/sh\necho 'mpicc: error: cannot find the C compiler gcc-99' >&2\necho 'mpicc: giving up' >&2\nexit 1\n", 0o755)
	impls := mpitest.WriteFile(t, filepath.Join(tmp, "impls.json"), `{"implementations":[
{"id":"alpha","available":true,"cc":"`+cc+`","launcher":"/bin/true","lib":"libc.so.6"},
{"id":"beta","available":true,"cc":"`+cc+`","launcher":"/bin/true","lib":"libc.so.6"}]}`, 0o644)
	return cc, []string{"MPITS_IMPLEMENTATIONS=" + impls, settings.RunDirEnv + "=" + filepath.Join(tmp, "run"), "MPITS_PROGRESS=1", "MPITS_CACHE=" + filepath.Join(tmp, "cache")}
}

// keptBuild is the file the failed build of fixture for im kept the
// compiler's output in, in the cache env names, which the cause names (a
// reader opens it after the run); the test fails unless it holds what the
// compiler said.
func keptBuild(t *testing.T, env []string, im, fixture string) string {
	t.Helper()
	cache := strings.TrimPrefix(env[3], "MPITS_CACHE=")
	kept, _ := filepath.Glob(filepath.Join(cache, "fixtures", im, fixture+"-*", "build-output.txt"))
	if len(kept) != 1 {
		t.Fatalf("%d kept outputs of the build of %s for %s, want 1: %q", len(kept), fixture, im, kept)
	}
	if data, err := os.ReadFile(kept[0]); err != nil || !strings.Contains(string(data), "mpicc: giving up") {
		t.Errorf("%s does not hold the compiler's output (%v):\n%s", kept[0], err, data)
	}
	return kept[0]
}

// oneCauseRun runs the module's suite with JUnit, and checks what every
// run of a cause must show: the run fails; no stack trace, no failed or
// panicked rule; each cause's line (expected, after the run, says them
// with how many rules each leaves) twice (on the console when met, and
// under NOT JUDGED at the end); JUnit with the rules skipped, "not
// judged: <cause>", and one failure, SetupNode's, with every cause. It
// returns the output.
func oneCauseRun(t *testing.T, dir string, env []string, expected func() map[string]int) string {
	t.Helper()
	junit := filepath.Join(t.TempDir(), "junit.xml")
	b, err := goCommand(t, dir, env, "test", "-count=1", "./...", "-args", "-ginkgo.no-color", "-ginkgo.junit-report="+junit).CombinedOutput()
	out := string(b)
	causes := expected()
	lines := strings.Count(out, "\n")
	t.Logf("%d lines:\n%s", lines, out)
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("go test passed (or did not run: %v), though rules were not judged", err)
	}
	if lines >= 40 {
		t.Errorf("%d lines of output, want fewer than 40", lines)
	}
	for _, bad := range []string{"Full Stack Trace", "[PANICKED]", "[FAILED] error:", "ERRORS:"} {
		if strings.Contains(out, bad) {
			t.Errorf("the output has %q", bad)
		}
	}
	for cause, rules := range causes {
		if n := strings.Count(out, cause); n != 2 {
			t.Errorf("%q is %d times in the output, want twice (when met, and under NOT JUDGED)", cause, n)
		}
		if !regexp.MustCompile(`(?m)^mpits PX \[\d+s\]: not judged: ` + regexp.QuoteMeta(cause) + "$").MatchString(out) {
			t.Errorf("the console was not told %q when the run met it", cause)
		}
		if !strings.Contains(out, "] "+cause) || !strings.Contains(out, "  ["+verdict.Plural(rules, "rule")+"] "+cause) {
			t.Errorf("NOT JUDGED does not list %q with its %s", cause, verdict.Plural(rules, "rule"))
		}
	}
	if !strings.Contains(out, "[FAIL] [ReportAfterSuite] "+SetupNode) {
		t.Errorf("the run does not fail in %q", SetupNode)
	}
	cases := readJUnit(t, filepath.Join(filepath.Dir(junit), "junit-px.xml"))
	skipped := 0
	for id, c := range cases {
		got := c.outcome()
		switch {
		case strings.HasPrefix(got, "skipped: skipped - not judged: "):
			skipped++
		case id == "R-D1" && got == "passed":
		default:
			t.Errorf("%s in JUnit: %q", id, got)
		}
	}
	if skipped != len(cases)-1 && skipped != len(cases) {
		t.Errorf("%d of %d rule test cases skipped", skipped, len(cases))
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(junit), "junit-px.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	var failures []string
	for _, s := range suites.TestSuites {
		for _, c := range s.TestCases {
			if c.Failure != nil || c.Error != nil {
				failures = append(failures, c.Name)
				if c.Failure != nil && c.Name == "[ReportAfterSuite] "+SetupNode {
					for cause, rules := range causes {
						if !strings.Contains(c.Failure.Message, "\n  ["+verdict.Plural(rules, "rule")+"] "+cause) {
							t.Errorf("JUnit's failure of %s lacks %q:\n%s", SetupNode, cause, c.Failure.Message)
						}
					}
				}
			}
		}
	}
	if len(failures) != 1 || failures[0] != "[ReportAfterSuite] "+SetupNode {
		t.Errorf("JUnit's failures %q, want only %s's", failures, SetupNode)
	}
	return out
}

// A compiler wrapper that refuses everything breaks each implementation's
// capability probe: one cause per implementation, naming the command, its
// exit and what it said; every rule on it is not judged; the run fails.
func TestBrokenCompilerOneLinePerImplementation(t *testing.T) {
	dir := brokenSetupModule(t)
	cc, env := brokenCompiler(t)
	oneCauseRun(t, dir, env, func() map[string]int {
		causes := map[string]int{}
		for _, im := range []string{"alpha", "beta"} {
			causes[im+": the capability probe broke: build caps_after_init (`"+cc+" -std=gnu11 -I…/lib -g -O1 -o …/caps_after_init.tmp …/caps_after_init.c …/mpits_record.c`) exited with status 1: mpicc: error: cannot find the C compiler gcc-99 (output kept in "+keptBuild(t, env, im, "caps_after_init")+")"] = 13
		}
		return causes
	})
}

// A fixture that does not build for an implementation whose probe worked
// leaves the rules that run it not judged, one cause per implementation;
// the other rules are judged.
func TestSharedBuildOneLinePerImplementation(t *testing.T) {
	dir := brokenSetupModule(t)
	cc, env := brokenCompiler(t)
	run := strings.TrimPrefix(env[1], settings.RunDirEnv+"=")
	for _, im := range []string{"alpha", "beta"} { // probed already, well
		plantProbe(t, run, strings.TrimPrefix(env[0], "MPITS_IMPLEMENTATIONS="), im)
	}
	out := oneCauseRun(t, dir, env, func() map[string]int {
		causes := map[string]int{}
		for _, im := range []string{"alpha", "beta"} {
			causes[im+": fixture hello did not build: build hello (`"+cc+" -std=gnu11 -I…/lib -g -O1 -o …/hello.tmp …/launch_check.c …/mpits_record.c`) exited with status 1: mpicc: error: cannot find the C compiler gcc-99 (output kept in "+keptBuild(t, env, im, "hello")+")"] = 12
		}
		return causes
	})
	if !strings.Contains(out, "FAIL! -- 2 Passed | 0 Failed | 0 Pending | 24 Skipped") {
		t.Error("R-D1 was not judged on both implementations")
	}
}

// An error of a rule that fails the run ends its spec without a Go stack
// trace, and is a JUnit <error>, apart from failures.
func TestErrorWithoutStackTrace(t *testing.T) {
	dir, env := twoSuites(t)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	b, err := goCommand(t, dir, append(env, settings.StrictEnv+"=quality"), "test", "-count=1", "./suites/pa", "-args", "-ginkgo.no-color", "-ginkgo.junit-report="+junit).CombinedOutput()
	out := string(b)
	if err == nil {
		t.Fatalf("go test passed, though R-FAIL fails and R-QERR errs:\n%s", out)
	}
	if !strings.Contains(out, "[FAILED] error: the fixture died\n") || strings.Contains(out, "Full Stack Trace") || strings.Contains(out, "[PANICKED]") {
		t.Errorf("R-QERR's error is not a failure without a stack trace:\n%s", out)
	}
	cases := readJUnit(t, filepath.Join(filepath.Dir(junit), "junit-pa.xml"))
	for id, want := range map[string]string{"R-QERR": "error: error: the fixture died", "R-FAIL": "failure: fail: it broke", "R-QUAL": "failure: fail: it broke quietly"} {
		if got := cases[id].outcome(); !strings.HasPrefix(got, want) {
			t.Errorf("%s in JUnit: %q, want %q…", id, got, want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(junit), "junit-pa.xml"))
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	if suites.Errors != 1 || suites.Failures != 2 || len(suites.TestSuites) != 1 || suites.TestSuites[0].Errors != 1 || suites.TestSuites[0].Failures != 2 {
		t.Errorf("JUnit counts %d errors and %d failures, want 1 and 2:\n%s", suites.Errors, suites.Failures, data)
	}
}
