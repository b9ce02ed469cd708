package harness

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// Known failures. A vendor's CI accepts what its MPI does today and fails
// only on what changes:
//
//	MPITS_EXPECT=$PWD/mpits-expect MPITS_EXPECT_UPDATE=1 go test ./suites/...  # writes the files
//	MPITS_EXPECT=$PWD/mpits-expect go test ./suites/...                        # compares with them
//
// MPITS_EXPECT is a folder with one file per suite (MPI_T.expect, ...): the
// suites of one go test run are separate processes running side by side,
// and each writes only its own file. A file has one line per rule and
// implementation whose verdict is not pass (a pair with no line is expected
// to pass), with the reason after '#':
//
//	STR-3 mpich-tools fail  # source: 2 calls broke it; ...
//
// Only the status is compared. A verdict equal to the file's passes its spec
// (a fail or an error ends it skipped, saying it was expected, with its
// reason); any other verdict of a rule that fails the run (Strict) fails the
// spec, naming the change ("expected fail, now pass: update the file").
// With MPITS_EXPECT_UPDATE=1 every verdict is accepted and the suite's file
// is rewritten at the end: the pairs judged take their new status, a line
// whose status stays keeps its comment (a vendor's own note survives), the
// other lines stay (a run of a slice rewrites its slice), and lines of rules
// the suite no longer has go. Without it nothing is ever written: a missing
// folder is a bad setting (a CI that lost its file must not pass), a missing
// file of one suite expects every verdict of that suite to pass.

const (
	// ExpectEntry is the report entry of a spec compared with the file.
	ExpectEntry = "expectation"
	expectExt   = ".expect"
)

// Expectation is one line of an expectations file.
type Expectation struct {
	Rule   string
	Impl   string
	Status verdict.Status
	// Comment is the text after '#': the reason given when the line was
	// written, or the vendor's own note. It is never compared.
	Comment string
	Line    int // in the file; 0 when there is no line (expected to pass)
}

// ExpectFile is one suite's expectations.
type ExpectFile struct {
	Path   string
	Exists bool
	Lines  []Expectation
	byKey  map[string]int
}

func expectKey(rule, impl string) string { return rule + "\x00" + impl }

// ExpectFileName is the file of suite in an MPITS_EXPECT folder.
func ExpectFileName(suite string) string { return strings.ReplaceAll(suite, " ", "_") + expectExt }

// ParseExpectations reads an expectations file's text. Its error names the
// line and what it should be.
func ParseExpectations(path string, data []byte) (*ExpectFile, error) {
	f := &ExpectFile{Path: path, Exists: true, byKey: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		text, comment, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: %q is not RULE IMPLEMENTATION STATUS [# reason]", path, n, strings.TrimSpace(sc.Text()))
		}
		e := Expectation{Rule: fields[0], Impl: fields[1], Status: verdict.Status(fields[2]), Comment: strings.TrimSpace(comment), Line: n}
		switch e.Status {
		case verdict.Pass, verdict.Fail, verdict.Error, verdict.Unsupported:
		default:
			return nil, fmt.Errorf("%s:%d: status %q is none of fail, error, unsupported, pass", path, n, fields[2])
		}
		if i, ok := f.byKey[expectKey(e.Rule, e.Impl)]; ok {
			return nil, fmt.Errorf("%s:%d: %s on %s is already on line %d: keep one", path, n, e.Rule, e.Impl, f.Lines[i].Line)
		}
		f.byKey[expectKey(e.Rule, e.Impl)] = len(f.Lines)
		f.Lines = append(f.Lines, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return f, nil
}

// ReadExpectations reads suite's file in dir; a missing file is an empty
// one (every verdict expected to pass), Exists false.
func ReadExpectations(dir, suite string) (*ExpectFile, error) {
	path := filepath.Join(dir, ExpectFileName(suite))
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &ExpectFile{Path: path, byKey: map[string]int{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s=%s: cannot read %s: %v", settings.ExpectEnv, dir, path, errors.Unwrap(err))
	}
	return ParseExpectations(path, data)
}

// Expect is what the file expects of rule on impl: its line, or pass.
func (f *ExpectFile) Expect(rule, impl string) Expectation {
	if i, ok := f.byKey[expectKey(rule, impl)]; ok {
		return f.Lines[i]
	}
	return Expectation{Rule: rule, Impl: impl, Status: verdict.Pass}
}

// where is the line's place, for messages: "MPI_T.expect:9", or that the
// file has none.
func (f *ExpectFile) where(e Expectation) string {
	name := filepath.Base(f.Path)
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d", name, e.Line)
	case !f.Exists:
		return "no " + name
	}
	return "no line in " + name
}

// impls are the implementations the file names.
func (f *ExpectFile) impls() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range f.Lines {
		if !seen[e.Impl] {
			seen[e.Impl] = true
			out = append(out, e.Impl)
		}
	}
	sort.Strings(out)
	return out
}

// Seen is one verdict of a run, as an update writes it.
type Seen struct {
	Rule, Impl string
	Status     verdict.Status
	Reason     string
}

// Update is the file's lines after a run that judged seen: each pair judged
// takes its status (pass: no line), keeping its comment where the status
// stays; a pair not judged keeps its line unless has says its rule is gone.
// The lines come sorted by rule, then implementation.
func (f *ExpectFile) Update(seen []Seen, has func(rule string) bool) []Expectation {
	judged := map[string]bool{}
	var out []Expectation
	for _, s := range seen {
		judged[expectKey(s.Rule, s.Impl)] = true
		if s.Status == verdict.Pass {
			continue
		}
		e := Expectation{Rule: s.Rule, Impl: s.Impl, Status: s.Status, Comment: verdict.FirstLine(s.Reason)}
		if old := f.Expect(s.Rule, s.Impl); old.Line > 0 && old.Status == s.Status {
			e.Comment = old.Comment
		}
		out = append(out, e)
	}
	for _, e := range f.Lines {
		if !judged[expectKey(e.Rule, e.Impl)] && has(e.Rule) && e.Status != verdict.Pass {
			out = append(out, e)
		}
	}
	sortExpectations(out)
	return out
}

func sortExpectations(l []Expectation) {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Rule != l[j].Rule {
			return l[i].Rule < l[j].Rule
		}
		return l[i].Impl < l[j].Impl
	})
}

// FormatExpectations is the text of suite's file: a header saying how to
// read it, then one line per expectation that is not pass, in order.
func FormatExpectations(suite string, lines []Expectation) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# mpits expectations of suite %s: one line per rule and implementation whose\n", suite)
	b.WriteString("# verdict is not pass (a pair not listed is expected to pass):\n")
	b.WriteString("#   RULE IMPLEMENTATION STATUS  # reason\n")
	b.WriteString("# Only the status is compared. The text after # is the reason given when the\n")
	fmt.Fprintf(&b, "# line was written (or your own note): %s=1 rewrites the file,\n", settings.ExpectUpdateEnv)
	b.WriteString("# keeping it while the status stays.\n")
	for _, e := range lines {
		if e.Status == verdict.Pass {
			continue
		}
		fmt.Fprintf(&b, "%s %s %s", e.Rule, e.Impl, e.Status)
		if c := strings.TrimSpace(strings.ReplaceAll(e.Comment, "\n", " ")); c != "" {
			b.WriteString("  # " + c)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// expectState is this process's MPITS_EXPECT: the suite's file, whether
// the run rewrites it, and the suite's rule ids.
type expectState struct {
	dir    string
	file   *ExpectFile
	update bool
	has    map[string]bool
	suite  string
}

// expecting is this process's MPITS_EXPECT, one state per suite it runs
// (each suite has its own file); nil without MPITS_EXPECT.
var expecting expectStates

type expectStates map[string]*expectState

// sorted are the states in the order of their suites' names.
func (e expectStates) sorted() []*expectState {
	var out []*expectState
	for _, k := range slices.Sorted(maps.Keys(e)) {
		out = append(out, e[k])
	}
	return out
}

// readVendorSettings reads MPITS_EXPECT, MPITS_EXPECT_UPDATE and
// MPITS_INJECT (inject.go) for suite s (for each of a combined suite's
// parts); its error is one line naming the setting.
func (s *Suite) readVendorSettings() error {
	expecting = nil
	if err := readInject(s); err != nil {
		return err
	}
	u := settings.Setting(settings.ExpectUpdateEnv)
	if err := u.Err(); err != nil {
		return err
	}
	dir, update := settings.Setting(settings.ExpectEnv).String(), ""
	if u.String() == "1" {
		update = "1"
	}
	if dir == "" {
		if update != "" {
			return fmt.Errorf("%s=1 needs %s, the folder to write the expectations to", settings.ExpectUpdateEnv, settings.ExpectEnv)
		}
		return nil
	}
	abs, err := resolveFromInvocation(dir)
	if err != nil {
		return fmt.Errorf("%s=%s: %v; give an absolute path", settings.ExpectEnv, dir, err)
	}
	st, err := os.Stat(abs)
	switch {
	case err == nil && !st.IsDir():
		var names []string
		for _, p := range s.Parts() {
			names = append(names, ExpectFileName(p.Name))
		}
		return fmt.Errorf("%s=%s is a file: it names a folder, which holds one file per suite (%s)", settings.ExpectEnv, abs, strings.Join(names, ", "))
	case err != nil && update == "":
		return fmt.Errorf("%s=%s does not exist: write it first with %s=1 (a run never writes it otherwise)", settings.ExpectEnv, abs, settings.ExpectUpdateEnv)
	}
	states := expectStates{}
	for _, p := range s.Parts() {
		f, err := ReadExpectations(abs, p.Name)
		if err != nil {
			return err
		}
		has := map[string]bool{}
		for _, c := range p.Checks {
			for _, r := range c.AllRules() {
				has[r.ID] = true
			}
		}
		states[p.Name] = &expectState{dir: abs, file: f, update: update != "", has: has, suite: p.Name}
	}
	expecting = states
	return nil
}

// resolveFromInvocation makes a relative path absolute. mpits run gives it
// absolute already (from the folder it was started in); go test runs each
// suite in its own package folder, so a relative path there is from the
// module's root (go test ./suites/... is started there), else from the
// working folder.
func resolveFromInvocation(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	base := settings.ModuleRoot()
	if base == "" {
		var err error
		if base, err = os.Getwd(); err != nil {
			return "", fmt.Errorf("the folder it is relative to cannot be found (%v)", err)
		}
	}
	return filepath.Join(base, p), nil
}

// ExpectResult is what a spec compared with the file records (ExpectEntry).
type ExpectResult struct {
	Expected verdict.Status `json:"expected"`
	Line     int            `json:"line,omitempty"` // the file's line; 0: none (expected to pass)
	Now      verdict.Status `json:"now"`
	// Failing: the change fails the spec (a rule that fails the run, and
	// no update); a change of another rule is only reported.
	Failing bool   `json:"failing,omitempty"`
	Where   string `json:"where"` // "MPI_T.expect:9", "no line in MPI_T.expect"
}

// String is how a failed spec's report shows it.
func (e ExpectResult) String() string {
	return fmt.Sprintf("expected %s (%s), now %s", e.Expected, e.Where, e.Now)
}

// Changed says whether the verdict is not the one expected.
func (e ExpectResult) Changed() bool { return e.Expected != e.Now }

// What a verdict compared with the file does to its spec.
type expectAction int

const (
	leaveToReport expectAction = iota // report ends it as without a file
	skipExpected                      // a fail or error the file expects (or an update accepts)
	failChanged                       // a change of a rule that fails the run
)

// compare is rule r's verdict v on impl against the file; strict says
// whether a fail of r fails the run (Strict).
func (st *expectState) compare(r rulebook.Rule, impl string, v verdict.Verdict, strict bool) (ExpectResult, expectAction) {
	want := st.file.Expect(r.ID, impl)
	res := ExpectResult{Expected: want.Status, Line: want.Line, Now: v.Status, Where: st.file.where(want)}
	res.Failing = res.Changed() && !st.update && strict
	switch {
	case res.Failing:
		return res, failChanged
	case v.Status != verdict.Fail && v.Status != verdict.Error:
		return res, leaveToReport
	case res.Changed() && !st.update:
		// a quality or interpretation rule's change: report says it, the
		// summary lists it
		return res, leaveToReport
	}
	return res, skipExpected
}

// expectVerdict compares rule r's verdict v on impl with the file, when
// the run has one: a fail or error the file expects ends its spec skipped,
// saying so with its reason; a change of a rule that fails the run fails
// the spec, naming it. Anything else returns, for report to end the spec
// as without a file. With MPITS_EXPECT_UPDATE every verdict is accepted.
func expectVerdict(suite string, r rulebook.Rule, impl string, v verdict.Verdict) {
	st := expecting[suite]
	if st == nil {
		return
	}
	res, action := st.compare(r, impl, v, rulebook.Strict(r.Basis, ginkgo.GinkgoLabelFilter()))
	ginkgo.AddReportEntry(ExpectEntry, res, quiet)
	if action == leaveToReport {
		return
	}
	v.Evidence = capText(v.Evidence, evidenceCap)
	ginkgo.AddReportEntry("verdict", v, quiet)
	if action == failChanged {
		ginkgo.Fail(st.changeMessage(r.ID, impl, res, v))
	}
	ginkgo.Skip(st.expectedMessage(res, v))
}

// expectedMessage is the skip message of a fail or error the file expects
// (or an update accepts), with its reason.
func (st *expectState) expectedMessage(res ExpectResult, v verdict.Verdict) string {
	how := "as expected (" + res.Where + ")"
	if st.update && res.Changed() {
		how = fmt.Sprintf("accepted: %s=1 writes it to %s", settings.ExpectUpdateEnv, filepath.Base(st.file.Path))
	}
	return fmt.Sprintf("%s, %s: %s", v.Status, how, verdict.FirstLine(v.Reason))
}

// changeLine is a change in one line: "STR-3 on mpich-tools: expected
// fail (MPI_T.expect:9), now pass".
func changeLine(rule, impl string, res ExpectResult) string {
	return fmt.Sprintf("%s on %s: expected %s (%s), now %s", rule, impl, res.Expected, res.Where, res.Now)
}

// changeMessage is a changed verdict's failure: the change, what to do,
// and the new verdict's reason and evidence.
func (st *expectState) changeMessage(rule, impl string, res ExpectResult, v verdict.Verdict) string {
	var b strings.Builder
	b.WriteString(changeLine(rule, impl, res))
	if res.Now == verdict.Pass {
		fmt.Fprintf(&b, ": update the file (%s=1)", settings.ExpectUpdateEnv)
	} else {
		b.WriteString(": " + verdict.FirstLine(v.Reason))
	}
	if res.Line == 0 && st.file.Exists {
		if ids := st.file.impls(); len(ids) > 0 && !contains(ids, impl) {
			fmt.Fprintf(&b, "\n(%s has no line on %s, only on %s: was it written under another MPITS_IMPL_ID?)", filepath.Base(st.file.Path), impl, strings.Join(ids, ", "))
		}
	}
	if res.Now == verdict.Pass && v.Reason != "" {
		b.WriteString("\nnow: " + v.Reason)
	}
	if v.Evidence != "" && v.Evidence != v.Reason {
		b.WriteString("\n" + v.Evidence)
	}
	if res.Now != verdict.Pass {
		fmt.Fprintf(&b, "\nOnce the change is accepted, %s=1 writes it to %s.", settings.ExpectUpdateEnv, st.file.Path)
	}
	return b.String()
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// expectAfterSuite ends a run with MPITS_EXPECT: with an update it writes
// each suite's file; either way it returns the lines the summary adds (the
// changes, the count of verdicts as expected, stale lines), suite by suite.
func expectAfterSuite(r types.Report) string {
	var b strings.Builder
	for _, st := range expecting.sorted() {
		b.WriteString(st.afterSuite(r))
	}
	return b.String()
}

// afterSuite is expectAfterSuite for one suite's file: the specs of its
// rules.
func (st *expectState) afterSuite(r types.Report) string {
	var failing, reported []string
	var seen []Seen
	matched := map[verdict.Status]int{}
	for _, sp := range r.SpecReports {
		j, v, ok := judgedVerdict(sp)
		if !ok || expecting[j.Suite] != st {
			continue
		}
		var res ExpectResult
		found := false
		for _, e := range sp.ReportEntries {
			if e.Name == ExpectEntry {
				entryValue(e, &res)
				found = true
			}
		}
		if !found {
			continue // broke before its verdict: not judged
		}
		seen = append(seen, Seen{Rule: j.ID, Impl: j.Impl, Status: v.Status, Reason: v.Reason})
		switch {
		case !res.Changed():
			matched[v.Status]++
		case st.update:
			failing = append(failing, "  "+updateSummary(j, res, v))
		case res.Failing:
			failing = append(failing, "  "+changeSummary(j, res, v))
		default:
			reported = append(reported, "  "+changeSummary(j, res, v))
		}
	}
	sort.Strings(failing)
	sort.Strings(reported)
	var b strings.Builder
	if st.update {
		b.WriteString(st.write(r, seen, append(failing, reported...)))
		return b.String()
	}
	if len(failing) == 0 {
		fmt.Fprintf(&b, "\nmpits %s: as expected by %s: %s (%s)\n", st.suite, st.file.Path, verdict.Plural(countAll(matched), "verdict"), statusCounts(matched))
	} else {
		fmt.Fprintf(&b, "\nmpits %s: %s not as expected by %s, failing the run; %d as expected (%s)\n",
			st.suite, verdict.Plural(len(failing), "verdict"), st.file.Path, countAll(matched), statusCounts(matched))
	}
	if !st.file.Exists {
		fmt.Fprintf(&b, "(the file does not exist, so every verdict is expected to pass: %s=1 writes it)\n", settings.ExpectUpdateEnv)
	}
	if len(failing) > 0 {
		fmt.Fprintf(&b, "CHANGED (once accepted, %s=1 rewrites the file):\n%s\n", settings.ExpectUpdateEnv, strings.Join(failing, "\n"))
	}
	if len(reported) > 0 {
		fmt.Fprintf(&b, "CHANGED, not failing the run (quality/interpretation rules; %s=quality to fail on them):\n%s\n", settings.StrictEnv, strings.Join(reported, "\n"))
	}
	if stale := st.stale(); len(stale) > 0 {
		fmt.Fprintf(&b, "%s names rules this suite does not have: %s (%s=1 drops them)\n", filepath.Base(st.file.Path), strings.Join(stale, ", "), settings.ExpectUpdateEnv)
	}
	return b.String()
}

// changeSummary is one changed verdict in the summary.
func changeSummary(j Judged, res ExpectResult, v verdict.Verdict) string {
	line := changeLine(j.ID, j.Impl, res)
	if res.Now == verdict.Pass {
		return line + ": update the file"
	}
	return line + ": " + verdict.FirstLine(v.Reason)
}

// updateSummary is one verdict an update changes in the file.
func updateSummary(j Judged, res ExpectResult, v verdict.Verdict) string {
	line := fmt.Sprintf("%s on %s: %s → %s", j.ID, j.Impl, res.Expected, res.Now)
	if res.Now == verdict.Pass {
		return line
	}
	return line + ": " + verdict.FirstLine(v.Reason)
}

// stale are the file's lines whose rule the suite does not have.
func (st *expectState) stale() []string {
	var out []string
	for _, e := range st.file.Lines {
		if !st.has[e.Rule] {
			out = append(out, fmt.Sprintf("%s:%d %s", filepath.Base(st.file.Path), e.Line, e.Rule))
		}
	}
	return out
}

// write rewrites the suite's file after an update run, unless the run did
// not end (an interrupt, a broken setup): it would record what it missed.
func (st *expectState) write(r types.Report, seen []Seen, changes []string) string {
	if why := unfinished(r); why != "" {
		return fmt.Sprintf("\nmpits %s: %s not written: the run did not finish (%s)\n", st.suite, st.file.Path, why)
	}
	lines := st.file.Update(seen, func(rule string) bool { return st.has[rule] })
	data := FormatExpectations(st.suite, lines)
	old, _ := os.ReadFile(st.file.Path)
	var b strings.Builder
	if bytes.Equal(old, data) {
		fmt.Fprintf(&b, "\nmpits %s: %s unchanged (%s; %s judged)\n", st.suite, st.file.Path, verdict.Plural(len(lines), "line"), verdict.Plural(len(seen), "verdict"))
		return b.String()
	}
	if err := mpi.WriteAtomic(st.file.Path, data, 0o644); err != nil {
		return fmt.Sprintf("\nmpits %s: cannot write %s: %v\n", st.suite, st.file.Path, err)
	}
	counts := map[verdict.Status]int{}
	for _, e := range lines {
		counts[e.Status]++
	}
	what := "wrote"
	if !st.file.Exists {
		what = "wrote a new"
	}
	fmt.Fprintf(&b, "\nmpits %s: %s %s (%s=1): %s (%s), %s changed\n", st.suite, what, st.file.Path, settings.ExpectUpdateEnv, verdict.Plural(len(lines), "line"), statusCounts(counts), verdict.Plural(len(changes), "verdict"))
	if len(changes) > 0 {
		b.WriteString(strings.Join(changes, "\n") + "\n")
	}
	return b.String()
}

// unfinished says why a run's verdicts are not all in: an interrupt, a
// setup or teardown that failed.
func unfinished(r types.Report) string {
	if it := mpi.Ongoing.Load(); it != nil {
		return "interrupted by " + it.Cause
	}
	if len(r.SpecialSuiteFailureReasons) > 0 {
		return strings.Join(r.SpecialSuiteFailureReasons, "; ")
	}
	for _, sp := range r.SpecReports {
		if sp.LeafNodeType != types.NodeTypeIt && sp.State.Is(types.SpecStateFailureStates) {
			return fmt.Sprintf("%s %s", sp.LeafNodeType, sp.State)
		}
	}
	return ""
}

func countAll(m map[verdict.Status]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// statusCounts is "8 pass, 1 fail", in the order of the statuses.
func statusCounts(m map[verdict.Status]int) string {
	var parts []string
	for _, s := range []verdict.Status{verdict.Pass, verdict.Fail, verdict.Error, verdict.Unsupported} {
		if m[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[s], s))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// expectedSpec says whether a spec's fail or error was accepted by the
// expectations file (it ended skipped, saying so): the summary does not
// list it as failed.
func expectedSpec(sp types.SpecReport) bool {
	for _, e := range sp.ReportEntries {
		if e.Name == ExpectEntry {
			var res ExpectResult
			entryValue(e, &res)
			return !res.Failing && (res.Now == verdict.Fail || res.Now == verdict.Error) && sp.State.Is(types.SpecStateSkipped)
		}
	}
	return false
}
