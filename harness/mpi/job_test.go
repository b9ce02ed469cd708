package mpi

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

var (
	detectOnce sync.Once
	detected   []*Impl
)

// hostImpl is the implementation DetectFromPath finds for id (mpich,
// openmpi); the test is skipped when it is not installed.
func hostImpl(t *testing.T, id string) *Impl {
	t.Helper()
	detectOnce.Do(func() { detected = DetectFromPath() })
	for _, im := range detected {
		if im.ID == id {
			return im
		}
	}
	t.Skipf("no %s on PATH (DetectFromPath found %v)", id, ids(detected))
	return nil
}

// buildFixture builds fixtures/c/harness/<name>.c for im into $MPITS_CACHE
// and returns its path.
func buildFixture(t *testing.T, im *Impl, name string) string {
	t.Helper()
	b := Build(im, Fixture{Name: name, Sources: []string{"harness/" + name + ".c"}})
	if b.Error != "" {
		t.Fatalf("building %s for %s: %s", name, im.ID, b.Error)
	}
	return b.Path
}

// proc is what the watcher saw of one process.
type proc struct {
	pid, pgid, sid int
	argv0          string
	job            string // its MPITS_JOB
}

// watcher records, while a job runs, every process whose environment
// carries watchEnv=<mark>: it tells the test the job's MPITS_JOB token and
// that the ranks really ran.
type watcher struct {
	mark string
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	seen map[int]proc
}

const watchEnv = "MPITS_TEST_WATCH"

func watch(mark string) *watcher {
	w := &watcher{mark: mark, stop: make(chan struct{}), done: make(chan struct{}), seen: map[int]proc{}}
	go func() {
		defer close(w.done)
		for {
			for _, p := range procsWithEnv(watchEnv + "=" + mark) {
				w.mu.Lock()
				if _, ok := w.seen[p.pid]; !ok || p.argv0 != w.seen[p.pid].argv0 {
					w.seen[p.pid] = p // again after an exec
				}
				w.mu.Unlock()
			}
			select {
			case <-w.stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return w
}

func (w *watcher) end() []proc {
	close(w.stop)
	<-w.done
	var out []proc
	for _, p := range w.seen {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b proc) int { return a.pid - b.pid })
	return out
}

// procsWithEnv lists the live (not zombie) processes whose environment
// holds the assignment kv.
func procsWithEnv(kv string) []proc {
	var out []proc
	for _, pid := range MarkedPids([]byte(kv + "\x00")) {
		env, err1 := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		cmd, err2 := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		st, err3 := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		// read again, the process may be mid-exec (its environ empty for
		// an instant): only the read that holds kv tells its token
		if err1 != nil || err2 != nil || err3 != nil || !bytes.Contains(env, []byte(kv+"\x00")) {
			continue
		}
		p := proc{pid: pid, argv0: string(bytes.SplitN(cmd, []byte{0}, 2)[0])}
		for _, e := range strings.Split(string(env), "\x00") {
			if v, ok := strings.CutPrefix(e, settings.JobMarker+"="); ok {
				p.job = v
			}
		}
		// pid (comm) state ppid pgrp session ...
		if i := bytes.LastIndexByte(st, ')'); i > 0 {
			if f := strings.Fields(string(st[i+1:])); len(f) > 3 {
				p.pgid, _ = strconv.Atoi(f[2])
				p.sid, _ = strconv.Atoi(f[3])
			}
		}
		out = append(out, p)
	}
	return out
}

// procsRunning lists the live processes whose argv[0] is prog.
func procsRunning(prog string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || string(bytes.SplitN(cmd, []byte{0}, 2)[0]) != prog || isZombie(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// alive reports whether pid is a live process (not gone, not a zombie).
func alive(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil && !isZombie(pid)
}

// checkNothingLeft fails if any process of the job survived Run.
func checkNothingLeft(t *testing.T, res *Result, mark, prog string, seen []proc) {
	t.Helper()
	tokens := map[string]bool{}
	for _, p := range seen {
		tokens[p.job] = true
	}
	// A short job may end before the watcher looks (then seen is empty).
	if len(tokens) > 1 || tokens[""] {
		t.Errorf("the job's processes carry MPITS_JOB tokens %v, want one", tokens)
	}
	for tok := range tokens {
		if tok == "" {
			continue
		}
		if left := procsWithEnv(settings.JobMarker + "=" + tok); len(left) > 0 {
			t.Errorf("processes with %s=%s outlived Run: %+v\n%s", settings.JobMarker, tok, left, res.Evidence())
		}
	}
	if left := procsWithEnv(watchEnv + "=" + mark); len(left) > 0 {
		t.Errorf("processes with the job's environment outlived Run: %+v", left)
	}
	if prog != "" {
		if left := procsRunning(prog); len(left) > 0 {
			t.Errorf("%s processes outlived Run: %v", prog, left)
		}
	}
	for _, p := range seen {
		if alive(p.pid) {
			// The pid may have been reused: only a process of this job counts.
			env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.pid))
			if bytes.Contains(env, []byte(mark)) {
				t.Errorf("process %d (%s) of the job is still alive", p.pid, p.argv0)
			}
		}
	}
}

// ranksRunning closes running once n processes of the job marked with mark
// run prog, and sets *at to then; stop ends its watch and must be called
// before *at is read.
func ranksRunning(mark, prog string, n int) (running <-chan struct{}, at *time.Time, stop func()) {
	ch, quit, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	at = new(time.Time)
	go func() {
		defer close(done)
		for {
			k := 0
			for _, p := range procsWithEnv(watchEnv + "=" + mark) {
				if p.argv0 == prog {
					k++
				}
			}
			if k >= n {
				*at = time.Now()
				close(ch)
				return
			}
			select {
			case <-quit:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return ch, at, func() { close(quit); <-done }
}

// TestDeadlineKillsMPIJob runs a job that never ends: at its deadline the
// whole job is killed, including ranks the launchers put into sessions or
// process groups of their own (hydra's proxy and ranks call setsid, Open
// MPI's ranks get process groups of their own), which only the MPITS_JOB
// scan finds.
//
// The ranks must run when the deadline fires: its clock starts once the
// test sees them run (Job.Started), not when the launcher starts, which a
// busy machine outlasted by 3 s (Open MPI's ranks had not started). The two
// implementations' jobs run side by side, so the test takes one deadline.
func TestDeadlineKillsMPIJob(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs a never-ending 2-rank job of MPICH and of Open MPI to its 3 s deadline, 4 s; run without -short")
	}
	t.Setenv("MPITS_CACHE", t.TempDir())
	for _, id := range []string{"mpich", "openmpi"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			im := hostImpl(t, id)
			prog := buildFixture(t, im, "hang")
			mark := RandomToken()
			w := watch(mark)
			const deadline = 3 * time.Second
			running, ranksAt, stop := ranksRunning(mark, prog, 2)
			res, err := Run(Job{Impl: im, Name: "hang", Ranks: 2, Program: prog,
				Env: map[string]string{watchEnv: mark}, Deadline: deadline, Started: running})
			ended := time.Now()
			seen := w.end()
			stop()
			if err != nil {
				t.Fatal(err)
			}
			defer res.Cleanup()
			t.Logf("%s: %v in %s, leftover %v; processes seen: %+v", id, res.Argv, res.Duration, res.Leftover, seen)

			if !res.TimedOut {
				t.Errorf("TimedOut is false\n%s", res.Evidence())
			}
			if at := *ranksAt; at.IsZero() {
				t.Errorf("the 2 ranks were never seen running\n%s", res.Evidence())
			} else if d := ended.Sub(at); res.Duration < deadline || d < deadline || d > deadline+5*time.Second {
				t.Errorf("Duration %s, killed %s after the ranks ran, want about the deadline %s", res.Duration, d, deadline)
			}
			if res.OK() {
				t.Error("a job that timed out is OK()")
			}
			// The launcher itself dies of the harness's SIGKILL.
			if res.ExitCode != -1 || res.Signal != "SIGKILL" {
				t.Errorf("exit code %d signal %q, want -1 SIGKILL", res.ExitCode, res.Signal)
			}
			if p := res.Problem(); !strings.HasPrefix(p, "hang (`"+res.Command()+"`) did not finish within its deadline (") || !strings.HasSuffix(p, ") and was killed") {
				t.Errorf("Problem() = %q", p)
			}

			var ranks []proc
			for _, p := range seen {
				if p.argv0 == prog {
					ranks = append(ranks, p)
				}
			}
			if len(ranks) != 2 {
				t.Fatalf("want 2 ranks running %s during the job, saw %+v", prog, seen)
			}
			// The ranks are out of the launcher's process group, so the group
			// kill misses them. Whether the scan or the launcher's own clean-up
			// (hydra's proxy kills its ranks when mpiexec's socket closes) gets
			// a rank first is a race: Leftover may or may not list it, but no
			// rank may survive (checkNothingLeft).
			for _, p := range seen {
				if p.argv0 == res.Argv[0] {
					for _, r := range ranks {
						if r.pgid == p.pgid {
							t.Logf("rank %d shares the launcher's process group %d", r.pid, p.pgid)
						}
					}
				}
			}
			if len(res.Leftover) > 0 && !strings.Contains(res.Evidence(), fmt.Sprintf("killed %d leftover process(es) of the job: %v", len(res.Leftover), res.Leftover)) {
				t.Errorf("Evidence does not list the leftover processes:\n%s", res.Evidence())
			}
			checkNothingLeft(t, res, mark, prog, seen)
		})
	}
}

// TestCrashedRank runs a job whose rank 0 raises SIGSEGV after MPI_Init.
//
// What the launchers print (Debian 12: MPICH 4.0 hydra, Open MPI 4.1):
//   - mpiexec.mpich exits with status 11 (the signal number, not 128+11) and
//     prints to stdout "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
//     ... EXIT CODE: 11 ... YOUR APPLICATION TERMINATED WITH THE EXIT STRING:
//     Segmentation fault (signal 11)"; UCX in the rank also prints "Caught
//     signal 11 (Segmentation fault: ..." and a backtrace to stderr.
//   - mpiexec.openmpi exits with status 139 and prints to stderr the rank's
//     backtrace ("Signal: Segmentation fault (11)") and "mpiexec.openmpi
//     noticed that process rank 0 with PID 0 on node vm exited on signal 11
//     (Segmentation fault)."
//
// Both report the signal, so Signal must be SIGSEGV under both.
//
// The deadline only bounds a launcher that never ends the job: how soon
// it does on a busy machine is not what is tested.
func TestCrashedRank(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds and runs a crashing 2-rank job of MPICH and of Open MPI, 2-5 s; run without -short")
	}
	t.Setenv("MPITS_CACHE", t.TempDir())
	for _, c := range []struct {
		id       string
		exitCode int
	}{{"mpich", 11}, {"openmpi", 139}} {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			im := hostImpl(t, c.id)
			prog := buildFixture(t, im, "crash")
			mark := RandomToken()
			w := watch(mark)
			res, err := Run(Job{Impl: im, Name: "crash fixture", Ranks: 2, Program: prog,
				Env: map[string]string{watchEnv: mark}, Deadline: 2 * time.Minute})
			seen := w.end()
			if err != nil {
				t.Fatal(err)
			}
			defer res.Cleanup()
			t.Logf("%s: exit %d signal %q in %s\n%s", c.id, res.ExitCode, res.Signal, res.Duration, res.Evidence())

			if res.TimedOut {
				t.Fatalf("the crashed job did not end by itself (%s)", res.Duration)
			}
			if res.OK() {
				t.Fatal("a crashed job is OK()")
			}
			if res.ExitCode != c.exitCode {
				t.Errorf("launcher exit status %d, want %d", res.ExitCode, c.exitCode)
			}
			if res.Signal != "SIGSEGV" {
				t.Errorf("Signal = %q, want SIGSEGV from the launcher's report", res.Signal)
			}
			if want := fmt.Sprintf("crash fixture crashed: SIGSEGV (exit status %d)", c.exitCode); res.Problem() != want {
				t.Errorf("Problem() = %q, want %q", res.Problem(), want)
			}
			// Rank 0 wrote its record before dying.
			if rs, err := ReadRecords(res.Dir, "crash", 1); err != nil || len(rs.Kind("alive", 0)) != 1 {
				t.Errorf("rank 0's alive record: %v", err)
			}
			checkNothingLeft(t, res, mark, prog, seen)
		})
	}
}

// TestDeadlineKillsSetsidDaemon runs a plain command (no launcher) that
// starts a daemon in a session of its own: the process group kill misses
// it, the MPITS_JOB scan must not. The daemon must have started when the
// deadline fires, and Run's clock starts with the job's sh: the deadline
// is a generous bound on that start.
func TestDeadlineKillsSetsidDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs a job with a setsid daemon to its 5 s deadline, 5 s; run without -short")
	}
	mark := RandomToken()
	w := watch(mark)
	host := &Impl{ID: "host"}
	script := `setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' & exec sleep 300`
	const deadline = 5 * time.Second
	res, err := Run(Job{Impl: host, Name: "daemon", Program: "sh", Args: []string{"-c", script},
		Env: map[string]string{watchEnv: mark}, Deadline: deadline})
	seen := w.end()
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if want := []string{"sh", "-c", script}; !slices.Equal(res.Argv, want) {
		t.Errorf("Argv = %q, want %q", res.Argv, want)
	}
	if !res.TimedOut || res.Duration < deadline || res.Duration > deadline+5*time.Second {
		t.Errorf("TimedOut %v after %s, want true after about %s", res.TimedOut, res.Duration, deadline)
	}
	data, err := os.ReadFile(filepath.Join(res.Dir, "daemon.pid"))
	if err != nil {
		t.Fatalf("the daemon did not start: %v\n%s", err, res.Evidence())
	}
	daemon, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range seen {
		if p.pid == daemon && p.sid != daemon {
			t.Errorf("the daemon %d is in session %d, not its own: the test does not test the scan", daemon, p.sid)
		}
	}
	if !slices.Contains(res.Leftover, daemon) {
		t.Errorf("the setsid daemon %d is not in Leftover %v", daemon, res.Leftover)
	}
	if alive(daemon) {
		t.Errorf("the setsid daemon %d is still alive", daemon)
	}
	if ev := res.Evidence(); !strings.Contains(ev, "leftover process(es) of the job") || !strings.Contains(ev, strconv.Itoa(daemon)) {
		t.Errorf("Evidence does not name the leftover daemon:\n%s", ev)
	}
	checkNothingLeft(t, res, mark, "", seen)
}

// TestPlainJobs covers Run without a launcher: exit status, output, the
// record folder, RankEnv and a program that cannot start.
func TestPlainJobs(t *testing.T) {
	host := &Impl{ID: "host"}
	t.Run("exit status", func(t *testing.T) {
		res, err := Run(Job{Impl: host, Name: "three", Program: "sh",
			Args: []string{"-c", `echo out; echo err >&2; printf %s "$MPITS_RECORD_DIR" > rd; exit 3`}, Deadline: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Cleanup()
		if res.OK() || res.TimedOut || res.ExitCode != 3 || res.Signal != "" {
			t.Errorf("OK %v timed out %v exit %d signal %q, want exit 3 only", res.OK(), res.TimedOut, res.ExitCode, res.Signal)
		}
		if res.Stdout != "out\n" || res.Stderr != "err\n" {
			t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
		}
		if rd, _ := os.ReadFile(filepath.Join(res.Dir, "rd")); string(rd) != res.Dir {
			t.Errorf("%s = %q, want the job folder %s", settings.RecordEnv, rd, res.Dir)
		}
		if p := res.Problem(); p != "three exited with status 3" {
			t.Errorf("Problem() = %q", p)
		}
		ev := res.Evidence()
		for _, s := range []string{"command: sh -c echo out;", "stdout (tail):\nout\n", "stderr (tail):\nerr\n"} {
			if !strings.Contains(ev, s) {
				t.Errorf("Evidence lacks %q:\n%s", s, ev)
			}
		}
		if strings.Contains(ev, "leftover") {
			t.Errorf("Evidence names leftovers of a job that left none:\n%s", ev)
		}
		dir := res.Dir
		res.Cleanup()
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("Cleanup left %s: %v", dir, err)
		}
	})
	t.Run("no core files", func(t *testing.T) {
		res, err := Run(Job{Impl: host, Name: "core limit", Program: "sh", Args: []string{"-c", "ulimit -c"}, Deadline: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Cleanup()
		if strings.TrimSpace(res.Stdout) != "0" {
			t.Errorf("a job's core file size limit is %q, want 0", strings.TrimSpace(res.Stdout))
		}
	})
	t.Run("ok", func(t *testing.T) {
		// A job that exits 0 is OK even if its output reads like a crash report.
		res, err := Run(Job{Impl: host, Name: "fine", Program: "sh",
			Args:    []string{"-c", `echo "rank 1 exited on signal 11 (Segmentation fault)"; echo "$A$B"`},
			RankEnv: map[string]string{"B": "2", "A": "1"}, Deadline: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Cleanup()
		if !res.OK() || res.Problem() != "" || res.Signal != "" {
			t.Errorf("OK %v, problem %q, signal %q", res.OK(), res.Problem(), res.Signal)
		}
		if want := []string{"env", "A=1", "B=2", "sh", "-c"}; !slices.Equal(res.Argv[:5], want) {
			t.Errorf("RankEnv goes through env(1): argv %q", res.Argv)
		}
		if !strings.HasSuffix(res.Stdout, "\n12\n") {
			t.Errorf("stdout %q, want RankEnv set", res.Stdout)
		}
	})
	t.Run("killed by a signal", func(t *testing.T) {
		res, err := Run(Job{Impl: host, Name: "segv", Program: "sh", Args: []string{"-c", "kill -SEGV $$"}, Deadline: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Cleanup()
		if res.Signal != "SIGSEGV" || res.ExitCode != -1 || res.TimedOut {
			t.Errorf("signal %q exit %d timed out %v, want SIGSEGV -1 false", res.Signal, res.ExitCode, res.TimedOut)
		}
		if p := res.Problem(); p != "segv crashed: SIGSEGV (exit status -1)" {
			t.Errorf("Problem() = %q", p)
		}
	})
	t.Run("cannot start", func(t *testing.T) {
		// With a Root the job folder goes to <root>/tmp, where the test can
		// see that it was removed.
		root := t.TempDir()
		if err := os.Mkdir(filepath.Join(root, "tmp"), 0o755); err != nil {
			t.Fatal(err)
		}
		res, err := Run(Job{Impl: &Impl{ID: "host", Root: root}, Name: "nothing", Program: "/nonexistent/prog", Deadline: 10 * time.Second})
		if res != nil {
			t.Errorf("want no result, got %+v", res)
		}
		mpitest.WantOneLineErr(t, err, "host: cannot start /nonexistent/prog")
		if left, _ := os.ReadDir(filepath.Join(root, "tmp")); len(left) > 0 {
			t.Errorf("the job folder was left behind: %v", left)
		}
	})
}

func TestProblemAndEvidence(t *testing.T) {
	long := strings.Repeat("a", 1000) + strings.Repeat("b", 1500)
	for _, c := range []struct {
		name    string
		res     Result
		problem string
		ok      bool
	}{
		{"timeout", Result{Name: "hang", TimedOut: true, Duration: 3001500 * time.Microsecond, ExitCode: -1, Signal: "SIGKILL"},
			"hang did not finish within its deadline (3.002s) and was killed", false},
		{"timeout names the command", Result{Name: "caps_after_init", Argv: []string{"/opt/mpi/bin/mpiexec", "-n", "1", "/var/cache/mpits/fixtures/a/caps_after_init-0123/caps_after_init"},
			TimedOut: true, Duration: 60 * time.Second, ExitCode: -1, Signal: "SIGKILL"},
			"caps_after_init (`/opt/mpi/bin/mpiexec -n 1 …/caps_after_init`) did not finish within its deadline (1m0s) and was killed", false},
		{"crash", Result{Name: "crash", ExitCode: 139, Signal: "SIGSEGV"}, "crash crashed: SIGSEGV (exit status 139)", false},
		{"signal of the launcher", Result{Name: "x", ExitCode: -1, Signal: "SIGABRT"}, "x crashed: SIGABRT (exit status -1)", false},
		{"exit status", Result{Name: "x", ExitCode: 1}, "x exited with status 1", false},
		{"ok", Result{Name: "x"}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.res.Problem(); got != c.problem {
				t.Errorf("Problem() = %q, want %q", got, c.problem)
			}
			if strings.Contains(c.res.Problem(), "\n") {
				t.Error("Problem() is not one line")
			}
			if c.res.OK() != c.ok {
				t.Errorf("OK() = %v, want %v", c.res.OK(), c.ok)
			}
		})
	}

	r := Result{Name: "x", Argv: []string{"mpiexec", "-n", "2", "/p"}, Stdout: long, Stderr: "short\n", Leftover: []int{12, 34}}
	ev := r.Evidence()
	want := "command: mpiexec -n 2 /p\nkilled 2 leftover process(es) of the job: [12 34]\nstdout (tail):\n..." +
		strings.Repeat("b", 1500) + "\nstderr (tail):\nshort\n"
	if ev != want {
		t.Errorf("Evidence() =\n%s\nwant\n%s", ev, want)
	}
}

func TestReportedSignal(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		// MPICH hydra without UCX: only its own box on stdout.
		{"=   EXIT CODE: 11\n=   CLEANING UP REMAINING PROCESSES\nYOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)\n", "SIGSEGV"},
		{"YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Aborted (signal 6)\n", "SIGABRT"},
		{"=   KILLED BY SIGNAL: 9 (Killed)\n", "SIGKILL"},
		{"mpiexec.openmpi noticed that process rank 0 with PID 0 on node vm exited on signal 11 (Segmentation fault).\n", "SIGSEGV"},
		{"prterun noticed that process rank 1 with PID 7 on node n terminated with signal 7 (Bus error).\n", "SIGBUS"},
		{"[vm:1] Signal: Floating point exception (8)\n", "SIGFPE"},
		{"[vm:1:0:1] Caught signal 11 (Segmentation fault: tkill(2) or tgkill(2) at address 0x73ab)\n", "SIGSEGV"},
		{"exited on signal 42", "signal 42"},
		{"srun: error: n1: task 0: Segmentation fault (core dumped)\n", "SIGSEGV"},
		{"srun: error: n2: tasks 0-1: Aborted\n", "SIGABRT"},
		{"srun: error: n1: task 0: Killed\nsrun: error: n2: task 1: Bus error\n", "SIGBUS"},
		{"srun: error: n2: task 1: Killed\nsrun: error: n1: task 0: Killed\n", ""},
		{"srun: error: n1: tasks 0-1: Exited with exit code 17\n", ""},
		{"srun: error: n1: task 1: Exited with exit code 17\nsrun: error: n2: task 0: Killed\n", ""},
		{"all fine\n", ""},
	} {
		if got := reportedSignal(c.out); got != c.want {
			t.Errorf("reportedSignal(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}
