package harness

import "sync"

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
		memos.add(m)
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

// memos are every Memo in use: a corpus replay empties them all before it
// judges, so that nothing one replay computed (a job, a generated build, a
// decoded header) reaches another.
var memos memoSet

type memoSet struct {
	mu  sync.Mutex
	all []interface{ reset() }
}

func (s *memoSet) add(m interface{ reset() }) {
	s.mu.Lock()
	s.all = append(s.all, m)
	s.mu.Unlock()
}

func (s *memoSet) resetAll() {
	s.mu.Lock()
	all := s.all
	s.all = nil
	s.mu.Unlock()
	for _, m := range all {
		m.reset()
	}
	resumedPlain.Clear()
}
