package harness

import (
	"strings"
	"testing"

	"github.com/onsi/gomega"
)

func TestEvaluateOutcomes(t *testing.T) {
	run := func(caps *Caps, body func(x *X) Verdict) Verdict {
		return Evaluate(Check{ID: "T", Run: body}, &X{Impl: &Impl{ID: "i"}, Caps: caps})
	}
	ok := &Caps{Available: true}
	cases := []struct {
		name   string
		caps   *Caps
		body   func(x *X) Verdict
		status Status
		reason string
	}{
		{"pass", ok, func(x *X) Verdict { return Verdict{} }, Pass, ""},
		{"expectation", ok, func(x *X) Verdict { x.Expect(1).To(gomega.Equal(2)); return Verdict{} }, Fail, "Expected"},
		{"failf", ok, func(x *X) Verdict { x.Failf("ev", "broke %d", 7); return Verdict{} }, Fail, "broke 7"},
		{"unsupported", ok, func(x *X) Verdict { x.Unsupported("no %s", "thing"); return Verdict{} }, Unsupported, "no thing"},
		{"check panics", ok, func(x *X) Verdict { panic("oops") }, Error, "the check itself broke: oops"},
		{"missing fixture", ok, func(x *X) Verdict { x.Fixture("nope"); return Verdict{} }, Error, "fixture nope was not built"},
		{"unavailable", &Caps{Reason: "gone"}, nil, Unsupported, "implementation unavailable: gone"},
		// A broken probe leaves the capabilities unknown: never "unsupported".
		{"probe broke", &Caps{Available: true, Problems: []string{"text file busy"}}, nil, Error, "the capability probe broke: text file busy"},
	}
	for _, c := range cases {
		v := run(c.caps, c.body)
		if v.Status != c.status || !strings.Contains(v.Reason, c.reason) {
			t.Errorf("%s: got %s %q, want %s containing %q", c.name, v.Status, v.Reason, c.status, c.reason)
		}
	}
}
