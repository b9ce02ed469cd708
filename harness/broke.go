package harness

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
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

// StopOf is what a recovered panic r becomes: a verdict or a failed
// expectation ends a rule as meant; anything else is a Broke. It must be
// called from the deferred function that recovered r, while the panicking
// frames are still on the stack.
func StopOf(r any) any {
	switch r.(type) {
	case nil, Verdict, failure, Broke, Lacking, OffTape:
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

// brokeVerdict is the error verdict of a judge that broke.
func brokeVerdict(b Broke) Verdict {
	return Verdict{Status: Error, Reason: fmt.Sprintf(brokePrefix+"%s: %v", b.At, b.Value),
		Evidence: fmt.Sprintf("panic at %s: %v\n\n%s", b.At, b.Value, b.Stack)}
}
