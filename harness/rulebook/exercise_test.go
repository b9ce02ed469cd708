package rulebook

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/verdict"
)

func TestEarned(t *testing.T) {
	for _, c := range []struct {
		name string
		v    verdict.Verdict
		want verdict.Status
		in   string
	}{
		{"exposed", Passed(3, 2, "readings", "ok"), verdict.Pass, "ok"},
		{"nothing judged", Passed(0, 0, "readings", "all fine"), verdict.Unsupported, "not measurable here: no readings to judge (all fine)"},
		{"nothing exposed", Passed(4, 0, "readings", "all zero"), verdict.Unsupported, "none of the 4 readings could have shown a breach"},
		{"more exposed than judged", Passed(1, 2, "readings", "x"), verdict.Error, "impossible"},
		{"no items", Passed(1, 1, "", "x"), verdict.Error, "impossible"},
		{"a fail is left alone", verdict.Verdict{Status: verdict.Fail, Reason: "broke"}, verdict.Fail, "broke"},
	} {
		got := judge(func(x *X) verdict.Verdict { return c.v }, &X{})
		if got.Status != c.want || !strings.Contains(got.Reason, c.in) {
			t.Errorf("%s: got %s %q, want %s containing %q", c.name, got.Status, got.Reason, c.want, c.in)
		}
	}
	if exerciseRequired {
		if got := judge(func(x *X) verdict.Verdict { return verdict.Verdict{Reason: "silent"} }, &X{}); got.Status != verdict.Error {
			t.Errorf("a pass that does not say what it exercised gave %s, not error", got.Status)
		}
	}
}

func TestExerciseString(t *testing.T) {
	if s := (verdict.Exercise{Judged: 3, Exposed: 3, Items: "calls"}).String(); s != "3 calls judged" {
		t.Error(s)
	}
	if s := (verdict.Exercise{Judged: 3, Exposed: 1, Items: "calls"}).String(); s != "3 calls judged, 1 of them could have shown a breach" {
		t.Error(s)
	}
}
