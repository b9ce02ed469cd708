package harness

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
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
	counts                  map[string]map[Status]int
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
		total: map[string]int{}, done: map[string]int{}, counts: map[string]map[Status]int{}}
	p.said = p.start
	return p
}

// console is where progress goes (goStderr), nil when MPITS_PROGRESS=0.
func console() io.Writer {
	if Setting("MPITS_PROGRESS").String() == "0" {
		return nil
	}
	return goStderr()
}

// goStderr is where a line reaches the console: go test keeps a package's
// output until the package ends (and drops it when the package passes), so
// the lines go to the stderr of the go command that runs the test binary,
// when it is the parent and that stderr can take lines from a second writer
// (a terminal, a pipe, a file opened for appending); otherwise to our own
// stderr.
func goStderr() io.Writer {
	ppid := os.Getppid()
	if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid)); err == nil && strings.TrimSpace(string(comm)) == "go" && sharable(ppid) {
		if f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", ppid), os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f
		}
	}
	return os.Stderr
}

// sharable says whether a second writer may add lines to pid's stderr: a
// regular file written without O_APPEND would have them overwritten by the
// owner's next write at its own offset.
func sharable(pid int) bool {
	st, err := os.Stat(fmt.Sprintf("/proc/%d/fd/2", pid))
	if err != nil {
		return false
	}
	if !st.Mode().IsRegular() {
		return true
	}
	info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/2", pid))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(info), "\n") {
		if f, ok := strings.CutPrefix(l, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(f), 8, 64)
			return err == nil && flags&syscall.O_APPEND != 0
		}
	}
	return false
}

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
		p.counts[impl] = map[Status]int{}
	}
	p.total[impl]++
}

// verdict records one verdict in; the implementation's last gets a line.
func (p *progress) verdict(impl string, s Status) {
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
	if n := c[notJudgedStatus]; n > 0 {
		unjudged = fmt.Sprintf(", %d not judged", n)
	}
	p.sayf("%s judged: %d rules (%d pass, %d fail, %d unsupported, %d error%s); %d of %d implementations done",
		impl, p.total[impl], c[Pass], c[Fail], c[Unsupported], c[Error], unjudged, p.implsDone, len(p.total))
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
func (p *progress) verdictOf(impl string, v Verdict) {
	if v.Cause == "" {
		p.verdict(impl, v.Status)
		return
	}
	p.notJudged(v.Cause)
	p.verdict(impl, notJudgedStatus)
}

// proof records one self-test proof in.
func (p *progress) proof() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.proofsDone++
	if p.proofsDone == p.proofsTotal {
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
func (p *progress) expected() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, t := range p.total {
		n += t
	}
	return n
}
