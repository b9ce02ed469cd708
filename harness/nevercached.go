package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
// symbolic link to /tmp, and the stamp is written through it into the
// user's own folder there (stampDir). /tmp is every user's: whatever
// another user put at that name (a link, a FIFO, a folder of theirs) is
// neither followed, nor waited on, nor written into. Where the folder
// cannot be had (that; no link: a copy of the tree without its links),
// the stamp is RunStamp in the suite's package folder; where neither can
// be written, a warning reaches the console.

// StampLink is the link, at the root of the module, to a folder every user
// can write.
const StampLink = ".never-cached"

// RunStamp is the stamp's file in the suite's package folder, when the
// link cannot take it.
const RunStamp = ".last-run"

// stampDir is the user's folder (0700) in the one StampLink leads to, and
// stampFile the stamp in it.
func stampDir() string { return fmt.Sprintf("mpits-%d", os.Getuid()) }

const stampFile = "run-stamp"

// neverCached keeps go test from answering a later run of the suite from
// its cache, or says on the console that it could not.
func neverCached(suite string) {
	if err := writeRunStamp(settings.ModuleRoot(), RunStamp); err != nil {
		fmt.Fprintf(mpi.GoStderr(), "mpits %s: go test may answer the next identical run from its cache (no run stamp could be written: %v): add -count=1 to the go test command\n", suite, err)
	}
}

// writeRunStamp writes the stamp through the StampLink of the module at
// root ("" for none), else at fallback; its error names why neither could.
func writeRunStamp(root, fallback string) error {
	var errs []string
	if root != "" {
		dir := filepath.Join(root, StampLink, stampDir())
		err := mpi.PrivateDir(dir)
		if err == nil {
			err = writeStamp(filepath.Join(dir, stampFile))
		}
		if err == nil {
			return nil
		}
		errs = append(errs, err.Error())
	}
	err := writeStamp(fallback)
	if err == nil {
		return nil
	}
	return errors.New(strings.Join(append(errs, err.Error()), "; "))
}

// writeStamp writes the time into path, a regular file of this user's
// (mpi.OpenOwnFile), and opens it again, so that go test counts it among
// the files the test read.
func writeStamp(path string) error {
	f, err := mpi.OpenOwnFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteString(time.Now().Format(time.RFC3339Nano) + "\n")
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	r, err := mpi.OpenOwnFile(path, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	return r.Close()
}
