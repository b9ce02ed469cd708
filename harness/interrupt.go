package harness

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	ginkgo "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
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

// interruption is the run's interrupt, once it came.
type interruption struct {
	cause   string // "SIGINT", "SIGTERM", "SIGHUP", or that the go command is gone
	at      time.Time
	killed  int           // running jobs killed
	removed int           // job folders removed
	done    chan struct{} // closed once they are
}

// wait waits for the jobs to be killed and their folders removed, at most d.
func (it *interruption) wait(d time.Duration) bool {
	select {
	case <-it.done:
		return true
	case <-time.After(d):
		return false
	}
}

var interrupted atomic.Pointer[interruption]

// errInterrupted ends a job asked for after the interrupt.
var errInterrupted = errors.New("the run was interrupted: no job starts any more")

// liveJob is a job folder of this process and, while its job runs, the
// job's launcher (the leader of its process group) and marker.
type liveJob struct {
	dir   string
	token string
	pid   int  // 0 until started and again once ended
	slurm bool // its ranks run in a Slurm allocation named after token
}

// jobs are this process's job folders by host path, from their making to
// Result.Cleanup.
var jobs = struct {
	sync.Mutex
	m map[string]*liveJob
}{m: map[string]*liveJob{}}

// holdJob records a job folder just made; after the interrupt it removes
// the folder and refuses.
func holdJob(j *liveJob) error {
	jobs.Lock()
	defer jobs.Unlock()
	if interrupted.Load() != nil {
		os.RemoveAll(j.dir)
		return errInterrupted
	}
	jobs.m[j.dir] = j
	return nil
}

// jobStarted records the launcher of the job in dir; after the interrupt
// it kills its process group at once (the interrupt may have missed it).
func jobStarted(dir string, pid int) {
	jobs.Lock()
	defer jobs.Unlock()
	if j := jobs.m[dir]; j != nil {
		j.pid = pid
	}
	if interrupted.Load() != nil {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// jobEnded records that the job in dir has no process left.
func jobEnded(dir string) {
	jobs.Lock()
	defer jobs.Unlock()
	if j := jobs.m[dir]; j != nil {
		j.pid = 0
	}
}

// releaseJob forgets a job folder (Result.Cleanup removes it).
func releaseJob(dir string) {
	jobs.Lock()
	delete(jobs.m, dir)
	jobs.Unlock()
}

// Interrupted says whether the run was interrupted.
func Interrupted() bool { return interrupted.Load() != nil }

// interrupt stops the run for cause: from now on no job starts; every job
// running is killed, and every job folder removed, in the background
// (it.done). Only the first call counts.
func interrupt(cause string) *interruption {
	it := &interruption{cause: cause, at: time.Now(), done: make(chan struct{})}
	jobs.Lock()
	if !interrupted.CompareAndSwap(nil, it) {
		jobs.Unlock()
		return interrupted.Load()
	}
	var held []*liveJob
	for _, j := range jobs.m {
		c := *j
		held = append(held, &c)
	}
	jobs.Unlock()
	go func() {
		defer close(it.done)
		it.killed, it.removed = killJobs(held)
	}()
	return it
}

// killJobs kills the processes of the running jobs and removes every
// folder; it returns how many jobs were running and how many folders it
// removed.
func killJobs(held []*liveJob) (killed, removed int) {
	var tokens []string
	var wg sync.WaitGroup
	for _, j := range held {
		if j.pid == 0 {
			continue
		}
		killed++
		_ = syscall.Kill(-j.pid, syscall.SIGKILL)
		tokens = append(tokens, j.token)
		if j.slurm {
			wg.Add(1)
			go func(token string) { defer wg.Done(); cancelSlurmJob(token) }(j.token)
		}
	}
	killMarkedAll(tokens)
	wg.Wait()
	for _, j := range held {
		// the job's Cleanup may be removing it too
		if os.RemoveAll(j.dir) == nil {
			if _, err := os.Stat(j.dir); errors.Is(err, os.ErrNotExist) {
				removed++
			}
		}
	}
	return killed, removed
}

// parentPoll is how often a test process looks whether the go command
// that started it is still there.
const parentPoll = 200 * time.Millisecond

// watchInterrupts makes SIGINT, SIGTERM and SIGHUP, and the end of the
// parent process, interrupt the run, for the rest of the process's life.
// Ginkgo watches SIGINT and SIGTERM itself (it skips the remaining specs
// and runs the report nodes); SIGHUP and the parent's end are turned into
// a SIGTERM for it. SIGPIPE is caught too: once the go command is gone, a
// write to the standard output fails instead of killing the process before
// it has cleaned up.
func watchInterrupts() {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	parent := os.Getppid()
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", parent))
	name := strings.TrimSpace(string(comm))
	go func() {
		tick := time.NewTicker(parentPoll)
		defer tick.Stop()
		for {
			select {
			case s := <-sigs:
				switch s {
				case syscall.SIGPIPE:
				case syscall.SIGHUP:
					interrupt("SIGHUP")
					_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
				default:
					interrupt(SignalName(int(s.(syscall.Signal))))
				}
			case <-tick.C:
				if os.Getppid() != parent {
					interrupt(fmt.Sprintf("the end of its parent process %s (pid %d)", name, parent))
					_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
					return
				}
			}
		}
	}()
}

// interruptedRun is the run's interrupt, if Ginkgo's report or the signal
// watcher saw one. Both are told of a signal, each on its own: when Ginkgo
// is through first, the watcher is given a moment, and then the interrupt
// is made here.
func interruptedRun(r types.Report) *interruption {
	if it := interrupted.Load(); it != nil {
		return it
	}
	if !slices.ContainsFunc(r.SpecialSuiteFailureReasons, func(s string) bool { return strings.Contains(s, "Interrupted") }) {
		return nil
	}
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		if it := interrupted.Load(); it != nil {
			return it
		}
	}
	return interrupt("an interrupt")
}

// judgedBefore are the verdicts judged before the interrupt, in the order
// they came in, while a suite runs (a corpus replay keeps none).
var judgedBefore = struct {
	sync.Mutex
	on bool
	v  []judgedVerdictOf
}{}

type judgedVerdictOf struct {
	rule Rule
	impl string
	v    Verdict
}

// noteJudged records a verdict reached before any interrupt: one reached
// after it may come from a job the interrupt killed.
func noteJudged(r Rule, impl string, v Verdict) {
	judgedBefore.Lock()
	defer judgedBefore.Unlock()
	if judgedBefore.on && interrupted.Load() == nil {
		judgedBefore.v = append(judgedBefore.v, judgedVerdictOf{r, impl, v})
	}
}

// interruptedSummary is what the console gets when the run was
// interrupted: what the interrupt did, how many verdicts were in, and the
// fails and errors among them (as Summary lists them at the end of a run),
// as the expectations file, if any, sees them. expected is how many
// verdicts the run's selection asked for (0: not known ahead).
func (s *Suite) interruptedSummary(it *interruption, expected int, cleaned bool) string {
	judgedBefore.Lock()
	got := slices.Clone(judgedBefore.v)
	judgedBefore.Unlock()
	checks := map[string]Check{}
	for _, c := range s.Checks {
		for _, r := range c.AllRules() {
			checks[r.ID] = c
		}
	}
	// An injector's proof judges the rule on implementations the filter
	// may not select: only the verdicts of selected specs count.
	selected, known := labelSelector()
	counts := map[Status]int{}
	rep := types.Report{SuiteDescription: s.Name}
	filter := ginkgo.GinkgoLabelFilter()
	n := 0
	for _, g := range got {
		c, ok := checks[g.rule.ID]
		if !ok || (known && !selected(specLabels(c, g.rule, &Impl{ID: g.impl}))) {
			continue
		}
		n++
		counts[g.v.Status]++
		info := s.Info(c, g.rule)
		rep.SpecReports = append(rep.SpecReports, judgedSpec(Judged{RuleInfo: info, Impl: g.impl}, g.rule, g.v, filter))
	}
	var b strings.Builder
	of := ""
	if expected > 0 {
		of = fmt.Sprintf(" of %d", expected)
	}
	fmt.Fprintf(&b, "\nmpits %s: interrupted by %s after %s: %d%s verdicts were in (%s)", s.Name, it.cause,
		it.at.Sub(interruptStart).Round(100*time.Millisecond), n, of, statusCounts(counts))
	switch {
	case !cleaned:
		fmt.Fprintf(&b, "; the running jobs were still being killed when it ended\n")
	case it.killed == 0:
		fmt.Fprintf(&b, "; no job was running\n")
	default:
		fmt.Fprintf(&b, "; %s killed, %s removed\n", plural(it.killed, "running job"), plural(it.removed, "job folder"))
	}
	if sum := Summary(rep); sum != "" {
		b.WriteString(strings.TrimPrefix(sum, "\n"))
	} else if n > 0 {
		b.WriteString("none of them failed the run\n")
	}
	if st := expecting; st != nil && st.update {
		fmt.Fprintf(&b, "%s not written: the run did not finish\n", st.file.Path)
	}
	return b.String()
}

// interruptStart is when the process's suite started, for the time an
// interrupted run says it ran.
var interruptStart time.Time

// judgedSpec is the spec a verdict judged ahead of its spec would have
// ended as: a fail or error the expectations file expects skipped, one of
// a rule the run is strict on failed, another passed (reported).
func judgedSpec(j Judged, r Rule, v Verdict, filter string) types.SpecReport {
	sp := types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "on " + j.Impl, State: types.SpecStatePassed}
	sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: "rule", Value: types.WrapEntryValue(j)})
	strict := Strict(r.Basis, filter)
	if st := expecting; st != nil {
		res, action := st.compare(r, j.Impl, v, strict)
		sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: ExpectEntry, Value: types.WrapEntryValue(res)})
		switch action {
		case failChanged:
			sp.State = types.SpecStateFailed
		case skipExpected:
			sp.State = types.SpecStateSkipped
		}
	}
	if sp.State == types.SpecStatePassed && strict && (v.Status == Fail || v.Status == Error) {
		sp.State = types.SpecStateFailed
	}
	sp.ReportEntries = append(sp.ReportEntries, types.ReportEntry{Name: "verdict", Value: types.WrapEntryValue(v)})
	return sp
}
