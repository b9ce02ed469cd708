package harness

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

func TestJUnitPath(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"", ""},
		{"junit.xml", "junit.xml"},                     // in the package folder
		{"out/junit.xml", "out/junit.xml"},             // below it
		{"../../junit.xml", "../../junit-mpit.xml"},    // shared by every package
		{"/out/junit.xml", "/out/junit-mpit.xml"},      // shared by every package
		{"/out/junit", "/out/junit-mpit"},              // no extension
		{"/out/junit/mpit.xml", "/out/junit/mpit.xml"}, // ci/run-suites: named already
		{"/out/junit-mpit.xml", "/out/junit-mpit.xml"},
		{"/out/junit_mpit.xml", "/out/junit_mpit.xml"},
		{"/out/qmpit.xml", "/out/qmpit-mpit.xml"},
	} {
		if got := JUnitPath(c.path, "mpit"); got != c.want {
			t.Errorf("JUnitPath(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}

// A rule spec as declare and report leave it in the report.
func ruleSpec(id string, basis rulebook.Basis, state types.SpecState, v verdict.Verdict) types.SpecReport {
	sp := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "on impl-a", ContainerHierarchyTexts: []string{id}, State: state,
		LeafNodeLocation: types.CodeLocation{FileName: "suites/x/judges.go", LineNumber: 7}}
	j := Judged{RuleInfo: rulebook.RuleInfo{ID: id, Basis: basis, File: "suites/x/judges.go", Line: 7}, Impl: "impl-a"}
	sp.ReportEntries = []types.ReportEntry{{Name: "rule", Value: types.WrapEntryValue(j)}, {Name: "verdict", Value: types.WrapEntryValue(v)}}
	switch state {
	case types.SpecStateFailed:
		sp.Failure = types.Failure{Message: string(v.Status) + ": " + v.Reason, Location: types.CodeLocation{FileName: "harness/suite.go", LineNumber: 303}}
	case types.SpecStateSkipped:
		sp.Failure = types.Failure{Message: "unsupported: " + v.Reason}
	}
	return sp
}

// In JUnit a quality fail or error that did not fail the run is skipped
// with its reason, never passed; a failure is at the rule's judge.
func TestJUnitReport(t *testing.T) {
	r := types.Report{SuiteDescription: "X", SpecReports: []types.SpecReport{
		ruleSpec("R-QUAL", rulebook.Quality, types.SpecStatePassed, verdict.Verdict{Status: verdict.Fail, Reason: "it broke quietly"}),
		ruleSpec("R-QERR", rulebook.Interpretation, types.SpecStatePassed, verdict.Verdict{Status: verdict.Error, Reason: "the fixture died"}),
		ruleSpec("R-FAIL", rulebook.Normative, types.SpecStateFailed, verdict.Verdict{Status: verdict.Fail, Reason: "it broke"}),
		ruleSpec("R-ERR", rulebook.Normative, types.SpecStateFailed, verdict.Verdict{Status: verdict.Error, Reason: "the fixture died"}),
		ruleSpec("R-PASS", rulebook.Normative, types.SpecStatePassed, verdict.Verdict{Status: verdict.Pass, Reason: "fine"}),
		ruleSpec("R-UNS", rulebook.Normative, types.SpecStateSkipped, verdict.Verdict{Status: verdict.Unsupported, Reason: "no MPI_T"}),
	}}
	out := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(r, out); err != nil {
		t.Fatal(err)
	}
	cases := readJUnit(t, out)
	want := map[string]string{
		"R-QUAL": "skipped: skipped - fail, reported without failing the run (quality rule; MPITS_STRICT=quality fails the run on it): it broke quietly\njudge: suites/x/judges.go:7",
		"R-QERR": "skipped: skipped - error, reported without failing the run (interpretation rule; MPITS_STRICT=interpretation fails the run on it): the fixture died\njudge: suites/x/judges.go:7",
		"R-FAIL": "failure: fail: it broke",
		"R-ERR":  "error: error: the fixture died",
		"R-PASS": "passed",
		"R-UNS":  "skipped: skipped - unsupported: no MPI_T",
	}
	for id, w := range want {
		c, ok := cases[id]
		if !ok {
			t.Errorf("no test case for %s", id)
			continue
		}
		if got := c.outcome(); got != w {
			t.Errorf("%s: %q, want %q", id, got, w)
		}
	}
	if d := cases["R-FAIL"].Failure.Description; !strings.Contains(d, "suites/x/judges.go:7") || strings.Contains(d, "harness/suite.go") {
		t.Errorf("R-FAIL's failure is not at its judge:\n%s", d)
	}
}

type junitCase struct {
	reporters.JUnitTestCase
}

func (c junitCase) outcome() string {
	switch {
	case c.Failure != nil:
		return "failure: " + c.Failure.Message
	case c.Error != nil:
		return "error: " + c.Error.Message
	case c.Skipped != nil:
		return "skipped: " + c.Skipped.Message
	}
	return "passed"
}

// readJUnit is a JUnit file's rule test cases by rule id (from the
// "rule" property, the report entry the spec recorded).
func readJUnit(t *testing.T, path string) map[string]junitCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]junitCase{}
	for _, s := range suites.TestSuites {
		for _, c := range s.TestCases {
			if c.Properties == nil {
				continue
			}
			for _, p := range c.Properties.Properties {
				var j Judged
				if p.Name == "rule" && json.Unmarshal([]byte(p.Value), &j) == nil && j.ID != "" {
					out[j.ID] = junitCase{c}
				}
			}
		}
	}
	return out
}

// Two suite packages of a module, on a fake implementation whose
// capabilities are in the run folder already (no MPI is run): their judges
// give fixed verdicts.
func twoSuites(t *testing.T) (dir string, env []string) {
	if testing.Short() {
		t.Skip("slow: builds and runs go test of a module of two suites, 1-3 s each time (minutes on a cold build cache); run without -short")
	}
	suite := func(pkg, name string, rules string) string {
		return `package ` + pkg + `

import (
	"testing"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func fixed(s verdict.Status, reason string) func(*rulebook.X) verdict.Verdict {
	return func(*rulebook.X) verdict.Verdict { return verdict.Verdict{Status: s, Reason: reason} }
}

var Suite = &harness.Suite{Name: "` + name + `", Checks: []rulebook.Check{{ID: "C-` + name + `", Title: "fixed verdicts", Needs: "mpi", Rules: []rulebook.Rule{
` + rules + `}}}}

func Test` + name + `(t *testing.T) { Suite.Run(t) }
`
	}
	dir = testModule(t, map[string]string{
		"suites/pa/pa_test.go": suite("pa", "PA", `	{ID: "R-FAIL", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "fails", Judge: fixed(verdict.Fail, "it broke")},
	{ID: "R-QUAL", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Quality, Text: "fails, reported", Judge: fixed(verdict.Fail, "it broke quietly")},
	{ID: "R-QERR", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Quality, Text: "errs, reported", Judge: fixed(verdict.Error, "the fixture died")},
	{ID: "R-PASS", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "passes", Judge: func(*rulebook.X) verdict.Verdict { return rulebook.Exposed(1, "things", "fine") }},
`),
		"suites/pb/pb_test.go": suite("pb", "PB", `	{ID: "R-B", Source: "seed 000", Basis: rulebook.SeedBasis, Text: "fails", Judge: fixed(verdict.Fail, "it broke too")},
`),
		"reports/findings/R-FAIL.md": "# R-FAIL\n",
		RulesFile: `{"rules": [
{"id": "R-FAIL", "suite": "PA", "check": "C-PA", "source": "MPI-5.0 §15.3.3", "basis": "normative", "needs": "mpi", "injectors": []},
{"id": "R-QUAL", "suite": "PA", "check": "C-PA", "source": "MPI-5.0 §15.3.3", "basis": "quality", "needs": "mpi", "injectors": []},
{"id": "R-QERR", "suite": "PA", "check": "C-PA", "source": "MPI-5.0 §15.3.3", "basis": "quality", "needs": "mpi", "injectors": []},
{"id": "R-PASS", "suite": "PA", "check": "C-PA", "source": "MPI-5.0 §15.3.3", "basis": "normative", "needs": "mpi", "injectors": []},
{"id": "R-B", "suite": "PB", "check": "C-PB", "source": "seed 000", "basis": "seed", "needs": "mpi", "injectors": []}
]}
`,
	})
	tmp := t.TempDir()
	impls := mpitest.WriteFile(t, filepath.Join(tmp, "impls.json"), `{"implementations":[{"id":"fake","available":true,"cc":"/bin/true","launcher":"/bin/true"}]}`, 0o644)
	run := filepath.Join(tmp, "run")
	plantProbe(t, run, impls, "fake")
	return dir, []string{"MPITS_IMPLEMENTATIONS=" + impls, settings.RunDirEnv + "=" + run, "MPITS_PROGRESS=0"}
}

// With an absolute -ginkgo.junit-report every package of go test ./...
// writes its own file, and each failure there points at its rule's judge
// and finding page.
func TestJUnitOnePerPackage(t *testing.T) {
	dir, env := twoSuites(t)
	out := t.TempDir()
	junit := filepath.Join(out, "junit.xml")
	b, err := goCommand(t, dir, env, "test", "-count=1", "./...", "-args", "-ginkgo.junit-report="+junit, "-ginkgo.no-color").CombinedOutput()
	if err == nil {
		t.Fatalf("go test passed, though R-FAIL and R-B fail:\n%s", b)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "junit-pa.xml junit-pb.xml" {
		t.Fatalf("JUnit files %q, want junit-pa.xml junit-pb.xml\n%s", names, b)
	}
	pa, pb := readJUnit(t, filepath.Join(out, "junit-pa.xml")), readJUnit(t, filepath.Join(out, "junit-pb.xml"))
	for _, c := range []struct {
		cases map[string]junitCase
		id    string
		want  []string
	}{
		{pa, "R-FAIL", []string{"failure: fail: it broke\njudge: suites/pa/pa_test.go:", "; finding: reports/findings/R-FAIL.md"}},
		{pa, "R-QUAL", []string{"skipped: skipped - fail, reported without failing the run (quality rule; MPITS_STRICT=quality fails the run on it): it broke quietly\njudge: suites/pa/pa_test.go:"}},
		{pa, "R-QERR", []string{"skipped: skipped - error, reported without failing the run (quality rule; MPITS_STRICT=quality fails the run on it): the fixture died"}},
		{pa, "R-PASS", []string{"passed"}},
		{pb, "R-B", []string{"failure: fail: it broke too\njudge: suites/pb/pb_test.go:"}},
	} {
		got := c.cases[c.id].outcome()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q\nwant it to hold %q", c.id, got, w)
			}
		}
	}
	if strings.Contains(pb["R-B"].outcome(), "finding:") {
		t.Errorf("R-B has no finding page, but its failure names one: %q", pb["R-B"].outcome())
	}
	if f := pa["R-FAIL"].Failure; f == nil || !strings.Contains(f.Description, "suites/pa/pa_test.go:") {
		t.Errorf("R-FAIL's failure is not at its judge: %+v", f)
	}
	if !strings.Contains(string(b), "judge: suites/pa/pa_test.go:") {
		t.Errorf("the console does not name R-FAIL's judge:\n%s", b)
	}
}

// A filter that selects another package's rule passes in this package; one
// that selects no spec of any suite fails every package, saying so.
func TestEmptySelectionFails(t *testing.T) {
	dir, env := twoSuites(t)
	b, err := goCommand(t, dir, env, "test", "-count=1", "./...", "-args", "-ginkgo.label-filter=R-QUAL").CombinedOutput()
	if err != nil {
		t.Fatalf("a filter selecting R-QUAL of pa failed:\n%s", b)
	}
	b, err = goCommand(t, dir, env, "test", "-count=1", "./...", "-args", "-ginkgo.label-filter=impl:fak && !selftest").CombinedOutput()
	if err == nil {
		t.Fatalf("a filter selecting nothing passed:\n%s", b)
	}
	want := `mpits: the label filter "impl:fak && !selftest" matched no spec in any suite (PA, PB): no spec carries impl:fak (the run's implementations: fake) — did you mean impl:fake?`
	if n := strings.Count(string(b), want); n != 2 {
		t.Errorf("%d lines %q, want one per package:\n%s", n, want, b)
	}
	if n := strings.Count(string(b), "FAIL\tmpitstest/suites/"); n != 2 {
		t.Errorf("%d packages failed, want 2:\n%s", n, b)
	}
}

// JUnit reaches its path through a new file and a rename: a link another
// user put there is replaced, the file it points to unchanged; a FIFO is
// replaced, never waited on.
func TestJUnitNeverFollowsALink(t *testing.T) {
	secret, link, fifo := mpitest.Planted(t, t.TempDir())
	for _, p := range []string{link, fifo} {
		if err := WriteJUnit(types.Report{SuiteDescription: "S"}, p); err != nil {
			t.Fatal(err)
		}
		if info, err := os.Lstat(p); err != nil || !info.Mode().IsRegular() {
			t.Errorf("%s is %v (%v) after the write, want a regular file", p, info.Mode(), err)
		}
	}
	mpitest.SecretUnchanged(t, secret)
}
