package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// A suite package on a fake implementation (its capabilities in the run
// folder already, no MPI): R-FAIL fails and R-PASS passes at once, R-SLOW
// launches a job whose launcher sleeps, with a second sleeper in a session
// of its own that only the job's marker finds. The rules are judged side by
// side: R-FAIL and R-PASS leave a file in $MPITSTEST_JUDGED as they end,
// and R-SLOW launches only once both are there, so that a running job
// means their verdicts are in, however busy the machine.
func slowSuite(t *testing.T) (dir string, env []string, jobDir string) {
	dir = testModule(t, map[string]string{
		"suites/pi/pi_test.go": `package pi

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func judged(id string) { os.WriteFile(filepath.Join(os.Getenv("MPITSTEST_JUDGED"), id), nil, 0o644) }

func bothJudged() bool {
	for _, id := range []string{"R-FAIL", "R-PASS"} {
		if _, err := os.Stat(filepath.Join(os.Getenv("MPITSTEST_JUDGED"), id)); err != nil {
			return false
		}
	}
	return true
}

var Suite = &harness.Suite{Name: "PI", Checks: []rulebook.Check{{ID: "C-PI", Title: "a slow job", Needs: "mpi", Rules: []rulebook.Rule{
	{ID: "R-FAIL", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "fails", Judge: func(*rulebook.X) verdict.Verdict { defer judged("R-FAIL"); return verdict.Verdict{Status: verdict.Fail, Reason: "it broke"} }},
	{ID: "R-PASS", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "passes", Judge: func(*rulebook.X) verdict.Verdict { defer judged("R-PASS"); return rulebook.Exposed(1, "things", "fine") }},
	{ID: "R-SLOW", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Text: "waits", Judge: func(x *rulebook.X) verdict.Verdict {
		for end := time.Now().Add(2 * time.Minute); !bothJudged() && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
		res, _, _ := x.Launch(mpi.Job{Name: "slow", Ranks: 1, Program: "/bin/true"})
		if !res.OK() {
			return verdict.Verdict{Status: verdict.Error, Reason: res.Problem()}
		}
		return rulebook.Exposed(1, "jobs", "it ran")
	}},
}}}}

func TestPI(t *testing.T) { Suite.Run(t) }
`,
		RulesFile: `{"rules": [
{"id": "R-FAIL", "suite": "PI", "check": "C-PI", "source": "MPI-5.0 §15.3.3", "basis": "normative", "needs": "mpi", "injectors": []},
{"id": "R-PASS", "suite": "PI", "check": "C-PI", "source": "MPI-5.0 §15.3.3", "basis": "normative", "needs": "mpi", "injectors": []},
{"id": "R-SLOW", "suite": "PI", "check": "C-PI", "source": "MPI-5.0 §15.3.3", "basis": "normative", "needs": "mpi", "injectors": []}
]}
`,
	})
	tmp := t.TempDir()
	launcher := mpitest.WriteFile(t, filepath.Join(tmp, "fake-mpiexec"), "#!/bin/sh\nsetsid sleep 120 </dev/null >/dev/null 2>&1 &\nexec sleep 120\n", 0o755)
	impls := mpitest.WriteFile(t, filepath.Join(tmp, "impls.json"), `{"implementations":[{"id":"fake","available":true,"cc":"/bin/true","launcher":"`+launcher+`"}]}`, 0o644)
	run := filepath.Join(tmp, "run")
	plantProbe(t, run, impls, "fake")
	jobDir = filepath.Join(tmp, "jobs")
	if err := os.MkdirAll(jobDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, []string{"MPITS_IMPLEMENTATIONS=" + impls, settings.RunDirEnv + "=" + run, "MPITS_PROGRESS=0", "MPITS_JOB_DIR=" + jobDir}, jobDir
}

// marked are the live processes (not zombies) whose environment holds mark.
func marked(mark string) []int {
	return mpi.MarkedPids([]byte(mark + "\x00"))
}

// jobFolders are the job folders in dir.
func jobFolders(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "mpits-job-*"))
	return m
}

// Whoever gets the signal, an interrupted run ends within seconds, kills
// its job (the launcher and the sleeper it left in another session),
// removes the job's folder and prints on the console the verdicts it had:
// Ctrl-C (SIGINT to the process group: go and the test process), SIGINT to
// the test process alone, SIGTERM to the go command alone (it dies; the
// test process, its parent gone, stops as on SIGINT).
func TestInterruptCleansUpAndReports(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs go test of a suite three times and interrupts it, about 10 s; run without -short")
	}
	dir, env, jobDir := slowSuite(t)
	for _, c := range []struct {
		name  string
		send  func(t *testing.T, goPid int, mark string)
		cause string
	}{
		{"ctrl-c", func(t *testing.T, goPid int, _ string) { syscall.Kill(-goPid, syscall.SIGINT) }, "SIGINT"},
		{"sigint-test-process", func(t *testing.T, _ int, mark string) { syscall.Kill(testProcess(t, mark), syscall.SIGINT) }, "SIGINT"},
		{"sigterm-go", func(t *testing.T, goPid int, _ string) { syscall.Kill(goPid, syscall.SIGTERM) }, "the end of the go command that started it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mark := "MPITSTEST_INTERRUPT=" + mpi.RandomToken() // not MPITS_: no setting
			judgedDir := "MPITSTEST_JUDGED=" + t.TempDir()
			outPath := filepath.Join(t.TempDir(), "out")
			// appended to, as a terminal or a CI log: the test process writes
			// its console lines there itself (goStderr)
			out, err := os.OpenFile(outPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			cmd := goCommand(t, dir, append(env, mark, judgedDir), "test", "-count=1", "./...", "-args", "-ginkgo.no-color")
			cmd.Stdout, cmd.Stderr = out, out
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				for _, pid := range marked(mark) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			})
			// the job runs: its two sleepers carry its marker
			deadline := time.Now().Add(3 * time.Minute)
			for len(jobSleepers(mark)) < 2 || len(jobFolders(jobDir)) == 0 {
				if time.Now().After(deadline) {
					b, _ := os.ReadFile(outPath)
					t.Fatalf("the job did not start:\n%s", b)
				}
				select {
				case err := <-exited:
					b, _ := os.ReadFile(outPath)
					t.Fatalf("go test ended (%v) before the job started:\n%s", err, b)
				case <-time.After(100 * time.Millisecond):
				}
			}
			// R-FAIL's and R-PASS's judges have ended (R-SLOW waits for
			// them): this is the instant between a judge's end and its
			// verdict's noting.
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			c.send(t, cmd.Process.Pid, mark)
			for len(marked(mark)) > 0 {
				if time.Since(start) > 30*time.Second {
					b, _ := os.ReadFile(outPath)
					t.Fatalf("processes left 30 s after the signal: %v\n%s", describe(marked(mark)), b)
				}
				time.Sleep(20 * time.Millisecond)
			}
			took := time.Since(start)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				t.Fatal("go test did not end")
			}
			b, _ := os.ReadFile(outPath)
			text := string(b)
			t.Logf("%s: every process gone %s after the signal; the output:\n%s", c.name, took.Round(time.Millisecond), text)
			if took > 10*time.Second {
				t.Errorf("the run took %s to end after the signal", took)
			}
			for _, want := range []string{
				"mpits PI: interrupted by " + c.cause,
				"2 of 3 verdicts were in (1 pass, 1 fail); 1 running job killed, 1 job folder removed\n",
				"FAILED:\n  R-FAIL on fake (MPI-5.0 §15.3.3, normative): it broke\n",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("the output lacks %q", want)
				}
			}
			if left := jobFolders(jobDir); len(left) > 0 {
				t.Errorf("job folders left: %v", left)
			}
		})
	}
}

// jobSleepers are the processes of a job (they carry a job marker) in the
// run marked with mark.
func jobSleepers(mark string) []int {
	var out []int
	for _, pid := range marked(mark) {
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if bytes.Contains(env, []byte("\x00"+settings.JobMarker+"=")) {
			out = append(out, pid)
		}
	}
	return out
}

// testProcess is the suite's test process of the run marked with mark.
func testProcess(t *testing.T, mark string) int {
	for _, pid := range marked(mark) {
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if strings.TrimSpace(string(comm)) == "pi.test" {
			return pid
		}
	}
	t.Fatal("no test process pi.test")
	return 0
}

func describe(pids []int) string {
	var out []string
	for _, pid := range pids {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmd), "\x00", " ")))
	}
	return strings.Join(out, "; ")
}

// What an interrupted run prints: the verdicts in before the interrupt, as
// the end of a run lists them (a quality fail reported, not failing it).
func TestInterruptedSummary(t *testing.T) {
	v := func(st verdict.Status, reason string) func(*rulebook.X) verdict.Verdict {
		return func(*rulebook.X) verdict.Verdict { return verdict.Verdict{Status: st, Reason: reason} }
	}
	rules := []rulebook.Rule{
		{ID: "R-F", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Judge: v(verdict.Fail, "it broke")},
		{ID: "R-Q", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Quality, Judge: v(verdict.Fail, "it broke quietly")},
		{ID: "R-E", Source: "seed 000", Basis: rulebook.SeedBasis, Judge: v(verdict.Error, "the fixture died\nwith more")},
		{ID: "R-P", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative, Judge: func(*rulebook.X) verdict.Verdict { return rulebook.Exposed(1, "things", "fine") }},
	}
	s := &Suite{Name: "U", Checks: []rulebook.Check{{ID: "C-U", Title: "u", Needs: "mpi", Rules: rules}}}
	judgedBefore.Lock()
	saved := judgedBefore.v
	judgedBefore.v = nil
	for _, r := range rules {
		judgedBefore.v = append(judgedBefore.v, judgedVerdictOf{r, "impl-a", r.Judge(nil)})
	}
	judgedBefore.Unlock()
	t.Cleanup(func() { judgedBefore.Lock(); judgedBefore.v = saved; judgedBefore.Unlock() })
	start := time.Now()
	saveStart := interruptStart
	interruptStart = start
	t.Cleanup(func() { interruptStart = saveStart })

	got := s.interruptedSummary(&mpi.Interruption{Cause: "SIGTERM", At: start.Add(2 * time.Second), Killed: 2, Removed: 2}, 10, true)
	want := `
mpits U: interrupted by SIGTERM after 2s: 4 of 10 verdicts were in (1 pass, 2 fail, 1 error); 2 running jobs killed, 2 job folders removed
mpits U: 1 rules failed, 1 errors (the suite or a fixture broke), 1 quality/interpretation verdicts reported
FAILED:
  R-F on impl-a (MPI-5.0 §15.3.3, normative): it broke
ERRORS:
  R-E on impl-a (seed 000, seed): the fixture died
(1 quality/interpretation fails or errors are in the report, not failing the run: set MPITS_STRICT=quality to fail on them)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = s.interruptedSummary(&mpi.Interruption{Cause: "SIGINT", At: start}, 0, false)
	if !strings.HasPrefix(got, "\nmpits U: interrupted by SIGINT after 0s: 4 verdicts were in (1 pass, 2 fail, 1 error); the running jobs were still being killed when it ended\n") {
		t.Errorf("got:\n%s", got)
	}
}
