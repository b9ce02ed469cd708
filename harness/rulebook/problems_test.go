package rulebook

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/verdict"
)

// A judge's problems end the rule with one Fail naming the first and the
// count, with each piece of evidence once; no problem, no verdict.
func TestProblems(t *testing.T) {
	var none Problems
	if v := judge(func(x *X) verdict.Verdict { none.FailOn(x); return Exposed(1, "calls", "ok") }, &X{}); v.Status != verdict.Pass {
		t.Fatalf("no problems gave %s", v.Status)
	}
	var p Problems
	p.Add("records", "rank %d: wrong", 0)
	p.Add("records", "rank %d: wrong", 1)
	v := judge(func(x *X) verdict.Verdict { p.FailOn(x); return verdict.Verdict{} }, &X{})
	if v.Status != verdict.Fail || v.Reason != "rank 0: wrong (and 1 more)" || strings.Count(v.Evidence, "records") != 1 || p.Len() != 2 {
		t.Errorf("got %s %q, evidence %q", v.Status, v.Reason, v.Evidence)
	}
}
