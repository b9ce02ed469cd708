package harness

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// progress tells the console how far a suite is while it runs: a line when
// setup ends, a line when an implementation's verdicts are all in, and a
// heartbeat when nothing else was said for a while, so that a long run
// shows life without flooding a CI log. MPITS_PROGRESS=0 silences it.
type progress struct {
	suite string
	out   io.Writer
	start time.Time
	every time.Duration

	mu                      sync.Mutex
	total, done             map[string]int // verdicts by implementation
	counts                  map[string]map[verdict.Status]int
	order                   []string
	proofsTotal, proofsDone int
	implsDone               int
	setupOver               bool
	said                    time.Time
	causes                  map[string]bool // said already (notJudged)
}

// heartbeat is how long the console may stay silent.
const heartbeat = 20 * time.Second

func newProgress(suite string) *progress {
	p := &progress{suite: suite, out: console(), start: time.Now(), every: heartbeat,
		total: map[string]int{}, done: map[string]int{}, counts: map[string]map[verdict.Status]int{}}
	p.said = p.start
	return p
}

// console is where progress goes (goStderr), nil when MPITS_PROGRESS=0.
func console() io.Writer {
	if settings.Setting("MPITS_PROGRESS").String() == "0" {
		return nil
	}
	if consoleOut != nil {
		return consoleOut
	}
	return mpi.GoStderr()
}

// consoleOut is the run's console (Suite.run): the go command's stderr
// under go test, mpits run's own stderr.
var consoleOut io.Writer

func (p *progress) sayf(format string, args ...any) {
	if p == nil || p.out == nil {
		return
	}
	p.said = time.Now()
	fmt.Fprintf(p.out, "mpits %s [%s]: %s\n", p.suite, time.Since(p.start).Round(time.Second), fmt.Sprintf(format, args...))
}

// setupStarted and setupDone bracket the probes and fixture builds.
func (p *progress) setupStarted(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sayf("probing and building fixtures for %d implementation(s)", n)
	go p.beat()
}

func (p *progress) setupDone() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.setupOver = true
	p.sayf("set up; judging")
}

// expect counts a verdict (impl != "") or a self-test proof to come.
func (p *progress) expect(impl string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if impl == "" {
		p.proofsTotal++
		return
	}
	if _, ok := p.total[impl]; !ok {
		p.order = append(p.order, impl)
		p.counts[impl] = map[verdict.Status]int{}
	}
	p.total[impl]++
}

// verdict records one verdict in; the implementation's last gets a line.
func (p *progress) verdict(impl string, s verdict.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done[impl]++
	p.counts[impl][s]++
	if p.done[impl] < p.total[impl] {
		return
	}
	p.implsDone++
	c := p.counts[impl]
	unjudged := ""
	if n := c[verdict.NotJudged]; n > 0 {
		unjudged = fmt.Sprintf(", %d not judged", n)
	}
	if n := c[notReachedStatus]; n > 0 {
		unjudged += fmt.Sprintf(", %d not reached", n)
	}
	p.sayf("%s judged: %d rules (%d pass, %d fail, %d unsupported, %d error%s); %d of %d implementations done",
		impl, p.total[impl], c[verdict.Pass], c[verdict.Fail], c[verdict.Unsupported], c[verdict.Error], unjudged, p.implsDone, len(p.total))
}

// notJudged says a cause that leaves rules not judged (notjudged.go), the
// first time it is met; "" is none.
func (p *progress) notJudged(cause string) {
	if cause == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.causes[cause] {
		return
	}
	if p.causes == nil {
		p.causes = map[string]bool{}
	}
	p.causes[cause] = true
	p.sayf("not judged: %s", cause)
}

// verdictOf records verdict v on impl in, saying its cause if it was left
// not judged for one not said yet.
func (p *progress) verdictOf(impl string, v verdict.Verdict) {
	if mpi.Interrupted() {
		// ended by the interrupt's killing its jobs, or refused a job:
		// not a verdict (interruptedSummary says which were in before it)
		p.verdict(impl, notReachedStatus)
		return
	}
	if v.Cause == "" {
		p.verdict(impl, v.Status)
		return
	}
	p.notJudged(v.Cause)
	p.verdict(impl, verdict.NotJudged)
}

// proof records one self-test proof in.
func (p *progress) proof() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.proofsDone++
	if p.proofsDone == p.proofsTotal && mpi.Ongoing.Load() == nil { // an interrupted proof is not done
		p.sayf("self-test: all %d fault-injector and conforming-shim proofs done", p.proofsTotal)
	}
}

// beat says how far the run is when nothing was said for a while, until
// every verdict and proof is in.
func (p *progress) beat() {
	if p.out == nil {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C {
		p.mu.Lock()
		done, total := 0, 0
		for im, n := range p.total {
			total += n
			done += p.done[im]
		}
		// With nothing judged ahead (a focus by text), specs judge as they
		// come and there is nothing to count.
		finished := p.setupOver && done == total && p.proofsDone == p.proofsTotal
		if !finished && time.Since(p.said) >= p.every {
			what := "still setting up (probes, fixture builds)"
			if total > 0 {
				what = fmt.Sprintf("%d of %d verdicts, %d of %d implementations done", done, total, p.implsDone, len(p.total))
				if p.proofsTotal > 0 {
					what += fmt.Sprintf(", %d of %d self-test proofs", p.proofsDone, p.proofsTotal)
				}
			}
			p.sayf("%s", what)
		}
		p.mu.Unlock()
		if finished {
			return
		}
	}
}

// expected is how many verdicts the run's selection asks for (0 when the
// specs judge as they come: nothing was counted ahead).
// notReachedStatus counts, in the progress lines, the rules whose
// judgement the run's interrupt or deadline ended.
const notReachedStatus verdict.Status = "not reached"

// impls are the implementations the run judges rules on, in order.
func (p *progress) impls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.order)
}

func (p *progress) expected() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, t := range p.total {
		n += t
	}
	return n
}
