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

// Every rule's passes count their exposed items by the predicate declared
// beside its judge (rulebook.Exposure): the replay names a rule that passed
// without one, and every rule declares one.
func TestJudgesOnCorpus(t *testing.T) {
	o := harness.TestCorpus(t, corpus, suites...)
	for _, id := range o.Undeclared {
		t.Errorf("%s passed without an exposure predicate declared beside its judge (rulebook.Exposure)", id)
	}
	for id, r := range harness.RulesByID(suites...) {
		if r.Exposure.Items == "" {
			t.Errorf("%s declares no exposure: say beside its judge which items could show a breach (rulebook.Exposure)", id)
		}
	}
}

func FuzzJudges(f *testing.F) { harness.FuzzCorpus(f, corpus, suites...) }
