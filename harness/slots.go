package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Jobs run side by side, but not without bound: MPI ranks poll, so too many
// at once on a core slow each other down until their deadlines bite. A job
// of n ranks takes n slots (all of them when n is more); a direct run or a
// build takes one. Slots are shared by every mpits process of the machine
// (suites run side by side too) through lock files. There are eight slots a
// core: a job spends most of its time starting (the launcher, its daemons,
// MPI_Init) rather than running, so slots as many as cores left the cores
// idle most of the time (measured on 2 cores, the MPI_T suite on eight
// implementations: 227 s with 2 slots, 138 s with 4, 104 s with 8, 95 s with
// 16). With the four suites side by side the cores are busy all the time,
// and more slots still help: a rank waiting for its peer yields the core
// (sched_yield in a loop) and only spins when nothing else is runnable
// (measured, whole ci/run-suites: 119-122 s and 124 s of system CPU with 8
// slots, 105-121 s with 12, 99-111 s and 83-94 s of system CPU with 16,
// 112-114 s with 20 and 24; the same verdicts each time).

// JobsEnv overrides the number of slots (default: eight a core).
const JobsEnv = "MPITS_JOBS"

// Slots is the number of ranks mpits runs at once.
func Slots() int {
	if n, err := strconv.Atoi(os.Getenv(JobsEnv)); err == nil && n > 0 {
		return n
	}
	return 8 * runtime.NumCPU()
}

// A job a chain waits on (the next run of a program resumed past a death,
// LaunchResuming) is urgent: it goes before every other waiting job, here
// and in the other mpits processes of the machine. A chain of twenty
// launches that queued behind the rest of the run was its last minute.

var (
	slotsOnce sync.Once
	slotDir   string
	local     slotGate // this process's share
)

// slotGate hands out this process's slots: urgent acquirers first, each
// class first come first served, so an n-slot job is never passed by
// smaller ones until it starves.
type slotGate struct {
	mu      sync.Mutex
	cond    sync.Cond
	free    int
	urgent  int       // urgent acquirers waiting
	next    [2]uint64 // the next ticket, per class (0 normal, 1 urgent)
	serving [2]uint64 // the ticket whose turn it is, per class
}

func (g *slotGate) take(n int, urgent bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := 0
	if urgent {
		c = 1
		g.urgent++
	}
	ticket := g.next[c]
	g.next[c]++
	for g.serving[c] != ticket || g.free < n || (!urgent && g.urgent > 0) {
		g.cond.Wait()
	}
	g.serving[c]++
	if urgent {
		g.urgent--
	}
	g.free -= n
	g.cond.Broadcast()
}

func (g *slotGate) give(n int) {
	g.mu.Lock()
	g.free += n
	g.cond.Broadcast()
	g.mu.Unlock()
}

// acquireSlots blocks until n slots are this job's and returns their release.
func acquireSlots(n int, urgent bool) (release func()) {
	slotsOnce.Do(func() {
		local.cond.L = &local.mu
		local.free = Slots()
		slotDir = filepath.Join(os.TempDir(), fmt.Sprintf("mpits-slots-%d", os.Getuid()))
		_ = os.MkdirAll(slotDir, 0o755)
	})
	total := Slots()
	n = min(max(n, 1), total)
	local.take(n, urgent)
	files := lockSlotFiles(n, total, urgent)
	return func() {
		for _, f := range files {
			f.Close() // drops the lock
		}
		local.give(n)
	}
}

// lockSlotFiles takes n of the machine-wide slot files, polling while other
// mpits processes hold them. An urgent acquirer holds a shared lock on the
// file "urgent" while it polls; the others poll only while nobody does.
// Without a slot folder it takes none: slots only pace the run, they are
// never a reason for it to fail.
func lockSlotFiles(n, total int, urgent bool) []*os.File {
	if urgent {
		if f, err := os.OpenFile(filepath.Join(slotDir, "urgent"), os.O_CREATE|os.O_RDWR, 0o644); err == nil {
			if syscall.Flock(int(f.Fd()), syscall.LOCK_SH) == nil {
				defer f.Close()
			} else {
				f.Close()
			}
		}
	}
	for {
		if urgent || !urgentWaiting() {
			if got := tryLockSlotFiles(n, total); got != nil {
				return got
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// urgentWaiting says whether an urgent acquirer of any mpits process is
// polling for slots.
func urgentWaiting() bool {
	f, err := os.OpenFile(filepath.Join(slotDir, "urgent"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false
	}
	defer f.Close() // drops the test lock
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}

// tryLockSlotFiles takes n free slot files at once, or none (nil). Without a
// slot folder it takes none and says so with an empty, non-nil list.
func tryLockSlotFiles(n, total int) []*os.File {
	got := []*os.File{}
	for i := 0; i < total && len(got) < n; i++ {
		f, err := os.OpenFile(filepath.Join(slotDir, strconv.Itoa(i)), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return got
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			f.Close()
			continue
		}
		got = append(got, f)
	}
	if len(got) == n {
		return got
	}
	for _, f := range got {
		f.Close()
	}
	return nil
}
