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

func TestJudgesOnCorpus(t *testing.T) { harness.TestCorpus(t, corpus, suites...) }

func FuzzJudges(f *testing.F) { harness.FuzzCorpus(f, corpus, suites...) }
