// Package judges tests every suite's judges without MPI, on the corpus of
// a real run in testdata/corpus (written by bash ci/corpus): replayed on
// its records they must give its verdicts, and on those records mutated
// they must never break. It holds tests only, apart from ./suites/..., so
// that a vendor's `go test ./suites/...` runs their MPI, not this.
package judges

import (
	"testing"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/suites/abi"
	"github.com/mpits/mpits/suites/events"
	"github.com/mpits/mpits/suites/mpit"
	"github.com/mpits/mpits/suites/qmpi"
)

const corpus = "testdata/corpus"

var suites = []*harness.Suite{abi.Suite, events.Suite, mpit.Suite, qmpi.Suite}

// undeclaredExposures is how many rules still pass without an exposure
// predicate declared beside their judge (rulebook.Exposure): it may only
// go down, to 0.
const undeclaredExposures = 268

func TestJudgesOnCorpus(t *testing.T) {
	o := harness.TestCorpus(t, corpus, suites...)
	if n := len(o.Undeclared); n > undeclaredExposures {
		t.Errorf("%d rules pass without a declared exposure predicate, more than the %d allowed: declare one beside each new rule's judge (rulebook.Exposure)", n, undeclaredExposures)
	} else if n < undeclaredExposures {
		t.Logf("only %d rules pass without a declared exposure predicate: lower undeclaredExposures to %d", n, n)
	}
}

func FuzzJudges(f *testing.F) { harness.FuzzCorpus(f, corpus, suites...) }
