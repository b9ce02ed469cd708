package mpi

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Broke is a panic that is no verdict: the suite itself broke (an index out
// of range in a judge, a nil map). It keeps where it happened, since the
// error verdict it becomes is only worth something to the vendor who
// reports it if it says so.
type Broke struct {
	Value any
	At    string // file:line of the panic, below suites/ or harness/
	Stack string
}

func (b Broke) String() string { return fmt.Sprint(b.Value) }

// Stop is a panic that ends a judgement as meant: a verdict, a failed
// expectation, a fixture the implementation lacks names for, a replay that
// needs a job not on its tape.
type Stop interface{ EndsJudgement() }

// StopOf is what a recovered panic r becomes: a Stop ends a rule as meant;
// anything else is a Broke. It must be
// called from the deferred function that recovered r, while the panicking
// frames are still on the stack.
func StopOf(r any) any {
	switch r.(type) {
	case nil, Stop, Broke:
		return r
	}
	return Broke{Value: r, At: panicSite(), Stack: string(debug.Stack())}
}

// panicSite is the first frame below runtime.gopanic that is not the
// runtime's own: where the panic was raised.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime."):
			return fmt.Sprintf("%s:%d", shortPath(f.File), f.Line)
		}
		if !more {
			return "unknown place"
		}
	}
}

// shortPath is a source path from the module's root (suites/..., harness/...).
func shortPath(file string) string {
	for _, dir := range []string{"/suites/", "/harness/", "/cmd/"} {
		if i := strings.LastIndex(file, dir); i >= 0 {
			return file[i+1:]
		}
	}
	return file
}

// Memo keeps one value per key, computed once even when callers ask for it
// side by side (the later ones wait for the first); what the computation
// panicked with (a verdict that ends a check, or where the suite broke) is
// replayed to every caller.
// The zero Memo is ready to use.
type Memo[T any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[T]
}

type memoEntry[T any] struct {
	once sync.Once
	v    T
	stop any
}

// Do returns the value kept under key, computing it with f the first time.
func (m *Memo[T]) Do(key string, f func() T) T {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]*memoEntry[T]{}
		Memos.add(m)
	}
	e := m.m[key]
	if e == nil {
		e = &memoEntry[T]{}
		m.m[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() {
		defer func() { e.stop = StopOf(recover()) }()
		e.v = f()
	})
	if e.stop != nil {
		panic(e.stop)
	}
	return e.v
}

func (m *Memo[T]) reset() {
	m.mu.Lock()
	m.m = nil
	m.mu.Unlock()
}

// Memos are every Memo in use: a corpus replay empties them all before it
// judges, so that nothing one replay computed (a job, a generated build, a
// decoded header) reaches another.
var Memos memoSet

type memoSet struct {
	mu      sync.Mutex
	all     []interface{ reset() }
	onReset []func()
}

func (s *memoSet) add(m interface{ reset() }) {
	s.mu.Lock()
	s.all = append(s.all, m)
	s.mu.Unlock()
}

// ResetAll empties every Memo, then what OnReset added.
func (s *memoSet) ResetAll() {
	s.mu.Lock()
	all := s.all
	s.all = nil
	s.mu.Unlock()
	for _, m := range all {
		m.reset()
	}
	for _, f := range s.onReset {
		f()
	}
}

// OnReset adds what ResetAll empties besides the Memos: a cache that is no
// Memo (rules' resumed runs).
func (s *memoSet) OnReset(f func()) {
	s.mu.Lock()
	s.onReset = append(s.onReset, f)
	s.mu.Unlock()
}
