package mpi

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Interruption is the run's interrupt, once it came.
type Interruption struct {
	Cause   string // "SIGINT", "SIGTERM", "SIGHUP", or that the go command is gone
	At      time.Time
	Killed  int           // running jobs killed
	Removed int           // job folders removed
	done    chan struct{} // closed once they are
}

// Wait waits for the jobs to be killed and their folders removed, at most d.
func (it *Interruption) Wait(d time.Duration) bool {
	select {
	case <-it.done:
		return true
	case <-time.After(d):
		return false
	}
}

// Ongoing is the run's interruption: nil until Interrupt sets it, once.
var Ongoing atomic.Pointer[Interruption]

// errInterrupted ends a job asked for after the interrupt.
var errInterrupted = errors.New("the run was interrupted: no job starts any more")

// liveJob is a job folder of this process and, while its job runs, the
// job's launcher (the leader of its process group) and marker.
type liveJob struct {
	dir   string
	token string
	pid   int    // 0 until started and again once ended
	start uint64 // the launcher's start (procStat): its job's processes are younger
	slurm bool   // its ranks run in a Slurm allocation named after token
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
	if Ongoing.Load() != nil {
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
		_, j.start, _ = procStat(pid)
	}
	if Ongoing.Load() != nil {
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
func Interrupted() bool { return Ongoing.Load() != nil }

// Interrupt stops the run for cause: from now on no job starts; every job
// running is killed, and every job folder removed, in the background
// (it.done). Only the first call counts.
func Interrupt(cause string) *Interruption {
	it := &Interruption{Cause: cause, At: time.Now(), done: make(chan struct{})}
	jobs.Lock()
	if !Ongoing.CompareAndSwap(nil, it) {
		jobs.Unlock()
		return Ongoing.Load()
	}
	var held []*liveJob
	for _, j := range jobs.m {
		c := *j
		held = append(held, &c)
	}
	jobs.Unlock()
	go func() {
		defer close(it.done)
		it.Killed, it.Removed = killJobs(held)
	}()
	return it
}

// killJobs kills the processes of the running jobs (their launchers'
// process groups, and the processes of this user that carry their markers,
// killOwnMarked) and removes every folder; it returns how many jobs were
// running and how many folders it removed.
func killJobs(held []*liveJob) (killed, removed int) {
	var marks []jobMark
	var wg sync.WaitGroup
	for _, j := range held {
		if j.pid == 0 {
			continue
		}
		killed++
		_ = syscall.Kill(-j.pid, syscall.SIGKILL)
		marks = append(marks, jobMark{token: j.token, since: j.start})
		if j.slurm {
			wg.Add(1)
			go func(token string) { defer wg.Done(); cancelSlurmJob(token) }(j.token)
		}
	}
	killOwnMarked(marks)
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
