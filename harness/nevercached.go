package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
)

// A verdict is about the implementation as it is now, so go test must never
// answer a run from its cache (-count=1 does it, but a vendor need not know
// it). go test caches nothing from a run that opened a file of the module
// (the tree of its go.mod) written less than 2 seconds before the test
// ended; files it opened outside the module it does not look at. So each
// suite, at its end, writes and reads a run stamp inside the module, which
// needs no write access to the checkout: the module's StampLink is a
// symbolic link to /tmp, and the stamp, named after the user, is written
// through it. Where that cannot be (no link: a copy of the tree without its
// links; /tmp not writable), the stamp is RunStamp in the suite's package
// folder; where neither can be written, a warning reaches the console.

// StampLink is the link, at the root of the module, to a folder every user
// can write.
const StampLink = ".never-cached"

// RunStamp is the stamp's file in the suite's package folder, when the
// link cannot take it.
const RunStamp = ".last-run"

// stampName is the user's stamp in the folder StampLink leads to.
func stampName() string { return fmt.Sprintf("mpits-run-stamp.%d", os.Getuid()) }

// neverCached keeps go test from answering a later run of the suite from
// its cache, or says on the console that it could not.
func neverCached(suite string) {
	var errs []string
	if root := settings.ModuleRoot(); root != "" {
		err := writeStamp(filepath.Join(root, StampLink, stampName()))
		if err == nil {
			return
		}
		errs = append(errs, err.Error())
	}
	err := writeStamp(RunStamp)
	if err == nil {
		return
	}
	errs = append(errs, err.Error())
	fmt.Fprintf(mpi.GoStderr(), "mpits %s: go test may answer the next identical run from its cache (no run stamp could be written: %v): add -count=1 to the go test command\n", suite, strings.Join(errs, "; "))
}

// writeStamp writes the time into path and opens it again, so that go test
// counts it among the files the test read. The last element is never
// followed as a link (a stamp in /tmp another user put there).
func writeStamp(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(time.Now().Format(time.RFC3339Nano) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	r, err := os.Open(path)
	if err != nil {
		return err
	}
	return r.Close()
}
