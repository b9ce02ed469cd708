package abi

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Checks of this suite often need runs on other implementations than the
// one they judge (a cross-run matrix, a fingerprint table): those runs are
// made once per test process, without injectors, and kept here.
var memo mpi.Memo[any]

// remember returns the value kept under key, computing it with f the first
// time; callers that come while it is computed wait for it. Never used for
// runs with injectors preloaded.
func remember[T any](key string, f func() T) T {
	return memo.Do(key, func() any { return f() }).(T)
}

// attempt runs f and returns the verdict it ended with (a failed job of
// another implementation must not end the rule it serves), or nil.
func attempt(f func()) (v *verdict.Verdict) {
	defer func() {
		if r := mpi.StopOf(recover()); r != nil {
			if vv, ok := r.(verdict.Verdict); ok {
				v = &vv
				return
			}
			// a fixture another implementation lacks names for: its
			// problem, not the rule's on x (which would otherwise end
			// unsupported for a name its own build has)
			if l, ok := r.(rulebook.Lacking); ok {
				v = &verdict.Verdict{Status: verdict.Unsupported, Reason: l.String(), Evidence: l.Evidence}
				return
			}
			panic(r) // panic-ok: re-raises a stop that is no verdict (where the suite broke)
		}
	}()
	f()
	return nil
}

// abiEnvs are the implementations of the run with a working libmpi_abi.
func abiEnvs(x *rulebook.X) []*rulebook.Env {
	var out []*rulebook.Env
	for _, e := range x.All {
		if e.Caps != nil && e.Caps.Available && e.Caps.HasABI() && e.Impl.ABI != nil {
			out = append(out, e)
		}
	}
	return out
}

// built is the path of fixture name for e, or "" with the reason.
func built(e *rulebook.Env, name string) (string, string) {
	b, ok := e.Fixtures[name]
	switch {
	case e.Caps == nil || !e.Caps.Available:
		return "", "implementation unavailable"
	case !ok:
		return "", "fixture " + name + " not built"
	case b.Error != "":
		return "", verdict.FirstLine(b.Error)
	}
	return b.Path, ""
}

// realHost resolves a path as im sees it to the host's real file; inside a
// root, absolute symlinks point into the root (as the loader there sees them).
func realHost(im *mpi.Impl, p string) string {
	if im.Root == "" {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	parts := strings.Split(filepath.Clean(p), "/")
	cur := "/"
	for i, hops := 0, 0; i < len(parts); i++ {
		if parts[i] == "" {
			continue
		}
		next := filepath.Join(cur, parts[i])
		fi, err := os.Lstat(im.HostPath(next))
		if err == nil && fi.Mode()&os.ModeSymlink != 0 && hops < 40 {
			t, err := os.Readlink(im.HostPath(next))
			if err == nil {
				if !filepath.IsAbs(t) {
					t = filepath.Join(cur, t)
				}
				parts = append(strings.Split(filepath.Clean(t), "/"), parts[i+1:]...)
				cur, i = "/", -1
				hops++
				continue
			}
		}
		cur = next
	}
	return im.HostPath(cur)
}

// family is the first word of a library version string ("MPICH", "Open").
func family(version string) string {
	return strings.Fields(version + " ?")[0]
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
