package harness

import (
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"golang.org/x/sys/unix"
)

// An interrupted run cleans up and says what it had judged. Ctrl-C sends
// SIGINT to the whole process group: the go command, which waits for its
// test processes and then prints none of their output, and each suite's
// test process, where Ginkgo skips the remaining specs and runs its report
// nodes. A CI that cancels a job sends SIGTERM. Each job runs in a process
// group of its own, so no signal of the terminal reaches it: on the first
// SIGINT, SIGTERM or SIGHUP, or when the go command that started the test
// process is gone (killed: the test process would run on unseen), the suite
// kills every running job (its process group and every process carrying its
// marker), removes every job folder it holds, starts no job any more, and
// prints to the console the verdicts judged before the interrupt, with its
// failures. A job folder records its owner (jobOwnerFile): a run removes,
// when it starts, the job folders whose owner is gone (a run killed with
// SIGKILL cleans up nothing).

// watchInterrupts makes SIGINT, SIGTERM and SIGHUP interrupt the run the
// way its deadline does (deadline.go): the jobs are killed, the specs left
// end not reached, and every output says what was judged. It is called
// from the run's first node, once Ginkgo watches SIGINT and SIGTERM, and
// takes them from Ginkgo: told of a signal, Ginkgo would print each
// running goroutine (the judges waiting on each other, thousands of lines)
// and end the spec that runs as an error against its implementation. A
// second signal ends the process at once. SIGHUP stays ignored when the
// process was started with it ignored (nohup): a run outlives the shell
// that started it. The binary never watches its parent. A test process
// under go test asks the kernel for a signal when the go command that
// started it ends (goTestParentSignal: a killed go command would leave it
// running unseen), and catches SIGPIPE: once that command is gone, a write
// to the standard output fails instead of killing the process before it
// has cleaned up.
func watchInterrupts(goTest bool) {
	signal.Reset(syscall.SIGINT, syscall.SIGTERM)
	sigs := make(chan os.Signal, 4)
	watched := []os.Signal{syscall.SIGINT, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		watched = append(watched, syscall.SIGHUP)
	}
	if goTest {
		watched = append(watched, syscall.SIGPIPE, goTestParentSignal)
		_ = unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(goTestParentSignal), 0, 0, 0)
	}
	signal.Notify(sigs, watched...)
	go func() {
		for s := range sigs {
			cause := mpi.SignalName(int(s.(syscall.Signal)))
			switch s {
			case syscall.SIGPIPE:
				continue
			case goTestParentSignal:
				cause = "the end of the go command that started it"
			}
			if mpi.Ongoing.Load() != nil && s != goTestParentSignal {
				fmt.Fprintf(os.Stderr, "mpits: %s again: ending now, without the report\n", cause)
				os.Exit(1)
			}
			mpi.Interrupt(cause)
		}
	}()
}

// goTestParentSignal is what the kernel sends a test process when its go
// command ends (PR_SET_PDEATHSIG): a signal nothing else sends it (Ginkgo
// takes SIGUSR1 for its progress report).
const goTestParentSignal = syscall.SIGUSR2

// interruptedRun is the run's interrupt, if Ginkgo's report or the signal
// watcher saw one. Both are told of a signal, each on its own: when Ginkgo
// is through first, the watcher is given a moment, and then the interrupt
// is made here.
func interruptedRun(r types.Report) *mpi.Interruption {
	if it := mpi.Ongoing.Load(); it != nil {
		return it
	}
	if !slices.ContainsFunc(r.SpecialSuiteFailureReasons, func(s string) bool { return strings.Contains(s, "Interrupted") }) {
		return nil
	}
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		if it := mpi.Ongoing.Load(); it != nil {
			return it
		}
	}
	return mpi.Interrupt("an interrupt")
}

// judgedBefore are the verdicts judged before the interrupt, in the order
// they came in, while a suite runs (a corpus replay keeps none).
var judgedBefore = struct {
	sync.Mutex
	on bool
	v  []judgedVerdictOf
}{}

type judgedVerdictOf struct {
	rule rulebook.Rule
	impl string
	v    verdict.Verdict
}

// noteJudged records a verdict reached before any interrupt: one reached
// after it may come from a job the interrupt killed.
func noteJudged(r rulebook.Rule, impl string, v verdict.Verdict) {
	judgedBefore.Lock()
	defer judgedBefore.Unlock()
	if judgedBefore.on && mpi.Ongoing.Load() == nil {
		judgedBefore.v = append(judgedBefore.v, judgedVerdictOf{r, impl, v})
	}
}

// interruptedSummary is what the console gets when the run was
// interrupted: what the interrupt did, how many verdicts were in, and the
// fails and errors among them (as Summary lists them at the end of a run),
// as the expectations file, if any, sees them. expected is how many
// verdicts the run's selection asked for (0: not known ahead).
func (s *Suite) interruptedSummary(it *mpi.Interruption, expected int, cleaned bool, impls ...string) string {
	got, rep, counts := s.judgedBeforeReport()
	n := len(rep.SpecReports)
	var b strings.Builder
	of := ""
	if expected > 0 {
		of = fmt.Sprintf(" of %d", expected)
	}
	fmt.Fprintf(&b, "\nmpits %s: interrupted by %s after %s: %d%s verdicts were in (%s)", s.Name, it.Cause,
		it.At.Sub(interruptStart).Round(100*time.Millisecond), n, of, statusCounts(counts))
	switch {
	case !cleaned:
		fmt.Fprintf(&b, "; the running jobs were still being killed when it ended\n")
	case it.Killed == 0:
		fmt.Fprintf(&b, "; no job was running\n")
	default:
		fmt.Fprintf(&b, "; %s killed, %s removed\n", verdict.Plural(it.Killed, "running job"), verdict.Plural(it.Removed, "job folder"))
	}
	if line := s.notReached(got, impls, it.Cause); line != "" {
		b.WriteString(line)
	}
	if sum := Summary(rep); sum != "" {
		b.WriteString(strings.TrimPrefix(sum, "\n"))
	} else if n > 0 {
		b.WriteString("none of them failed the run\n")
	}
	for _, st := range expecting.sorted() {
		if st.update {
			fmt.Fprintf(&b, "%s not written: the run did not finish\n", st.file.Path)
		}
	}
	return b.String()
}

// judgedBeforeReport is the verdicts judged before the interrupt, of the
// specs the run selects, as the specs they would have ended as
// (judgedSpec), and their counts by status.
func (s *Suite) judgedBeforeReport() ([]judgedVerdictOf, types.Report, map[verdict.Status]int) {
	judgedBefore.Lock()
	got := slices.Clone(judgedBefore.v)
	judgedBefore.Unlock()
	checks := s.checkOf()
	// An injector's proof judges the rule on implementations the filter
	// may not select: only the verdicts of selected specs count.
	selected, known := labelSelector()
	counts := map[verdict.Status]int{}
	rep := types.Report{SuiteDescription: s.Name}
	filter := ginkgo.GinkgoLabelFilter()
	for _, g := range got {
		c, ok := checks[g.rule.ID]
		if !ok || (known && !selected(specLabels(c, g.rule, &mpi.Impl{ID: g.impl}))) {
			continue
		}
		counts[g.v.Status]++
		info := s.Info(c, g.rule)
		rep.SpecReports = append(rep.SpecReports, judgedSpec(Judged{RuleInfo: info, Impl: g.impl}, g.rule, g.v, filter))
	}
	return got, rep, counts
}

// checkOf is the check of each rule id.
func (s *Suite) checkOf() map[string]rulebook.Check {
	checks := map[string]rulebook.Check{}
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			checks[r.ID] = c
		}
	}
	return checks
}

// InterruptNode is the report node that fails an interrupted run.
const InterruptNode = "mpits interrupted"

// NotReachedPrefix begins the message of a spec the run ended before it
// was judged: no verdict, neither unsupported nor an error.
const NotReachedPrefix = "not reached: "

// interruptedReport is what an interrupted run reports in every output
// (JUnit, --json, --html): every verdict judged before the interrupt, and
// every other selected rule on impls as not reached; the suite did not
// succeed, whatever came in.
func (s *Suite) interruptedReport(it *mpi.Interruption, impls []string) types.Report {
	got, rep, _ := s.judgedBeforeReport()
	rep.SuiteSucceeded = false
	rep.SpecialSuiteFailureReasons = []string{"interrupted by " + it.Cause}
	rep.StartTime, rep.EndTime = interruptStart, it.At
	rep.RunTime = it.At.Sub(interruptStart)
	for _, u := range s.unjudged(got, impls) {
		sp := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "on " + u.impl, State: types.SpecStateSkipped,
			Failure: types.Failure{Message: NotReachedPrefix + "the run was ended by " + it.Cause}}
		sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: "rule", Value: types.WrapEntryValue(Judged{RuleInfo: s.Info(u.check, u.rule), Impl: u.impl})})
		rep.SpecReports = append(rep.SpecReports, sp)
	}
	return rep
}

// unjudgedCell is a selected rule on an implementation that got no verdict.
type unjudgedCell struct {
	check rulebook.Check
	rule  rulebook.Rule
	impl  string
}

// unjudged are the rules on impls that got no verdict in got, in the
// suite's order, of the specs the label filter selects (every one where
// the filter cannot be read here).
func (s *Suite) unjudged(got []judgedVerdictOf, impls []string) []unjudgedCell {
	judged := map[string]bool{}
	for _, g := range got {
		judged[g.rule.ID+"\x00"+g.impl] = true
	}
	selected, known := labelSelector()
	var out []unjudgedCell
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			for _, id := range impls {
				if !judged[r.ID+"\x00"+id] && (!known || selected(specLabels(c, r, &mpi.Impl{ID: id}))) {
					out = append(out, unjudgedCell{c, r, id})
				}
			}
		}
	}
	return out
}

// interruptStart is when the process's suite started, for the time an
// interrupted run says it ran.
var interruptStart time.Time

// judgedSpec is the spec a verdict judged ahead of its spec would have
// ended as: a fail or error the expectations file expects skipped, one of
// a rule the run is strict on failed, another passed (reported).
func judgedSpec(j Judged, r rulebook.Rule, v verdict.Verdict, filter string) types.SpecReport {
	sp := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "on " + j.Impl, State: types.SpecStatePassed}
	sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: "rule", Value: types.WrapEntryValue(j)})
	strict := rulebook.Strict(r.Basis, filter)
	if st := expecting[j.Suite]; st != nil {
		res, action := st.compare(r, j.Impl, v, strict)
		sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: ExpectEntry, Value: types.WrapEntryValue(res)})
		switch action {
		case failChanged:
			sp.State = types.SpecStateFailed
		case skipExpected:
			sp.State = types.SpecStateSkipped
		}
	}
	if sp.State == types.SpecStatePassed && strict && (v.Status == verdict.Fail || v.Status == verdict.Error) {
		sp.State = types.SpecStateFailed
	}
	sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: "verdict", Value: types.WrapEntryValue(v)})
	return sp
}

// notReached names the selected rules on impls that the run had not judged
// when cause ended it (the first few, and how many in all).
func (s *Suite) notReached(got []judgedVerdictOf, impls []string, cause string) string {
	if _, known := labelSelector(); !known || len(impls) == 0 {
		return ""
	}
	var missed []string
	for _, u := range s.unjudged(got, impls) {
		missed = append(missed, u.rule.ID+" on "+u.impl)
	}
	if len(missed) == 0 {
		return ""
	}
	const shown = 12
	more := ""
	if len(missed) > shown {
		more = fmt.Sprintf(", … (%d more)", len(missed)-shown)
		missed = missed[:shown]
	}
	return fmt.Sprintf("NOT REACHED (%s): %s\n", cause, strings.Join(missed, ", ")+more)
}
