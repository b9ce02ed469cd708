package rulebook

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/verdict"
)

var writable = Exposure[bool]{Items: "variables", When: "when writable", Could: func(w bool) bool { return w }}

func TestExposureCountsByItsPredicate(t *testing.T) {
	v := writable.Pass([]bool{true, false, true}, "ok")
	if e := v.Exercised; e.Judged != 3 || e.Exposed != 2 || e.Predicate != "variables: exposed when writable" {
		t.Errorf("got %+v", *e)
	}
	every := Exposure[int]{Items: "calls"}
	if e := every.Pass([]int{1, 2}, "ok").Exercised; e.Exposed != 2 || e.Predicate != "calls: exposed every item judged" {
		t.Errorf("got %+v", *e)
	}
}

// A rule that declares its exposure passes through it: a judge that counts
// on its own, or through another predicate, is the suite's error.
func TestEvaluateHoldsPassToDeclaredExposure(t *testing.T) {
	other := Exposure[bool]{Items: "variables", When: "when read"}
	for _, c := range []struct {
		name  string
		judge func(x *X) verdict.Verdict
		want  verdict.Status
		in    string
	}{
		{"through it", func(x *X) verdict.Verdict { return writable.Pass([]bool{true}, "fine") }, verdict.Pass, "fine"},
		{"its own count", func(x *X) verdict.Verdict { return Exposed(1, "variables", "fine") }, verdict.Error, "but its judge counted by its own count"},
		{"another predicate", func(x *X) verdict.Verdict { return other.Pass([]bool{true}, "fine") }, verdict.Error, "counted by variables: exposed when read"},
		{"a fail is left alone", func(x *X) verdict.Verdict { x.Failf("", "broken"); return verdict.Verdict{} }, verdict.Fail, "broken"},
	} {
		r := Rule{ID: "T-1", Basis: Normative, Judge: c.judge, Exposure: writable.Declared()}
		got := Evaluate(r, &X{})
		if got.Status != c.want || !strings.Contains(got.Reason, c.in) {
			t.Errorf("%s: got %s %q, want %s containing %q", c.name, got.Status, got.Reason, c.want, c.in)
		}
	}
}
