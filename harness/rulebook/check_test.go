package rulebook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
	"github.com/onsi/gomega"
)

func TestEvaluateOutcomes(t *testing.T) {
	run := func(caps *mpi.Caps, body func(x *X) verdict.Verdict) verdict.Verdict {
		e := &Env{Impl: &mpi.Impl{ID: "i"}, Caps: caps}
		return e.Evaluate(Rule{ID: "T", Basis: Normative, Judge: body}, nil)
	}
	ok := &mpi.Caps{Available: true}
	cases := []struct {
		name   string
		caps   *mpi.Caps
		body   func(x *X) verdict.Verdict
		status verdict.Status
		reason string
	}{
		{"pass", ok, func(x *X) verdict.Verdict { return Exposed(1, "calls", "ok") }, verdict.Pass, "ok"},
		{"expectation", ok, func(x *X) verdict.Verdict { x.Expect(1).To(gomega.Equal(2)); return verdict.Verdict{} }, verdict.Fail, "Expected"},
		{"failf", ok, func(x *X) verdict.Verdict { x.Failf("ev", "broke %d", 7); return verdict.Verdict{} }, verdict.Fail, "broke 7"},
		{"unsupported", ok, func(x *X) verdict.Verdict { x.Unsupported("no %s", "thing"); return verdict.Verdict{} }, verdict.Unsupported, "no thing"},
		{"check panics", ok, func(x *X) verdict.Verdict { panic("oops") }, verdict.Error, "the check itself broke at harness/rulebook/check_test.go:"},
		{"missing fixture", ok, func(x *X) verdict.Verdict { x.Fixture("nope"); return verdict.Verdict{} }, verdict.Error, "fixture nope was not built"},
		{"unavailable", &mpi.Caps{Reason: "gone"}, nil, verdict.Unsupported, "implementation unavailable: gone"},
		// A broken probe leaves the capabilities unknown: never "unsupported".
		{"probe broke", &mpi.Caps{Available: true, Problems: []string{"text file busy"}}, nil, verdict.Error, "the capability probe broke: text file busy"},
	}
	for _, c := range cases {
		v := run(c.caps, c.body)
		if v.Status != c.status || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%s: got %s %q, want %s containing %q", c.name, v.Status, v.Reason, c.status, c.reason)
		}
	}
}

// A judge that breaks on records it did not expect names the file and line
// of the panic, and its evidence holds the stack, even when the panic comes
// through a memo that replays it to a second rule.
func TestBrokenJudgeSaysWhere(t *testing.T) {
	e := &Env{Impl: &mpi.Impl{ID: "i"}, Caps: &mpi.Caps{Available: true}}
	var m mpi.Memo[[]int]
	body := func(x *X) verdict.Verdict {
		recs := m.Do("k", func() []int { one := []int{1}; i := len(one); return []int{one[i]} })
		return verdict.Verdict{Reason: fmt.Sprint(recs)}
	}
	for i := 0; i < 2; i++ {
		v := e.Evaluate(Rule{ID: "T", Basis: Normative, Judge: body}, nil)
		if v.Status != verdict.Error || !strings.Contains(v.Reason, "at harness/rulebook/check_test.go:") || !strings.Contains(v.Reason, "index out of range [1] with length 1") {
			t.Errorf("run %d: got %s %q, want an error at check_test.go naming the index", i, v.Status, v.Reason)
		}
		if !strings.Contains(v.Evidence, "goroutine") || !strings.Contains(v.Evidence, "TestBrokenJudgeSaysWhere") {
			t.Errorf("run %d: evidence holds no stack: %q", i, v.Evidence)
		}
	}
}

// A rule whose need the implementation lacks is unsupported with the
// measured reason, and its judge never runs.
func TestNeedsEnforced(t *testing.T) {
	e := &Env{Impl: &mpi.Impl{ID: "i"}, Caps: &mpi.Caps{Available: true, QMPI: mpi.QMPICap{RC: 44}}}
	judged := false
	v := e.Evaluate(Rule{ID: "Q", Basis: SeedBasis, Needs: "qmpi", Judge: func(x *X) verdict.Verdict { judged = true; return verdict.Verdict{} }}, nil)
	if v.Status != verdict.Unsupported || v.Reason != "no working QMPI: QMPI_Register_tool_name returned 44" || judged {
		t.Errorf("got %s %q (judged: %v), want unsupported naming the return code, not judged", v.Status, v.Reason, judged)
	}
	if v := e.Evaluate(Rule{ID: "M", Basis: Normative, Needs: "mpi", Judge: func(x *X) verdict.Verdict { return Exposed(1, "calls", "ok") }}, nil); v.Status != verdict.Pass {
		t.Errorf("a rule needing any MPI gave %s %q", v.Status, v.Reason)
	}
}

// An interpretation rule reports a reading; a fail from it is the suite's
// defect, never the library's.
func TestInterpretationNeverFails(t *testing.T) {
	e := &Env{Impl: &mpi.Impl{ID: "i"}, Caps: &mpi.Caps{Available: true}}
	v := e.Evaluate(Rule{ID: "I", Basis: Interpretation, Judge: func(x *X) verdict.Verdict { x.Failf("", "no reading"); return verdict.Verdict{} }}, nil)
	if v.Status != verdict.Error || !strings.Contains(v.Reason, "interpretation rule I gave fail") {
		t.Errorf("got %s %q, want an error naming the rule", v.Status, v.Reason)
	}
}

func TestStrict(t *testing.T) {
	t.Setenv(settings.StrictEnv, "")
	for _, c := range []struct {
		basis  Basis
		filter string
		env    string
		want   bool
	}{
		{Normative, "", "", true},
		{SeedBasis, "", "", true},
		{Quality, "", "", false},
		{Interpretation, "", "", false},
		{Quality, "basis:quality && impl:x", "", true},
		{Quality, "", "quality", true},
		{Interpretation, "", "all", true},
		{Interpretation, "", "quality", false},
	} {
		t.Setenv(settings.StrictEnv, c.env)
		if got := Strict(c.basis, c.filter); got != c.want {
			t.Errorf("Strict(%s, %q) with %s=%q = %v, want %v", c.basis, c.filter, settings.StrictEnv, c.env, got, c.want)
		}
	}
}

// A fixture refused for names the implementation lacks is judged by each
// rule that uses it: unsupported naming them, or the rule's own verdict
// where they are its subject; a memo shared by both rules does not hand the
// first rule's verdict to the second.
func TestLackingJudgedPerRule(t *testing.T) {
	e := &Env{Impl: &mpi.Impl{ID: "i"}, Caps: &mpi.Caps{Available: true}, Fixtures: map[string]mpi.Built{
		"f2c": {Fixture: "f2c", Error: "link: undefined reference to `MPI_Status_c2f08'", Missing: []string{"MPI_Status_c2f08"}}}}
	var m mpi.Memo[string]
	body := func(x *X) verdict.Verdict {
		return verdict.Verdict{Reason: m.Do("job", func() string { return x.Fixture("f2c") })}
	}
	subject := Rule{ID: "S", Basis: Normative, Judge: body, Lacks: func(x *X, missing []string) verdict.Verdict {
		return verdict.Verdict{Status: verdict.Fail, Reason: "the library lacks " + strings.Join(missing, ", ")}
	}}
	other := Rule{ID: "O", Basis: Normative, Judge: body}
	for _, c := range []struct {
		r      Rule
		status verdict.Status
		reason string
	}{
		{subject, verdict.Fail, "the library lacks MPI_Status_c2f08"},
		{other, verdict.Unsupported, "not judged here: i lacks MPI_Status_c2f08, which fixture f2c uses (link: undefined reference"},
		{subject, verdict.Fail, "the library lacks MPI_Status_c2f08"},
	} {
		v := e.Evaluate(c.r, nil)
		if v.Status != c.status || !strings.HasPrefix(v.Reason, c.reason) || !strings.Contains(v.Evidence, "undefined reference") {
			t.Errorf("%s: got %s %q (evidence %q), want %s %q", c.r.ID, v.Status, v.Reason, v.Evidence, c.status, c.reason)
		}
	}
}
