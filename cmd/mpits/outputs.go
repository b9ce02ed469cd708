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
			err = writableFolder(dir)
		}
		if err != nil {
			return refuse(fmt.Errorf("--html %s: %v", html, err))
		}
	}
	if dir := settings.Setting(settings.ExpectEnv).String(); dir != "" && expectUpdate {
		if err := writableFolder(dir); err != nil {
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
	return writableFolder(filepath.Dir(p))
}

// writableFolder says whether a new file can be made in dir, or, where dir
// is missing, in the nearest folder above it that exists (the run makes
// the rest).
func writableFolder(dir string) error {
	d := dir
	for {
		info, err := os.Stat(d)
		if err == nil {
			if !info.IsDir() {
				return fmt.Errorf("%s is not a folder", d)
			}
			break
		}
		parent := filepath.Dir(d)
		if !os.IsNotExist(err) || parent == d {
			return fmt.Errorf("%s cannot be read (%v)", d, settings.Cause(err))
		}
		d = parent
	}
	f, err := os.CreateTemp(d, ".mpits-writable-*")
	if err != nil {
		return fmt.Errorf("no file can be made in %s (%v)", d, settings.Cause(err))
	}
	f.Close()
	return os.Remove(f.Name())
}
