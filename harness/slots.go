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
// (suites run side by side too) through lock files. There are four slots a
// core: a job spends most of its time starting (the launcher, its daemons,
// MPI_Init) rather than running, so slots as many as cores left the cores
// idle most of the time (measured on 2 cores, the MPI_T suite on eight
// implementations: 227 s with 2 slots, 138 s with 4, 104 s with 8, 95 s with
// 16; the same verdicts each time; the load average stayed below 3 at 16).

// JobsEnv overrides the number of slots (default: four a core).
const JobsEnv = "MPITS_JOBS"

// Slots is the number of ranks mpits runs at once.
func Slots() int {
	if n, err := strconv.Atoi(os.Getenv(JobsEnv)); err == nil && n > 0 {
		return n
	}
	return 4 * runtime.NumCPU()
}

var (
	slotsOnce sync.Once
	slotDir   string
	localFree chan struct{} // this process's share, first come first served
	localMu   sync.Mutex    // one acquirer at a time, so n-slot jobs never deadlock
)

// acquireSlots blocks until n slots are this job's and returns their release.
func acquireSlots(n int) (release func()) {
	slotsOnce.Do(func() {
		total := Slots()
		localFree = make(chan struct{}, total)
		for i := 0; i < total; i++ {
			localFree <- struct{}{}
		}
		slotDir = filepath.Join(os.TempDir(), fmt.Sprintf("mpits-slots-%d", os.Getuid()))
		_ = os.MkdirAll(slotDir, 0o755)
	})
	total := cap(localFree)
	if n < 1 {
		n = 1
	}
	if n > total {
		n = total
	}
	localMu.Lock()
	for i := 0; i < n; i++ {
		<-localFree
	}
	localMu.Unlock()
	files := lockSlotFiles(n, total)
	return func() {
		for _, f := range files {
			f.Close() // drops the lock
		}
		for i := 0; i < n; i++ {
			localFree <- struct{}{}
		}
	}
}

// lockSlotFiles takes n of the machine-wide slot files, polling while other
// mpits processes hold them. Without a slot folder it takes none: slots
// only pace the run, they are never a reason for it to fail.
func lockSlotFiles(n, total int) []*os.File {
	for {
		var got []*os.File
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
		time.Sleep(10 * time.Millisecond)
	}
}
