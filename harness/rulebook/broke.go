package rulebook

import (
	"fmt"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/verdict"
)

// brokeVerdict is the error verdict of a judge that broke.
func brokeVerdict(b mpi.Broke) verdict.Verdict {
	return verdict.Verdict{Status: verdict.Error, Reason: fmt.Sprintf(BrokePrefix+"%s: %v", b.At, b.Value),
		Evidence: fmt.Sprintf("panic at %s: %v\n\n%s", b.At, b.Value, b.Stack)}
}

// BrokePrefix starts the reason of a judge that broke (brokeVerdict).
const BrokePrefix = "the check itself broke at "
