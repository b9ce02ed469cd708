package harness

import (
	"testing"
	"time"
)

func TestCheapestFirst(t *testing.T) {
	a, b, c, d := &Impl{ID: "cost-a"}, &Impl{ID: "cost-b"}, &Impl{ID: "cost-c"}, &Impl{ID: "cost-d"}
	noteLaunch("cost-a", 2*time.Second)
	noteLaunch("cost-b", 100*time.Millisecond)
	noteLaunch("cost-b", 100*time.Millisecond)
	noteLaunch("cost-b", time.Minute) // one slow job does not make it dear
	noteLaunch("cost-d", 200*time.Millisecond)
	got := cheapestFirst([]*Impl{a, b, c, d})
	want := []string{"cost-b", "cost-d", "cost-a", "cost-c"} // c never launched: last
	for i, im := range got {
		if im.ID != want[i] {
			t.Fatalf("order %d: got %s, want %s", i, im.ID, want[i])
		}
	}
}
