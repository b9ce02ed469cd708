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

// Every rule declares beside its judge the predicate its passes count
// their exposed items by (rulebook.Exposure); a pass that counted
// otherwise is an error (rulebook.Evaluate), so the replay names it.
func TestJudgesOnCorpus(t *testing.T) {
	harness.TestCorpus(t, corpus, suites...)
	for id, r := range harness.RulesByID(suites...) {
		if r.Exposure.Items == "" {
			t.Errorf("%s declares no exposure: say beside its judge which items could show a breach (rulebook.Exposure)", id)
		}
	}
}

func FuzzJudges(f *testing.F) { harness.FuzzCorpus(f, corpus, suites...) }
