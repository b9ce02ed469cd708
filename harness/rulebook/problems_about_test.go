package rulebook

import (
	"testing"

	"github.com/mpits/mpits/harness/verdict"
)

// FailAbout names what the problems are of; Also's evidence follows the
// problems' own, once.
func TestProblemsFailAbout(t *testing.T) {
	var p Problems
	p.Add("rec", "wrong %d", 1)
	p.Add("", "wrong %d", 2)
	p.Also("table")
	p.Also("table")
	v := judge(func(x *X) verdict.Verdict { p.FailAbout(x, "alpha's MPI_Status"); return verdict.Verdict{} }, &X{})
	if v.Status != verdict.Fail || v.Reason != "alpha's MPI_Status: wrong 1 (and 1 more)" || v.Evidence != "wrong 1\nwrong 2\n\nrec\ntable" {
		t.Errorf("got %s %q, evidence %q", v.Status, v.Reason, v.Evidence)
	}
	var none Problems
	none.Also("table")
	if v := judge(func(x *X) verdict.Verdict { none.FailAbout(x, "what"); return Exposed(1, "calls", "ok") }, &X{}); v.Status != verdict.Pass {
		t.Errorf("no problems gave %s", v.Status)
	}
}
