package mpi

import (
	"fmt"
	"path/filepath"
	"strings"
)

// A job's folder goes when the job ends: what a failed build or probe said
// is kept in the cache, and its one-line reason names the file, so that a
// reader after the run can open it (the reason has the first complaint,
// not all of it).

// keepOutput writes what the jobs said (each one's command, how it ended,
// its stdout and stderr) to path, and returns the note a one-line reason
// gives it: " (output kept in PATH)", or "" when it cannot be written.
func keepOutput(path string, rs ...*Result) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "command: %s\n", strings.Join(r.Argv, " "))
		if p := r.Problem(); p != "" {
			fmt.Fprintf(&b, "outcome: %s\n", p)
		}
		fmt.Fprintf(&b, "stdout:\n%s\nstderr:\n%s\n", r.Stdout, r.Stderr)
	}
	if WriteAtomic(path, []byte(b.String()), 0o644) != nil {
		return ""
	}
	return keptNote + path + ")"
}

// keptNote begins keepOutput's note.
const keptNote = " (output kept in "

// probeLog is where a probe job's output is kept: in the cache, one file
// per implementation and probe, the latest failure's.
func probeLog(im *Impl, name string) string {
	return filepath.Join(CacheDir(), "probes", im.ID, strings.Join(strings.Fields(name), "-")+".txt")
}
