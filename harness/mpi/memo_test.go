package mpi

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Callers side by side get the one value; a panic is replayed to each.
func TestMemoOnceAndReplay(t *testing.T) {
	var m Memo[int]
	var calls atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := m.Do("k", func() int { calls.Add(1); return 7 }); v != 7 {
				t.Errorf("got %d, want 7", v)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("computed %d times, want once", calls.Load())
	}
	for i := 0; i < 2; i++ {
		func() {
			defer func() {
				if r, ok := recover().(Broke); !ok || r.Value != "boom" || !strings.Contains(r.At, "memo_test.go") {
					t.Errorf("replayed %#v, want boom at memo_test.go", r)
				}
			}()
			m.Do("bad", func() int { panic("boom") })
		}()
	}
}
