package harness

import (
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
			release := acquireSlots(width)
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
