package mpi

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
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

// Slots is the number of ranks mpits runs at once.
func Slots() int {
	if n := settings.Setting(settings.JobsEnv).Int(); n > 0 {
		return n
	}
	return 8 * runtime.NumCPU()
}

// A job a chain waits on (the next run of a program resumed past a death,
// LaunchResuming) is urgent: it goes before every other waiting job, here
// and in the other mpits processes of the machine. A chain of twenty
// launches that queued behind the rest of the run was its last minute. So
// is a job known to be long (Job.Long: valgrind's, which waited 29 s for
// slots and then ran 19 s at the end of the run).

var (
	slotsOnce sync.Once
	local     slotGate     // this process's share
	machine   machineSlots // the machine's, shared with the other mpits processes
)

// slotGate hands out this process's slots: urgent acquirers first, each
// class first come first served, so that smaller jobs do not keep passing
// a job of n slots until it starves.
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
		if dir, err := slotDir(); err == nil {
			machine.open(dir, Slots())
		}
	})
	n = min(max(n, 1), Slots())
	local.take(n, urgent)
	held := machine.take(n, urgent)
	return func() {
		machine.give(held)
		local.give(n)
	}
}

// machineSlots are the machine's slots: lock files in a folder, slot i
// taken by an exclusive flock on file i, so that a process that dies gives
// its slots back. The files stay open for the process's life, and one
// acquirer of the process at a time polls them: every acquirer of every
// process polling every 10 ms, opening each file each time, cost the suites
// 10 s of CPU in a run of 100 s.
type machineSlots struct {
	files  []*os.File // nil without a slot folder: then slots only pace this process
	urgent *os.File   // the file an urgent acquirer holds a shared lock on while it waits
	mu     sync.Mutex // guards held
	held   []bool     // slots of this process
	poll   sync.Mutex // the one acquirer of this process that polls
}

func (m *machineSlots) open(dir string, total int) {
	var files []*os.File // the slots', then the urgent one
	for i := 0; i <= total; i++ {
		name := strconv.Itoa(i)
		if i == total {
			name = "urgent"
		}
		f, err := OpenOwnFile(filepath.Join(dir, name), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			for _, f := range files {
				f.Close()
			}
			return
		}
		files = append(files, f)
	}
	m.files, m.urgent, m.held = files[:total], files[total], make([]bool, total)
}

// take blocks until n of the machine's slots are this acquirer's and returns
// their numbers. An urgent acquirer holds a shared lock on the urgent file
// while it waits; the others take slots only while nobody does.
func (m *machineSlots) take(n int, urgent bool) []int {
	if m.files == nil {
		return nil
	}
	if urgent {
		if f, err := OpenOwnFile(m.urgent.Name(), os.O_RDONLY, 0); err == nil { // its own open file: its own lock
			if syscall.Flock(int(f.Fd()), syscall.LOCK_SH) == nil {
				defer f.Close()
			} else {
				f.Close()
			}
		}
	}
	m.poll.Lock()
	defer m.poll.Unlock()
	for {
		if urgent || !m.urgentWaiting() {
			if got := m.try(n); got != nil {
				return got
			}
		} else {
			// let an urgent acquirer of this process poll
			m.poll.Unlock()
			time.Sleep(10 * time.Millisecond)
			m.poll.Lock()
			continue
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// urgentWaiting says whether an urgent acquirer of any mpits process waits.
func (m *machineSlots) urgentWaiting() bool {
	fd := int(m.urgent.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return true
	}
	_ = syscall.Flock(fd, syscall.LOCK_UN)
	return false
}

// try takes n free slots at once, or none (nil).
func (m *machineSlots) try(n int) []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var got []int
	for i, f := range m.files {
		if len(got) == n {
			break
		}
		if m.held[i] || syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			continue
		}
		m.held[i] = true
		got = append(got, i)
	}
	if len(got) == n {
		return got
	}
	m.release(got)
	return nil
}

func (m *machineSlots) give(slots []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.release(slots)
}

func (m *machineSlots) release(slots []int) {
	for _, i := range slots {
		_ = syscall.Flock(int(m.files[i].Fd()), syscall.LOCK_UN)
		m.held[i] = false
	}
}

// slotDir is the machine's slot folder of this user, found once a process
// (see findSlotDir); a refused one is said on the console once.
var slotDir = sync.OnceValues(func() (string, error) { return findSlotDir(GoStderr()) })

// findSlotDir is $TMPDIR/mpits-slots-<uid>, made if need be, when it is a
// folder (not a link) this user owns and no one else may write: another
// local user who made it, or could write into it, could hold or swap the
// lock files every run of this user waits on. A refused one does not stop
// the run: it is named in one line on warn, and a folder of this user's
// takes its place (fallbackSlotDir).
func findSlotDir(warn io.Writer) (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("mpits-slots-%d", os.Getuid()))
	refused := PrivateDir(dir)
	if refused == nil {
		removeForeign(dir, warn)
		return dir, nil
	}
	own, err := fallbackSlotDir()
	if err != nil {
		return "", fmt.Errorf("the slot folder %v, and no other could be made (%v): set TMPDIR to a folder of yours", refused, settings.Cause(err))
	}
	fmt.Fprintf(warn, "mpits: the slot folder %v: using %s instead; remove it, or set TMPDIR to a folder of yours\n", refused, own)
	return own, nil
}

// removeForeign removes from dir, a folder of this user's (PrivateDir),
// what another user put there while it was open to them: a lock file of
// theirs would be refused (OpenOwnFile) and its slot lost without a word.
func removeForeign(dir string, warn io.Writer) {
	entries, _ := os.ReadDir(dir)
	var gone []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if info, err := os.Lstat(p); err == nil && !ownedBy(info) && os.RemoveAll(p) == nil {
			gone = append(gone, e.Name())
		}
	}
	if len(gone) > 0 {
		fmt.Fprintf(warn, "mpits: the slot folder %s held %s of other users (%s): removed\n", dir, verdict.Plural(len(gone), "file"), verdict.FirstAndMore(gone))
	}
}

// fallbackSlotDir is a slot folder of this user's elsewhere: one in the
// cache, which this user's other runs on this host find too (the cache may
// be shared by the nodes of a cluster, slots are a host's), else a new one
// in $TMPDIR that paces this process's jobs only.
func fallbackSlotDir() (string, error) {
	dir := filepath.Join(CacheDir(), fmt.Sprintf("slots-%s-%d", hostname(), os.Getuid()))
	if os.MkdirAll(CacheDir(), 0o755) == nil && PrivateDir(dir) == nil {
		return dir, nil
	}
	return os.MkdirTemp("", fmt.Sprintf("mpits-slots-%d-", os.Getuid()))
}
