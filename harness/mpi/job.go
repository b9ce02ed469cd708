package mpi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/mpits/mpits/harness/settings"
)

// Job is one run of a program for an implementation: launched with Ranks
// ranks through the implementation's launcher, or directly when Ranks is 0.
type Job struct {
	Impl     *Impl
	Name     string            // names the job in evidence
	Ranks    int               // 0: run Program directly, no launcher
	Program  string            // path as the implementation sees it
	Args     []string          // arguments to Program
	Env      map[string]string // added to the launcher's environment (and so the ranks')
	RankEnv  map[string]string // set for the ranks only (e.g. LD_PRELOAD of tools), through env(1)
	Deadline time.Duration     // default 60 s; the whole process tree is killed then
	OneNode  bool              // through Slurm, all ranks on one node (what the judge knows holds only there)
	// Long: known to run for many seconds (under valgrind, say). Long jobs
	// take slots before short ones, as chained ones do, so that the run does
	// not end with one of them started last.
	Long   bool
	Urgent bool // a chain waits on it: it takes slots before other jobs (LaunchResuming)
	// Started, when not nil, starts the deadline's clock once it is closed
	// instead of at the launch (startedWithin bounds the wait for it): a
	// test of the deadline closes it once it sees the ranks run, so that a
	// launcher slow to start them on a busy machine does not use it up.
	Started <-chan struct{}
}

// Result is what a job did. Dir (host path) holds stdout, stderr and the
// records of every rank; it is removed by Cleanup.
type Result struct {
	Name     string
	Argv     []string
	Dir      string
	ExitCode int    // -1 when killed by a signal
	Signal   string // the launcher's or a rank's fatal signal, e.g. "SIGSEGV"
	TimedOut bool
	Duration time.Duration
	Stdout   string
	Stderr   string
	Leftover []int // pids of the job that outlived it and had to be killed
}

// JobDir is the folder job folders are made in (inside an implementation's
// root when it has one): MPITS_JOB_DIR, default /tmp. Ranks on other hosts
// write their records there, so on a cluster it must be a folder every
// node shares.
func JobDir() string {
	if d := settings.Setting("MPITS_JOB_DIR").String(); d != "" {
		return d
	}
	return "/tmp"
}

const outputCap = 1 << 20

// startedWithin bounds how long a job's deadline waits for Job.Started.
const startedWithin = 2 * time.Minute

// Run runs the job to completion or to its deadline and leaves none of its
// processes behind.
func Run(j Job) (*Result, error) {
	offTapeIfReplaying("the direct run " + j.Name)
	dumpNoCores()
	im := j.Impl
	if j.Deadline == 0 {
		j.Deadline = 60 * time.Second
	}
	if Interrupted() {
		return nil, fmt.Errorf("%s: %s: %w", im.ID, j.Name, errInterrupted)
	}
	asked := time.Now()
	// A direct run (a build, a preprocessed header, a library probe) takes
	// a fraction of a second and judges wait on what it makes: it goes
	// first too (mpi.h preprocessed in 0.1 s had waited 29 s for a slot,
	// and the QMPI coverage and memcheck rules with it).
	defer acquireSlots(j.Ranks, j.Urgent || j.Long || j.Ranks == 0)()
	waited := time.Since(asked)
	dir, err := os.MkdirTemp(im.HostPath(JobDir()), "mpits-job-")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot make a job folder under %s: %v", im.ID, im.HostPath(JobDir()), err)
	}
	token := RandomToken()
	// The folder names its owner, so that a later run can tell it was left
	// behind, and it is this process's until Cleanup: an interrupt kills
	// the job and removes the folder (interrupt.go).
	if err := writeOwner(dir, token); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: cannot write in the job folder %s: %v", im.ID, dir, err)
	}
	if err := holdJob(&liveJob{dir: dir, token: token, slurm: im.Launch != settings.LaunchDirect && j.Ranks > 0}); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", im.ID, j.Name, err)
	}
	prog, args := j.Program, j.Args
	if len(j.RankEnv) > 0 {
		prog, args = "env", append(SortedAssignments(j.RankEnv), append([]string{j.Program}, j.Args...)...)
	}
	argv := im.jobArgv(j.Ranks, j.OneNode, dir, token, prog, args)
	res := &Result{Name: j.Name, Argv: argv, Dir: dir}
	// TMPDIR is the job folder: what the runtime keeps there (Open MPI's
	// session folders) goes with the folder, also when the job is killed.
	// The implementation's and the job's own settings come after it and win.
	// In a root it is set inside the root (jobArgv): a host srun would hand
	// the inner path to slurmstepd, which makes that folder on the host.
	var tmp []string
	if im.Root == "" {
		tmp = []string{"TMPDIR=" + dir}
	}
	env := im.environ(tmp, j.Env)
	if j.Ranks == 0 && im.isCompiler(j.Program) {
		env = compilerLocale(env)
	}
	env = append(env, settings.RecordEnv+"="+im.InnerPath(dir), settings.JobMarker+"="+token)
	if mark := settings.Setting(settings.RunMark).String(); mark != "" {
		env = append(env, settings.RunMark+"="+mark)
	}

	stdout, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		res.Cleanup()
		return nil, err
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		res.Cleanup()
		return nil, err
	}
	defer stderr.Close()

	start := time.Now() // before the deadline's clock starts: Duration >= Deadline on a timeout
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	go func() {
		if j.Started != nil {
			select {
			case <-j.Started:
			case <-time.After(startedWithin):
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-time.After(j.Deadline):
			cancel(context.DeadlineExceeded)
		case <-ctx.Done():
		}
	}()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second

	runErr := cmd.Start()
	if runErr == nil {
		jobStarted(dir, cmd.Process.Pid)
		runErr = cmd.Wait()
	}
	res.Duration = time.Since(start)
	var cpu time.Duration
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	logJob(j, res.Duration, waited, cpu)
	res.TimedOut = context.Cause(ctx) == context.DeadlineExceeded
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	res.Leftover = KillMarked(token)
	if im.Launch != settings.LaunchDirect && j.Ranks > 0 && (res.TimedOut || len(res.Leftover) > 0) {
		cancelSlurmJob(token)
	}
	jobEnded(dir)

	if cmd.ProcessState != nil {
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		res.ExitCode = ws.ExitStatus()
		if ws.Signaled() {
			res.Signal = SignalName(int(ws.Signal()))
		}
	} else if runErr != nil {
		res.Cleanup()
		return nil, fmt.Errorf("%s: cannot start %s: %v", im.ID, argv[0], runErr)
	}
	res.Stdout = readCapped(filepath.Join(dir, "stdout"))
	res.Stderr = readCapped(filepath.Join(dir, "stderr"))
	// A launcher reports a rank's fatal signal in words, and fails; the
	// output of a job that succeeded is not searched (it may quote such words).
	if res.Signal == "" && !res.TimedOut && res.ExitCode != 0 {
		res.Signal = reportedSignal(res.Stdout + res.Stderr)
	}
	return res, nil
}

// OK reports whether the job exited 0 in time with no signal.
func (r *Result) OK() bool { return !r.TimedOut && r.ExitCode == 0 && r.Signal == "" }

// Problem describes in one line why the job did not end well, or "". A
// job killed at its deadline names its command: what hung (a launcher, a
// compiler) is the first thing to know.
func (r *Result) Problem() string {
	if r.TimedOut {
		return r.CommandProblem()
	}
	return r.problem(r.Name)
}

// CommandProblem is Problem naming the job's command (Command) however it
// ended: "build x (`mpicc -o …/x …/x.c`) exited with status 1".
func (r *Result) CommandProblem() string {
	if len(r.Argv) == 0 {
		return r.problem(r.Name)
	}
	return r.problem(fmt.Sprintf("%s (`%s`)", r.Name, r.Command()))
}

func (r *Result) problem(subject string) string {
	switch {
	case r.TimedOut:
		return fmt.Sprintf("%s did not finish within its deadline (%s) and was killed", subject, r.Duration.Round(time.Millisecond))
	case r.Signal != "":
		return fmt.Sprintf("%s crashed: %s (exit status %d)", subject, r.Signal, r.ExitCode)
	case r.ExitCode != 0:
		return fmt.Sprintf("%s exited with status %d", subject, r.ExitCode)
	}
	return ""
}

// Command is the job's command line for a one-line reason: the program as
// given, the folders of every later argument shortened to "…/", and the
// middle of what is still longer than commandCap left out. Evidence has it
// whole.
func (r *Result) Command() string {
	if len(r.Argv) == 0 {
		return ""
	}
	words := []string{r.Argv[0]}
	for _, a := range r.Argv[1:] {
		words = append(words, folders.ReplaceAllString(a, "…/"))
	}
	s := strings.Join(words, " ")
	if len(s) <= commandCap {
		return s
	}
	head, rest := commandCap/2, len(s)-commandCap/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for rest < len(s) && !utf8.RuneStart(s[rest]) {
		rest++
	}
	return s[:head] + " … " + s[rest:]
}

// commandCap bounds Command: enough for a launcher or compiler wrapper,
// its options and the program it ran.
const commandCap = 200

// folders are the folders of a path in an argument ("-I/a/b/lib" has
// "/a/b/"), up to a separator of a list or an assignment.
var folders = regexp.MustCompile(`/(?:[^/\s:=]+/)+`)

// Evidence is the command and the tail of the job's output, for reports.
func (r *Result) Evidence() string {
	var b strings.Builder
	fmt.Fprintf(&b, "command: %s\n", strings.Join(r.Argv, " "))
	if len(r.Leftover) > 0 {
		fmt.Fprintf(&b, "killed %d leftover process(es) of the job: %v\n", len(r.Leftover), r.Leftover)
	}
	fmt.Fprintf(&b, "stdout (tail):\n%s\nstderr (tail):\n%s", Tail(r.Stdout, 1500), Tail(r.Stderr, 1500))
	return b.String()
}

// Cleanup removes the job folder.
func (r *Result) Cleanup() {
	os.RemoveAll(r.Dir)
	releaseJob(r.Dir)
}

// KillMarked kills every process whose environment carries the job token and
// waits until they are gone; it returns their pids.
func KillMarked(token string) []int {
	want := []byte(settings.JobMarker + "=" + token + "\x00")
	var killed []int
	for round := 0; round < 50; round++ {
		// a token is no secret: another user's process may carry it
		found := slices.DeleteFunc(MarkedPids(want), func(pid int) bool { return !procOfThisUser(pid) })
		if len(found) == 0 {
			break
		}
		for _, pid := range found {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			if !slices.Contains(killed, pid) { // also those forked meanwhile
				killed = append(killed, pid)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return killed
}

// MarkedPids are the processes (but this one) whose environment carries
// one of the wanted markers.
func MarkedPids(wants ...[]byte) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	self := os.Getpid()
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		env = append([]byte{0}, env...)
		if !slices.ContainsFunc(wants, func(w []byte) bool { return bytes.Contains(env, append([]byte{0}, w...)) }) {
			continue
		}
		if isZombie(pid) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

func isZombie(pid int) bool {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(st, ')')
	return i < 0 || i+2 >= len(st) || st[i+2] == 'Z' || st[i+2] == 'X'
}

// Launchers report a rank's fatal signal in their own words.
var signalPatterns = []*regexp.Regexp{
	regexp.MustCompile(`KILLED BY SIGNAL: (\d+)`),               // MPICH hydra
	regexp.MustCompile(`EXIT STRING: [^\n(]*\(signal (\d+)\)`),  // MPICH hydra 4
	regexp.MustCompile(`exited on signal (\d+)`),                // Open MPI
	regexp.MustCompile(`terminated with signal (\d+)`),          // Open MPI 5+
	regexp.MustCompile(`Signal: [A-Za-z ]+\((\d+)\)`),           // Open MPI backtrace
	regexp.MustCompile(`(?i)signal (\d+) \(Segmentation fault`), // generic
}

// srun names a task's fatal signal, not its number. "Killed" is left out:
// srun says it of the tasks it ended itself after another failed.
var srunSignal = regexp.MustCompile(`srun: error: \S+: tasks? [0-9,-]+: (Segmentation fault|Aborted|Bus error|Floating point exception|Illegal instruction)`)

var signalByName = map[string]int{"Segmentation fault": 11, "Aborted": 6, "Bus error": 7, "Floating point exception": 8, "Illegal instruction": 4}

func reportedSignal(out string) string {
	for _, re := range signalPatterns {
		if m := re.FindStringSubmatch(out); m != nil {
			n, _ := strconv.Atoi(m[1])
			return SignalName(n)
		}
	}
	if m := srunSignal.FindStringSubmatch(out); m != nil {
		return SignalName(signalByName[m[1]])
	}
	return ""
}

// SignalName names a fatal signal by its number ("SIGSEGV").
func SignalName(n int) string {
	names := map[int]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM"}
	if s, ok := names[n]; ok {
		return s
	}
	return fmt.Sprintf("signal %d", n)
}

func readCapped(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, outputCap))
	return string(b)
}

// Tail is the last n bytes of s, marked as cut when they are not all of it.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// RandomToken is a new job marker: random, so that no other run has it.
func RandomToken() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// SortedAssignments is env as NAME=VALUE words, sorted by name.
func SortedAssignments(env map[string]string) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
