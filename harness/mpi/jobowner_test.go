package mpi

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// A run removes, when it starts, the job folders no live process owns: its
// owner gone (or its pid now another process's), or no owner and old. Those
// of a live process, of another host, or just made are kept.
func TestSweepJobDirs(t *testing.T) {
	d := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	folder := func(name string, o *jobOwner, age time.Duration) string {
		p := filepath.Join(d, name)
		mpitest.WriteFile(t, filepath.Join(p, "rank-0.jsonl"), "{}\n", 0o644)
		if o != nil {
			data, _ := json.Marshal(o)
			mpitest.WriteFile(t, filepath.Join(p, jobOwnerFile), string(data), 0o644)
		}
		if age > 0 {
			old := time.Now().Add(-age)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	stale := []string{
		folder("mpits-job-dead", &jobOwner{Host: hostname(), PID: dead.Process.Pid, Start: "1"}, 0),
		folder("mpits-job-reused", &jobOwner{Host: hostname(), PID: self, Start: "1"}, 0), // our pid, another start
		folder("mpits-job-old", nil, 2*ownerlessAge),
	}
	kept := []string{
		folder("mpits-job-live", &jobOwner{Host: hostname(), PID: self, Start: procStart(self)}, 0),
		folder("mpits-job-elsewhere", &jobOwner{Host: hostname() + "-other", PID: dead.Process.Pid, Start: "1"}, 0),
		folder("mpits-job-new", nil, 0),
		folder("mpits-job-garbled", &jobOwner{}, 0),
		folder("not-a-job", &jobOwner{Host: hostname(), PID: dead.Process.Pid, Start: "1"}, 0),
	}
	removed := sweepJobDirs([]string{d, filepath.Join(d, "absent")})
	want := append([]string{}, stale...)
	sort.Strings(want)
	if strings.Join(removed, " ") != strings.Join(want, " ") {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}

// The leftovers of a dead run's job (processes carrying its marker) go with
// its folder.
func TestSweepKillsLeftovers(t *testing.T) {
	d := t.TempDir()
	token := RandomToken()
	sleeper := exec.Command("sleep", "60")
	sleeper.Env = append(os.Environ(), settings.JobMarker+"="+token)
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { sleeper.Wait(); close(waited) }()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(jobOwner{Host: hostname(), PID: dead.Process.Pid, Start: "1", Token: token})
	mpitest.WriteFile(t, filepath.Join(d, "mpits-job-1", jobOwnerFile), string(data), 0o644)
	if got := sweepJobDirs([]string{d}); len(got) != 1 {
		t.Fatalf("removed %v", got)
	}
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		sleeper.Process.Kill()
		t.Fatal("the dead run's leftover " + strconv.Itoa(sleeper.Process.Pid) + " was not killed")
	}
}

// A job folder names its owner, this process, with the job's marker.
func TestJobFolderOwner(t *testing.T) {
	d := t.TempDir()
	if err := writeOwner(d, "abc"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(d, jobOwnerFile))
	if err != nil {
		t.Fatal(err)
	}
	var o jobOwner
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	if o.PID != os.Getpid() || o.Host != hostname() || o.Token != "abc" || !ownerAlive(o.PID, o.Start) {
		t.Errorf("owner %+v", o)
	}
}

// Only a job's own leftovers go: a process that carries the marker but
// started before the run that made the folder is not of its job.
func TestSweepSparesOlderProcesses(t *testing.T) {
	d := t.TempDir()
	token := RandomToken()
	sleeper := func(env ...string) (*exec.Cmd, chan struct{}) {
		c := exec.Command("sleep", "60")
		c.Env = append(os.Environ(), env...)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { c.Wait(); close(done) }()
		t.Cleanup(func() { c.Process.Kill(); <-done })
		return c, done
	}
	pause := func() { time.Sleep(50 * time.Millisecond) } // start times count 10 ms ticks
	mark := settings.JobMarker + "=" + token
	older, olderDone := sleeper(mark)
	pause()
	owner, _ := sleeper() // its start stands for the dead owner's
	pause()
	_, leftoverDone := sleeper(mark)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(jobOwner{Host: hostname(), PID: dead.Process.Pid, Start: procStart(owner.Process.Pid), Token: token})
	mpitest.WriteFile(t, filepath.Join(d, "mpits-job-1", jobOwnerFile), string(data), 0o644)
	if got := sweepJobDirs([]string{d}); len(got) != 1 {
		t.Fatalf("removed %v", got)
	}
	select {
	case <-leftoverDone:
	case <-time.After(5 * time.Second):
		t.Fatal("the dead run's leftover was not killed")
	}
	select {
	case <-olderDone:
		t.Fatalf("process %d, older than the folder's owner, was killed", older.Process.Pid)
	default:
	}
}

// A run's mark (MPITS_RUN_MARK) is in each job folder's owner file, so a
// script counts the folders its own run left, never another run's.
func TestOwnerFileCarriesTheRunMark(t *testing.T) {
	mpitest.ClearSettings(t)
	t.Setenv("MPITS_RUN_MARK", "ci-42")
	dir := t.TempDir()
	if err := writeOwner(dir, "tok"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, jobOwnerFile))
	if !strings.Contains(string(data), `"run_mark":"ci-42"`) {
		t.Errorf("the owner file %s lacks the run's mark", data)
	}
	t.Setenv("MPITS_RUN_MARK", "a b")
	if err := settings.CheckSettings(); err == nil || !strings.Contains(err.Error(), "MPITS_RUN_MARK") {
		t.Errorf("a mark with a space is not refused: %v", err)
	}
}
