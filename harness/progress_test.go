package harness

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/verdict"
)

// syncBuffer is a bytes.Buffer the heartbeat goroutine may write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgressSaysEachImplementationOnceItsVerdictsAreIn(t *testing.T) {
	var out syncBuffer
	p := newProgress("qmpi")
	p.out, p.every = &out, time.Hour
	p.setupStarted(2)
	p.setupDone()
	p.expect("a")
	p.expect("a")
	p.expect("b")
	p.expect("")
	p.verdict("a", verdict.Pass)
	if strings.Contains(out.String(), "a judged") {
		t.Fatalf("a said done with one of two verdicts in:\n%s", out.String())
	}
	p.verdict("b", verdict.Fail)
	p.verdict("a", verdict.Unsupported)
	p.proof()
	got := out.String()
	for _, want := range []string{
		"mpits qmpi [0s]: probing and building fixtures for 2 implementation(s)\n",
		"b judged: 1 rules (0 pass, 1 fail, 0 unsupported, 0 error); 1 of 2 implementations done\n",
		"a judged: 2 rules (1 pass, 0 fail, 1 unsupported, 0 error); 2 of 2 implementations done\n",
		"self-test: all 1 fault-injector and conforming-shim proofs done\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%s", want, got)
		}
	}
}

func TestProgressBeatsWhileSilentAndStopsWhenDone(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: watches the heartbeat, which looks once a second, start and stop, 4 s; run without -short")
	}
	var out syncBuffer
	p := newProgress("mpit")
	p.out, p.every = &out, time.Millisecond
	p.expect("a")
	p.expect("a")
	p.setupStarted(1)
	p.setupDone()
	p.verdict("a", verdict.Pass)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "1 of 2 verdicts, 0 of 1 implementations done") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "1 of 2 verdicts, 0 of 1 implementations done") {
		t.Fatalf("no heartbeat while a verdict was missing:\n%s", out.String())
	}
	p.verdict("a", verdict.Pass)
	time.Sleep(1500 * time.Millisecond) // the beat looks once a second
	n := strings.Count(out.String(), "\n")
	time.Sleep(1500 * time.Millisecond)
	if m := strings.Count(out.String(), "\n"); m != n {
		t.Errorf("the heartbeat went on after every verdict was in:\n%s", out.String())
	}
}

func TestProgressSilencedByTheSetting(t *testing.T) {
	t.Setenv("MPITS_PROGRESS", "0")
	if console() != nil {
		t.Error("MPITS_PROGRESS=0 still gives a console")
	}
}
