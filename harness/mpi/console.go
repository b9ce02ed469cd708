package mpi

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// GoStderr is where a line reaches the console: go test keeps a package's
// output until the package ends (and drops it when the package passes), so
// the lines go to the stderr of the go command that runs the test binary,
// when it is the parent and that stderr can take lines from a second writer
// (a terminal, a pipe, a file opened for appending); otherwise to our own
// stderr. Only a test binary does so: the mpits binary (even under go run,
// whose parent is a go command too) writes to its own stderr alone.
func GoStderr() io.Writer {
	if !testing.Testing() {
		return os.Stderr
	}
	ppid := os.Getppid()
	if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid)); err == nil && strings.TrimSpace(string(comm)) == "go" && sharable(ppid) {
		if f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/2", ppid), os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f
		}
	}
	return os.Stderr
}

// sharable says whether a second writer may add lines to pid's stderr: a
// regular file written without O_APPEND would have them overwritten by the
// owner's next write at its own offset.
func sharable(pid int) bool {
	st, err := os.Stat(fmt.Sprintf("/proc/%d/fd/2", pid))
	if err != nil {
		return false
	}
	if !st.Mode().IsRegular() {
		return true
	}
	info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/2", pid))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(info), "\n") {
		if f, ok := strings.CutPrefix(l, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(f), 8, 64)
			return err == nil && flags&syscall.O_APPEND != 0
		}
	}
	return false
}
