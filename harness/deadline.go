package harness

import (
	"flag"
	"fmt"
	"slices"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
	ginkgo "github.com/onsi/ginkgo/v2"
)

// A run's deadline ends it the way an interrupt does (interrupt.go): the
// jobs are killed and their folders removed, the verdicts so far reported
// and the rules not reached named. Under go test the deadline comes before
// go test's own -timeout, which would panic the test binary with a
// goroutine dump and leave no report at all.

// runDeadline is how long the run may take, and the cause its end names.
func runDeadline(goTest bool) (time.Duration, string) {
	if d := settings.Setting(settings.TimeoutEnv).Duration(); d > 0 {
		return d, fmt.Sprintf("its deadline (%s=%s)", settings.TimeoutEnv, d)
	}
	if !goTest {
		return 0, ""
	}
	f := flag.Lookup("test.timeout")
	if f == nil {
		return 0, ""
	}
	d, err := time.ParseDuration(f.Value.String())
	if err != nil || d <= 0 {
		return 0, ""
	}
	margin := min(d/20, time.Minute)
	return d - margin, fmt.Sprintf("its deadline (go test -timeout %s, less %s to report)", d, margin)
}

// watchDeadline interrupts the run when d has passed since it started. No
// signal tells Ginkgo: it would print each running spec's goroutines (the
// judges waiting on each other, thousands of lines); the specs left end
// skipped, not reached (skipIfNotReached), and the run ends as an
// interrupted one (Suite.run).
func watchDeadline(d time.Duration, cause string) {
	time.AfterFunc(d, func() { mpi.Interrupt(cause) })
}

// skipIfNotReached ends the spec of rule on impl skipped, not reached, when
// the run was interrupted before its verdict was in: a verdict reached
// after it may come from a job the interrupt killed.
func skipIfNotReached(rule, impl string) {
	it := mpi.Ongoing.Load()
	if it == nil {
		return
	}
	judgedBefore.Lock()
	reached := slices.ContainsFunc(judgedBefore.v, func(j judgedVerdictOf) bool { return j.rule.ID == rule && j.impl == impl })
	judgedBefore.Unlock()
	if !reached {
		skipNotReached(it)
	}
}

// skipIfInterrupted ends a proof's spec skipped once the run is
// interrupted: its jobs may have been killed.
func skipIfInterrupted() {
	if it := mpi.Ongoing.Load(); it != nil {
		skipNotReached(it)
	}
}

func skipNotReached(it *mpi.Interruption) {
	ginkgo.Skip(NotReachedPrefix + "the run was ended by " + it.Cause)
}
