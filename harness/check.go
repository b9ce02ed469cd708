package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/onsi/gomega"
)

// Status is a check's verdict on one implementation.
type Status string

const (
	Pass        Status = "pass"
	Fail        Status = "fail"        // the implementation broke the rule (with evidence)
	Unsupported Status = "unsupported" // the capability is missing (with the measured reason)
	Error       Status = "error"       // the fixture or the suite broke: crash, timeout, no records
)

// Verdict is the outcome of one check on one implementation.
type Verdict struct {
	Status   Status `json:"status"`
	Reason   string `json:"reason,omitempty"`   // one line
	Evidence string `json:"evidence,omitempty"` // records or an output excerpt
}

// Check is one conformance check. Run must be able to fail: each check names
// fault injectors (fixtures/c/inject) under which it must give Fail.
type Check struct {
	ID        string   // e.g. QMPI-STACK-001
	Clause    string   // e.g. seed:000 or MPI-4.1:16.3.6 (no '/': Ginkgo labels forbid it)
	Needs     string   // the capability it needs: qmpi, mpit, events, abi
	Title     string   // what it checks, one sentence
	Injectors []string // fault injector fixtures that must make it fail
	Run       func(x *X) Verdict
	File      string // where it is defined (set by Define)
	Line      int
}

// Define fills in where the check is defined, for the catalogue.
func Define(c Check) Check {
	_, c.File, c.Line, _ = runtime.Caller(1)
	if i := strings.LastIndex(c.File, "/suites/"); i >= 0 {
		c.File = c.File[i+1:]
	}
	return c
}

// Labels are the Ginkgo labels of a check on an implementation.
func (c Check) Labels(im *Impl) []string {
	return []string{c.ID, "clause:" + c.Clause, "needs:" + c.Needs, "impl:" + im.ID}
}

// X is what a check runs with: one implementation, its capabilities and
// fixtures, and the fault injectors to preload (empty in conformance runs).
type X struct {
	Impl     *Impl
	Caps     *Caps
	Fixtures map[string]Built
	Preload  []string // paths (as the implementation sees them) of injector libraries
	All      []*Env   // every implementation of the run, for checks across them
	g        gomega.Gomega
}

type failure struct{ msg string }

// Expect is Gomega's Expect; a failed expectation ends the check with Fail.
func (x *X) Expect(actual any, extra ...any) gomega.Assertion {
	if x.g == nil {
		x.g = gomega.NewGomega(func(msg string, _ ...int) { panic(failure{msg}) })
	}
	return x.g.Expect(actual, extra...)
}

// Fixture returns the path of a built fixture, or ends the check with Error.
func (x *X) Fixture(name string) string {
	b, ok := x.Fixtures[name]
	if !ok {
		panic(Verdict{Status: Error, Reason: fmt.Sprintf("fixture %s was not built for %s (not declared by the suite)", name, x.Impl.ID)})
	}
	if b.Error != "" {
		panic(Verdict{Status: Error, Reason: fmt.Sprintf("fixture %s did not build for %s: %s", name, x.Impl.ID, firstLine(b.Error)), Evidence: b.Error})
	}
	return b.Path
}

// Launch runs a fixture job with the injectors preloaded and returns what
// happened without judging it: for checks where a crash or an exit status
// is the verdict. recs is nil (and recErr says why) when records are missing.
func (x *X) Launch(j Job) (res *Result, recs *Records, recErr error) {
	j.Impl = x.Impl
	if len(x.Preload) > 0 {
		env := map[string]string{}
		for k, v := range j.RankEnv {
			env[k] = v
		}
		j.RankEnv = env
		pre := strings.Join(x.Preload, ":")
		if old := j.RankEnv["LD_PRELOAD"]; old != "" {
			pre += ":" + old
		}
		j.RankEnv["LD_PRELOAD"] = pre
	}
	res, err := Run(j)
	if err != nil {
		panic(Verdict{Status: Error, Reason: err.Error()})
	}
	defer res.Cleanup()
	recs, recErr = ReadRecords(res.Dir, j.Name, j.Ranks)
	return res, recs, recErr
}

// Job runs a fixture job with the injectors preloaded, and ends the check
// with Error if it crashed, hung or failed, or its records are missing.
func (x *X) Job(j Job) (*Result, *Records) {
	res, recs, err := x.Launch(j)
	return res, mustBeWhole(res, recs, err)
}

// Unsupported ends the check: the implementation lacks what it needs.
func (x *X) Unsupported(format string, args ...any) {
	panic(Verdict{Status: Unsupported, Reason: fmt.Sprintf(format, args...)})
}

// Failf ends the check with Fail.
func (x *X) Failf(evidence string, format string, args ...any) {
	panic(Verdict{Status: Fail, Reason: fmt.Sprintf(format, args...), Evidence: evidence})
}

// Evaluate runs c on x and turns every way it can end into a Verdict.
func Evaluate(c Check, x *X) (v Verdict) {
	if x.Caps != nil && !x.Caps.Available {
		return Verdict{Status: Unsupported, Reason: "implementation unavailable: " + x.Caps.Reason}
	}
	if x.Caps != nil && len(x.Caps.Problems) > 0 {
		// What the implementation can do is unknown: no verdict can be true.
		return Verdict{Status: Error, Reason: "the capability probe broke: " + x.Caps.Problems[0], Evidence: strings.Join(x.Caps.Problems, "\n")}
	}
	defer func() {
		switch r := recover().(type) {
		case nil:
		case Verdict:
			v = r
		case failure:
			v = Verdict{Status: Fail, Reason: firstLine(strings.TrimSpace(r.msg)), Evidence: r.msg}
		default:
			v = Verdict{Status: Error, Reason: fmt.Sprintf("the check itself broke: %v", r)}
		}
	}()
	v = c.Run(x)
	if v.Status == "" {
		v.Status = Pass
	}
	return v
}

// PathFrom makes a file that other sees at p visible to x's implementation
// (copied into its root when the two differ) and returns x's path to it.
func (x *X) PathFrom(other *Impl, p string) string {
	if other.Root == x.Impl.Root {
		return p
	}
	src := other.HostPath(p)
	dst := x.Impl.HostPath(filepath.Join("/tmp/mpits-imported", other.ID, filepath.Base(p)))
	if err := copyFile(src, dst); err != nil {
		panic(Verdict{Status: Error, Reason: fmt.Sprintf("cannot copy %s into %s's root: %v", src, x.Impl.ID, err)})
	}
	os.Chmod(dst, 0o755)
	return x.Impl.InnerPath(dst)
}
