package mpi

import (
	"fmt"
	"github.com/mpits/mpits/harness/mpitest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Jobs of any width never hold more slots at once than there are, and a job
// wider than the machine still runs.
func TestSlotsBoundBusyJobs(t *testing.T) {
	total := Slots()
	var busy, most atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func(width int) {
			defer wg.Done()
			release := acquireSlots(width, width == 0)
			w := int64(min(max(width, 1), total))
			now := busy.Add(w)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			time.Sleep(5 * time.Millisecond)
			busy.Add(-w)
			release()
		}(i % 4 * total) // 0, total, 2*total, 3*total slots asked for
	}
	wg.Wait()
	if got := most.Load(); got > int64(total) {
		t.Fatalf("%d slots busy at once, want at most %d", got, total)
	}
}

// An urgent job (the next run of a resumed chain) takes the slots before a
// job that waited longer.
func TestSlotsUrgentFirst(t *testing.T) {
	total := Slots()
	hold := acquireSlots(total, false)
	order := make(chan string, 2)
	var wg sync.WaitGroup
	wait := func(urgent bool, name string) {
		wg.Go(func() {
			release := acquireSlots(total, urgent)
			order <- name
			release()
		})
		time.Sleep(50 * time.Millisecond) // it waits before the next one comes
	}
	wait(false, "normal")
	wait(true, "urgent")
	hold()
	wg.Wait()
	if first := <-order; first != "urgent" {
		t.Fatalf("%s job went first, want the urgent one", first)
	}
}

// Two processes (here two sets of open files on one slot folder) never hold
// the same slot, and an urgent acquirer waiting in one holds back the other.
func TestMachineSlotsShared(t *testing.T) {
	dir := t.TempDir()
	var a, b machineSlots
	a.open(dir, 2)
	b.open(dir, 2)
	got := a.take(2, false)
	if len(got) != 2 {
		t.Fatalf("took %v, want 2 slots", got)
	}
	if b.try(1) != nil {
		t.Fatal("a slot the other process holds was taken")
	}
	taken := make(chan []int)
	go func() { taken <- b.take(1, true) }()
	deadline := time.Now().Add(2 * time.Second)
	for !a.urgentWaiting() {
		if time.Now().After(deadline) {
			t.Fatal("the urgent acquirer waiting in the other process is not seen")
		}
		time.Sleep(5 * time.Millisecond)
	}
	a.give(got)
	if s := <-taken; len(s) != 1 {
		t.Fatalf("the urgent acquirer took %v, want 1 slot", s)
	}
	if a.urgentWaiting() {
		t.Fatal("the urgent lock outlived its acquirer's wait")
	}
}

// The slot folder is this user's alone: made closed, closed again when an
// older run left it open. A link or another user's folder there is refused
// in one line on the console, and a folder of this user's in the cache
// takes its place: the run goes on.
func TestSlotDirOwnedAndClosed(t *testing.T) {
	tmp, cache := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("MPITS_CACHE", cache)
	dir := filepath.Join(tmp, fmt.Sprintf("mpits-slots-%d", os.Getuid()))
	var warn strings.Builder
	got, err := findSlotDir(&warn)
	if err != nil || got != dir || warn.Len() > 0 {
		t.Fatalf("findSlotDir() = %q, %v, said %q; want %q silently", got, err, warn.String(), dir)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("made %v, want 0700", st.Mode().Perm())
	}
	os.Chmod(dir, 0o777)
	if os.Getuid() == 0 { // another user's lock file, put there while it was open
		planted := mpitest.WriteFile(t, filepath.Join(dir, "slot-0"), "", 0o644)
		os.Chown(planted, 4242, 4242)
	}
	if _, err := findSlotDir(&warn); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("an open folder of this user stays %v, want closed to 0700", st.Mode().Perm())
	}
	if os.Getuid() == 0 {
		if _, err := os.Lstat(filepath.Join(dir, "slot-0")); err == nil || !strings.Contains(warn.String(), "held 1 file of other users (slot-0): removed") {
			t.Errorf("another user's file in the slot folder: still there (%v), said %q", err, warn.String())
		}
	}
	fallback := filepath.Join(cache, fmt.Sprintf("slots-%s-%d", hostname(), os.Getuid()))
	refused := func(what, want string) {
		t.Helper()
		warn.Reset()
		got, err := findSlotDir(&warn)
		if err != nil || got != fallback {
			t.Errorf("%s: findSlotDir() = %q, %v; want the fallback %s", what, got, err, fallback)
		}
		if line := warn.String(); !strings.Contains(line, want) || strings.Count(line, "\n") != 1 {
			t.Errorf("%s: said %q, want one line with %q", what, line, want)
		}
	}
	os.RemoveAll(dir)
	os.Symlink(tmp, dir)
	refused("a link", "is not a folder")
	os.Remove(dir)
	if os.Getuid() == 0 {
		os.Mkdir(dir, 0o700)
		os.Chown(dir, 4242, 4242)
		refused("another user's folder", "belongs to uid 4242")
	}
}
