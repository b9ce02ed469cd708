package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/mpits/mpits/harness/report/site"
	"github.com/mpits/mpits/harness/settings"
)

// refused is an input refused where it enters, before any work: the
// command exits 2 with its one line.
type refused struct{ error }

// refuse makes err a refusal.
func refuse(err error) error { return refused{err} }

// exitCode is 2 for a refusal, 1 for any other error.
func exitCode(err error) int {
	if errors.As(err, &refused{}) {
		return 2
	}
	return 1
}

// checkOutputs refuses, before anything runs, an output the run could not
// write at its end: a file (--json, --junit, the job log) whose folder
// cannot take a new file or that is not a regular file (a link, a FIFO,
// a folder), a site folder holding files mpits did not write, an
// expectations folder to rewrite that cannot be written.
func checkOutputs(files map[string]string, html string, expectUpdate bool) error {
	if log := settings.Setting(settings.JobLogEnv).String(); log != "" {
		files[settings.JobLogEnv] = log
	}
	flags := make([]string, 0, len(files))
	for f, p := range files {
		if p != "" {
			flags = append(flags, f)
		}
	}
	sort.Strings(flags)
	for _, f := range flags {
		if err := checkOutputFile(absPath(files[f])); err != nil {
			return refuse(fmt.Errorf("%s %s: %v", f, files[f], err))
		}
	}
	if html != "" {
		dir := absPath(html)
		err := site.CheckFolder(dir)
		if err == nil {
			err = settings.WritableFolder(dir)
		}
		if err != nil {
			return refuse(fmt.Errorf("--html %s: %v", html, err))
		}
	}
	if dir := settings.Setting(settings.ExpectEnv).String(); dir != "" && expectUpdate {
		if err := settings.WritableFolder(dir); err != nil {
			return refuse(fmt.Errorf("--expect %s with --expect-update: %v", dir, err))
		}
	}
	return nil
}

// checkOutputFile accepts p when it is missing or a regular file, in a
// folder where a new file can be made (it is written as one, then renamed).
func checkOutputFile(p string) error {
	if info, err := os.Lstat(p); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("is %s, not a regular file: name a new file or a file of yours", site.Kind(info.Mode()))
	}
	return settings.WritableFolder(filepath.Dir(p))
}
