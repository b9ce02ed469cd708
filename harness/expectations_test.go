package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/ginkgo/v2/types"
)

const sampleExpect = `# a vendor's comment
STR-3 mpich-tools fail  # source: 2 calls broke it

ERR-8   custom   fail# our ticket 1234
PVAR-23 mpich-tools unsupported
`

func TestParseExpectations(t *testing.T) {
	f, err := ParseExpectations("x/MPI_T.expect", []byte(sampleExpect))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Lines) != 3 {
		t.Fatalf("%d lines, want 3: %+v", len(f.Lines), f.Lines)
	}
	if e := f.Expect("STR-3", "mpich-tools"); e.Status != verdict.Fail || e.Line != 2 || e.Comment != "source: 2 calls broke it" {
		t.Errorf("STR-3: %+v", e)
	}
	if e := f.Expect("ERR-8", "custom"); e.Status != verdict.Fail || e.Line != 4 || e.Comment != "our ticket 1234" {
		t.Errorf("ERR-8: %+v", e)
	}
	// a pair with no line is expected to pass: the same rule on another
	// implementation too
	if e := f.Expect("STR-3", "openmpi-deb"); e.Status != verdict.Pass || e.Line != 0 {
		t.Errorf("absent pair: %+v", e)
	}
	if got := f.where(f.Expect("STR-1", "mpich-tools")); got != "no line in MPI_T.expect" {
		t.Errorf("where of an absent pair: %q", got)
	}
	if got := f.where(f.Expect("STR-3", "mpich-tools")); got != "MPI_T.expect:2" {
		t.Errorf("where of a line: %q", got)
	}
}

// A bad line is refused naming its place and what it should be.
func TestParseExpectationsRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"STR-3 mpich-tools\n", `f.expect:1: "STR-3 mpich-tools" is not RULE IMPLEMENTATION STATUS`},
		{"# c\nSTR-3 mpich-tools failed\n", `f.expect:2: status "failed" is none of fail, error, unsupported, pass`},
		{"STR-3 a fail\nSTR-3 a error # again\n", "f.expect:2: STR-3 on a is already on line 1"},
		{"STR-3 a b fail\n", "is not RULE IMPLEMENTATION STATUS"},
	} {
		_, err := ParseExpectations("f.expect", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// What is written reads back the same, sorted, one line per pair that is
// not pass, each on one line whatever its reason.
func TestFormatExpectationsRoundTrip(t *testing.T) {
	lines := []Expectation{
		{Rule: "STR-3", Impl: "mpich-tools", Status: verdict.Fail, Comment: "two\nlines"},
		{Rule: "CAT-3", Impl: "openmpi-deb", Status: verdict.Error, Comment: "timed out # after 60 s"},
		{Rule: "CAT-3", Impl: "mpich-tools", Status: verdict.Unsupported},
		{Rule: "STR-1", Impl: "mpich-tools", Status: verdict.Pass, Comment: "not written"},
	}
	sortExpectations(lines)
	data := FormatExpectations("MPI_T", lines)
	f, err := ParseExpectations("MPI_T.expect", data)
	if err != nil {
		t.Fatalf("%v in\n%s", err, data)
	}
	var got []string
	for _, e := range f.Lines {
		got = append(got, e.Rule+" "+e.Impl+" "+string(e.Status)+" | "+e.Comment)
	}
	want := []string{"CAT-3 mpich-tools unsupported | ", "CAT-3 openmpi-deb error | timed out # after 60 s", "STR-3 mpich-tools fail | two lines"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read back:\n%s\nwant:\n%s\nfile:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), data)
	}
	if !strings.HasPrefix(string(data), "# mpits expectations of suite MPI_T") {
		t.Errorf("no header:\n%s", data)
	}
}

// An update rewrites the pairs judged, keeps a comment while the status
// stays, keeps the pairs not judged and drops rules the suite lost.
func TestExpectationsUpdate(t *testing.T) {
	f, err := ParseExpectations("MPI_T.expect", []byte(`STR-3 mpich-tools fail  # our note: ticket 1234
STR-4 mpich-tools fail  # old reason
ERR-8 mpich-tools error  # fixture crashed
PVAR-31 openmpi-deb fail  # not judged in this run
GONE-1 mpich-tools fail  # a rule the suite no longer has
`))
	if err != nil {
		t.Fatal(err)
	}
	seen := []Seen{
		{Rule: "STR-3", Impl: "mpich-tools", Status: verdict.Fail, Reason: "new reason, same status"},
		{Rule: "STR-4", Impl: "mpich-tools", Status: verdict.Error, Reason: "the fixture crashed\nevidence"},
		{Rule: "ERR-8", Impl: "mpich-tools", Status: verdict.Pass, Reason: "fixed"},
		{Rule: "STR-2a", Impl: "mpich-tools", Status: verdict.Fail, Reason: "newly broken"},
		{Rule: "STR-1", Impl: "mpich-tools", Status: verdict.Pass},
	}
	has := func(rule string) bool { return rule != "GONE-1" }
	got := string(FormatExpectations("MPI_T", f.Update(seen, has)))
	body := got[strings.Index(got, "\nPVAR"):]
	want := `
PVAR-31 openmpi-deb fail  # not judged in this run
STR-2a mpich-tools fail  # newly broken
STR-3 mpich-tools fail  # our note: ticket 1234
STR-4 mpich-tools error  # the fixture crashed
`
	if body != want {
		t.Errorf("updated file:\n%s\nwant lines:%s", got, want)
	}
}

// A missing file of a suite expects every verdict to pass.
func TestReadExpectationsMissingFile(t *testing.T) {
	dir := t.TempDir()
	f, err := ReadExpectations(dir, "MPI_T events")
	if err != nil || f.Exists || f.Path != filepath.Join(dir, "MPI_T_events.expect") {
		t.Fatalf("%+v, %v", f, err)
	}
	if e := f.Expect("EVT-1", "custom"); e.Status != verdict.Pass {
		t.Errorf("%+v", e)
	}
	if got := f.where(Expectation{}); got != "no MPI_T_events.expect" {
		t.Errorf("where: %q", got)
	}
}

// How each verdict against the file ends its spec.
func TestExpectCompare(t *testing.T) {
	f, _ := ParseExpectations("/e/MPI_T.expect", []byte("STR-3 m fail # r\nERR-8 m fail # q\nPVAR-23 m unsupported\n"))
	st := &expectState{file: f}
	normative := rulebook.Rule{ID: "STR-3", Basis: rulebook.Normative}
	for _, c := range []struct {
		name   string
		rule   string
		now    verdict.Status
		strict bool
		update bool
		want   expectAction
	}{
		{"expected fail", "STR-3", verdict.Fail, true, false, skipExpected},
		{"expected fail now passes", "STR-3", verdict.Pass, true, false, failChanged},
		{"expected fail now an error", "STR-3", verdict.Error, true, false, failChanged},
		{"new fail", "STR-1", verdict.Fail, true, false, failChanged},
		{"new error", "STR-1", verdict.Error, true, false, failChanged},
		{"pass as expected", "STR-1", verdict.Pass, true, false, leaveToReport},
		{"unsupported as expected", "PVAR-23", verdict.Unsupported, true, false, leaveToReport},
		{"unsupported now passes", "PVAR-23", verdict.Pass, true, false, failChanged},
		{"pass now unsupported", "STR-1", verdict.Unsupported, true, false, failChanged},
		{"quality rule newly failing: reported", "ERR-9", verdict.Fail, false, false, leaveToReport},
		{"quality rule fixed: reported", "ERR-8", verdict.Pass, false, false, leaveToReport},
		{"quality rule failing as expected", "ERR-8", verdict.Fail, false, false, skipExpected},
		{"update accepts a new fail", "STR-1", verdict.Fail, true, true, skipExpected},
		{"update accepts a fix", "STR-3", verdict.Pass, true, true, leaveToReport},
	} {
		st.update = c.update
		r := normative
		r.ID = c.rule
		res, got := st.compare(r, "m", verdict.Verdict{Status: c.now}, c.strict)
		if got != c.want {
			t.Errorf("%s: action %d, want %d (%+v)", c.name, got, c.want, res)
		}
		if res.Failing != (c.want == failChanged) {
			t.Errorf("%s: Failing %v", c.name, res.Failing)
		}
	}
}

// A changed verdict's failure says what changed and what to do.
func TestChangeMessage(t *testing.T) {
	f, _ := ParseExpectations("/e/MPI_T.expect", []byte("# h\nPVAR-27f mpich-tools fail # r\n"))
	st := &expectState{file: f}
	res, _ := st.compare(rulebook.Rule{ID: "PVAR-27f", Basis: rulebook.Normative}, "mpich-tools", verdict.Verdict{Status: verdict.Pass}, true)
	got := st.changeMessage("PVAR-27f", "mpich-tools", res, verdict.Verdict{Status: verdict.Pass, Reason: "3 handles freed"})
	if !strings.HasPrefix(got, "PVAR-27f on mpich-tools: expected fail (MPI_T.expect:2), now pass: update the file (MPITS_EXPECT_UPDATE=1)\nnow: 3 handles freed") {
		t.Errorf("fixed rule:\n%s", got)
	}
	// a file written for another implementation id says so
	res, _ = st.compare(rulebook.Rule{ID: "STR-3", Basis: rulebook.Normative}, "custom", verdict.Verdict{Status: verdict.Fail}, true)
	got = st.changeMessage("STR-3", "custom", res, verdict.Verdict{Status: verdict.Fail, Reason: "NULL buffer: rc 12", Evidence: "records"})
	for _, want := range []string{
		"STR-3 on custom: expected pass (no line in MPI_T.expect), now fail: NULL buffer: rc 12\n",
		"MPI_T.expect has no line on custom, only on mpich-tools: was it written under another MPITS_IMPL_ID?",
		"\nrecords\n",
		"MPITS_EXPECT_UPDATE=1 writes it to /e/MPI_T.expect",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// compared is a spec as a run with MPITS_EXPECT records it.
func compared(t *testing.T, state types.SpecState, st *expectState, j Judged, v verdict.Verdict) types.SpecReport {
	res, _ := st.compare(rulebook.Rule{ID: j.ID, Basis: j.Basis}, j.Impl, v, j.Basis == rulebook.Normative)
	sp := spec(t, state, j, &v)
	data, _ := json.Marshal(res)
	sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: ExpectEntry, Value: types.ReportEntryValue{AsJSON: string(data)}})
	return sp
}

// The end of a run compared with the file names each change, counts the
// verdicts as expected, and does not list an expected fail as failed.
func TestExpectSummary(t *testing.T) {
	f, _ := ParseExpectations("/e/MPI_T.expect", []byte("STR-3 mpich-tools fail # r\nERR-8 mpich-tools fail # q\nOLD-1 mpich-tools fail\n"))
	st := &expectState{file: f, suite: "MPI_T", has: map[string]bool{"STR-3": true, "STR-2a": true, "ERR-8": true, "PVAR-27f": true}}
	f.Exists = true
	expecting = expectStates{st.suite: st}
	defer func() { expecting = nil }()
	rule := func(id string, b rulebook.Basis) Judged {
		return Judged{RuleInfo: rulebook.RuleInfo{ID: id, Suite: "MPI_T", Source: "MPI-5.0 §15.3.3", Basis: b}, Impl: "mpich-tools"}
	}
	r := types.Report{SuiteDescription: "MPI_T", SpecReports: types.SpecReports{
		compared(t, types.SpecStateSkipped, st, rule("STR-3", rulebook.Normative), verdict.Verdict{Status: verdict.Fail, Reason: "NULL buffer"}),
		compared(t, types.SpecStateFailed, st, rule("STR-2a", rulebook.Normative), verdict.Verdict{Status: verdict.Fail, Reason: "11925 truncated calls"}),
		compared(t, types.SpecStatePassed, st, rule("ERR-8", rulebook.Quality), verdict.Verdict{Status: verdict.Pass, Reason: "distinct strings"}),
		compared(t, types.SpecStatePassed, st, rule("STR-1", rulebook.Normative), verdict.Verdict{Status: verdict.Pass}),
	}}
	got := Summary(r) + expectAfterSuite(r)
	for _, want := range []string{
		"mpits MPI_T: 1 rules failed, 0 errors",
		"FAILED:\n  STR-2a on mpich-tools (MPI-5.0 §15.3.3, normative): 11925 truncated calls\n",
		"mpits MPI_T: 1 verdict not as expected by /e/MPI_T.expect, failing the run; 2 as expected (1 pass, 1 fail)\n",
		"CHANGED (once accepted, MPITS_EXPECT_UPDATE=1 rewrites the file):\n  STR-2a on mpich-tools: expected pass (no line in MPI_T.expect), now fail: 11925 truncated calls\n",
		"CHANGED, not failing the run (quality/interpretation rules; MPITS_STRICT=quality to fail on them):\n  ERR-8 on mpich-tools: expected fail (MPI_T.expect:2), now pass: update the file\n",
		"MPI_T.expect names rules this suite does not have: MPI_T.expect:3 OLD-1 (MPITS_EXPECT_UPDATE=1 drops them)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "STR-3 on mpich-tools (") {
		t.Errorf("an expected fail is listed as failed:\n%s", got)
	}
}

// An update run writes the file, says what changed, and writes nothing
// when the run did not finish.
func TestExpectUpdateWrites(t *testing.T) {
	dir := t.TempDir()
	f, _ := ReadExpectations(dir, "MPI_T")
	st := &expectState{dir: dir, file: f, suite: "MPI_T", update: true, has: map[string]bool{"STR-3": true, "STR-1": true}}
	expecting = expectStates{st.suite: st}
	defer func() { expecting = nil }()
	j := Judged{RuleInfo: rulebook.RuleInfo{ID: "STR-3", Suite: "MPI_T", Basis: rulebook.Normative}, Impl: "mpich-tools"}
	r := types.Report{SuiteDescription: "MPI_T", SpecReports: types.SpecReports{
		compared(t, types.SpecStateSkipped, st, j, verdict.Verdict{Status: verdict.Fail, Reason: "NULL buffer: rc 12"}),
	}}
	r.SpecialSuiteFailureReasons = []string{"Interrupted by User"}
	if got := expectAfterSuite(r); !strings.Contains(got, "not written: the run did not finish (Interrupted by User)") {
		t.Errorf("interrupted run: %s", got)
	}
	if _, err := os.Stat(f.Path); err == nil {
		t.Fatal("an interrupted run wrote the file")
	}
	r.SpecialSuiteFailureReasons = nil
	got := expectAfterSuite(r)
	if !strings.Contains(got, "wrote a new "+f.Path+" (MPITS_EXPECT_UPDATE=1): 1 line (1 fail), 1 verdict changed\n  STR-3 on mpich-tools: pass → fail: NULL buffer: rc 12") {
		t.Errorf("update summary:\n%s", got)
	}
	data, _ := os.ReadFile(f.Path)
	if !strings.HasSuffix(string(data), "\nSTR-3 mpich-tools fail  # NULL buffer: rc 12\n") {
		t.Errorf("file:\n%s", data)
	}
	// the same verdicts again: the file stays as it is, byte for byte
	expecting["MPI_T"].file, _ = ReadExpectations(dir, "MPI_T")
	if got := expectAfterSuite(r); !strings.Contains(got, f.Path+" unchanged (1 line; 1 verdict judged)") {
		t.Errorf("second update:\n%s", got)
	}
}

// The settings are checked before anything runs, each error one line.
func TestReadVendorSettings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	bad := filepath.Join(dir, "bad")
	os.Mkdir(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "MPI_T.expect"), []byte("STR-3 fail\n"), 0o644)
	s := &Suite{Name: "MPI_T"}
	for _, c := range []struct{ expect, update, want string }{
		{"", "", ""},
		{dir, "", ""},
		{dir, "1", ""},
		{filepath.Join(dir, "new"), "1", ""},
		{"", "1", "MPITS_EXPECT_UPDATE=1 needs MPITS_EXPECT"},
		{dir, "yes", `MPITS_EXPECT_UPDATE="yes" is not allowed: want 1 to write the expectations, or 0`},
		{filepath.Join(dir, "missing"), "", "missing does not exist: write it first with MPITS_EXPECT_UPDATE=1"},
		{file, "", "is a file: it names a folder, which holds one file per suite (MPI_T.expect)"},
		{bad, "", `MPI_T.expect:1: "STR-3 fail" is not RULE IMPLEMENTATION STATUS`},
	} {
		t.Setenv(settings.ExpectEnv, c.expect)
		t.Setenv(settings.ExpectUpdateEnv, c.update)
		err := s.readVendorSettings()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s=%q %s=%q: %v", settings.ExpectEnv, c.expect, settings.ExpectUpdateEnv, c.update, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s=%q %s=%q: error %v, want %q", settings.ExpectEnv, c.expect, settings.ExpectUpdateEnv, c.update, err, c.want)
		case c.expect != "" && err == nil && expecting == nil:
			t.Errorf("%s=%q: no expectations", settings.ExpectEnv, c.expect)
		}
	}
	expecting = nil
}

// A relative folder is from the module's root, not the package folder the
// test binary runs in.
func TestResolveFromInvocation(t *testing.T) {
	got, err := resolveFromInvocation("ci/expect")
	if root := settings.ModuleRoot(); err != nil || root == "" || got != filepath.Join(root, "ci/expect") {
		t.Errorf("got %q, %v (the module's root %q)", got, err, root)
	}
	if got, _ := resolveFromInvocation("/abs/x/"); got != "/abs/x" {
		t.Errorf("absolute: %q", got)
	}
}
