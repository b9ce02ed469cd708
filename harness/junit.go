package harness

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// JUnit, as a vendor's CI ingests it. The suites write it themselves, not
// Ginkgo (Run takes -ginkgo.junit-report from Ginkgo), for three reasons:
//
//   - go test ./suites/... runs every suite package with the same flags, so
//     an absolute path (or one above the package folder) would be
//     overwritten by each package in turn: each writes its own file, the
//     package's name put before the extension (JUnitPath);
//   - a quality or interpretation rule that fails or errs without failing
//     the run is a passed spec to Ginkgo: in JUnit it is skipped, with its
//     verdict and reason, never a passed test case;
//   - a failure is located at the rule's judge, not at the harness line
//     that reports every verdict.

// JUnitPath is where this package's JUnit goes when the run asks for
// path: a relative path that stays in the package folder (go test runs each
// package there) as given, and so a path whose name ends with the
// package's name already ("junit/mpit.xml"); any other gets "-<package>"
// before its extension: /out/junit.xml is /out/junit-mpit.xml for the
// package suites/mpit.
func JUnitPath(path, pkg string) string {
	if path == "" || !filepath.IsAbs(path) && filepath.IsLocal(path) {
		return path
	}
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	if base := filepath.Base(stem); base == pkg || strings.HasSuffix(base, "-"+pkg) || strings.HasSuffix(base, "_"+pkg) {
		return path
	}
	return stem + "-" + pkg + ext
}

// packageName is the name of the folder the test runs in: its package's.
func packageName() string {
	wd, err := os.Getwd()
	if err != nil {
		return "suite"
	}
	return filepath.Base(wd)
}

// WriteJUnit writes the suite's report as JUnit to path (JUnitReport),
// a rule's error as an <error>, not a <failure> (errorsApart). Ginkgo
// writes it in a folder of this process's own, and the file reaches path
// through a new file beside it and a rename: a link or a FIFO another
// user put at path is replaced, never followed or waited on.
func WriteJUnit(r types.Report, path string) error {
	tmp, err := os.MkdirTemp("", "mpits-junit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	gen := filepath.Join(tmp, "junit.xml")
	if err := reporters.GenerateJUnitReport(JUnitReport(r), gen); err != nil {
		return err
	}
	data, err := os.ReadFile(gen)
	if err == nil {
		data, err = errorsApart(data)
	}
	if err != nil {
		return err
	}
	return mpi.WriteAtomic(path, data, 0o644)
}

// errorsApart rewrites a JUnit file so that each failed test case whose
// verdict is an error is a JUnit <error> (type "error"): the fixture or
// the suite broke, not the implementation. Its spec failed to Ginkgo
// (report), which has no such state but a panic.
func errorsApart(data []byte) ([]byte, error) {
	var suites reporters.JUnitTestSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		return nil, fmt.Errorf("the JUnit report Ginkgo wrote: %v", err)
	}
	changed := false
	for i := range suites.TestSuites {
		s := &suites.TestSuites[i]
		for k := range s.TestCases {
			c := &s.TestCases[k]
			if c.Failure == nil || c.Failure.Type != "failed" || caseVerdict(*c).Status != verdict.Error {
				continue
			}
			c.Error = &reporters.JUnitError{Message: c.Failure.Message, Type: "error", Description: c.Failure.Description}
			c.Failure = nil
			s.Failures--
			s.Errors++
			suites.Failures--
			suites.Errors++
			changed = true
		}
	}
	if !changed {
		return data, nil
	}
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), out...), nil
}

// caseVerdict is the verdict a JUnit test case's spec recorded (its
// "verdict" property), or none.
func caseVerdict(c reporters.JUnitTestCase) verdict.Verdict {
	var v verdict.Verdict
	if c.Properties != nil {
		for _, p := range c.Properties.Properties {
			if p.Name == "verdict" {
				json.Unmarshal([]byte(p.Value), &v)
			}
		}
	}
	return v
}

// JUnitReport is the report as JUnit should show it: a rule's fail or error
// that did not fail the run (a quality or interpretation rule) skipped,
// with what it was and why; a failed or broken rule located at its judge.
// Specs that broke before a verdict (a panic in a judge) keep Ginkgo's
// location, which is where it broke. The failure of SetupNode has every
// cause that left rules not judged, one line each.
func JUnitReport(r types.Report) types.Report {
	r.SpecReports = slices.Clone(r.SpecReports)
	for i, sp := range r.SpecReports {
		if sp.LeafNodeType == types.NodeTypeReportAfterSuite && sp.LeafNodeText == SetupNode && sp.State.Is(types.SpecStateFailed) {
			if msg := setupFailure(r, true); msg != "" {
				r.SpecReports[i].Failure.Message = msg
			}
			continue
		}
		var j Judged
		var v verdict.Verdict
		for _, e := range sp.ReportEntries {
			switch e.Name {
			case "rule":
				entryValue(e, &j)
			case "verdict":
				entryValue(e, &v)
			}
		}
		if j.ID == "" || v.Status != verdict.Fail && v.Status != verdict.Error {
			continue
		}
		at := types.CodeLocation{FileName: j.File, LineNumber: j.Line}
		switch {
		case sp.State.Is(types.SpecStatePassed):
			sp.State = types.SpecStateSkipped
			sp.Failure = types.Failure{
				Message: fmt.Sprintf("%s, reported without failing the run (%s rule; %s=%s fails the run on it): %s\n%s",
					v.Status, j.Basis, settings.StrictEnv, j.Basis, v.Reason, rulePointer(j.ID, j.File, j.Line)),
				Location: at, FailureNodeType: types.NodeTypeIt, FailureNodeLocation: sp.LeafNodeLocation,
			}
		case sp.State.Is(types.SpecStateFailed | types.SpecStatePanicked):
			sp.Failure.Location = at
		}
		r.SpecReports[i] = sp
	}
	return r
}

// rulePointer says where to read more of a rule: its judge's file and line,
// and its finding page where the source tree has one.
func rulePointer(id, file string, line int) string {
	s := fmt.Sprintf("judge: %s:%d", file, line)
	if page := findingPage(id); page != "" {
		s += "; finding: " + page
	}
	return s
}

// FindingsDir holds, in the source tree, a page per rule that fails on a
// real implementation.
const FindingsDir = "reports/findings"

// findingPage is the rule's finding page, from the root of the source tree,
// or "" when it has none.
func findingPage(id string) string {
	root := sourceRoot()
	if root == "" {
		return ""
	}
	page := filepath.Join(FindingsDir, id+".md")
	if _, err := os.Stat(filepath.Join(root, page)); err != nil {
		return ""
	}
	return page
}

// sourceRoot is moduleRoot, looked up once.
var sourceRoot = sync.OnceValue(settings.ModuleRoot)
