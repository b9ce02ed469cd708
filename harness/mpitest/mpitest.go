// Package mpitest holds what the harness's tests share: files they write,
// the settings they clear, an implementations file they load, and how they
// hold an error to one line.
package mpitest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mpits/mpits/harness/settings"
)

// WantOneLineErr fails unless err is a one-line error containing every sub.
func WantOneLineErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error containing %q, got none", subs)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error is not one line:\n%s", msg)
	}
	for _, s := range subs {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not contain %q", msg, s)
		}
	}
}

// WriteFile writes content to path, making its folder, and returns path.
func WriteFile(t *testing.T, path, content string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// ClearSettings unsets every setting of the list (harness/settings), so the
// tests do not depend on the environment they run in, and gives the test a
// cache of its own; each is restored when the test ends.
func ClearSettings(t *testing.T) {
	t.Helper()
	for _, d := range settings.Settings() {
		if d.Group == settings.GroupInternal {
			continue
		}
		t.Setenv(d.Name, "")
		os.Unsetenv(d.Name)
	}
	t.Setenv("MPITS_CACHE", t.TempDir())
}

// TwoImpls is an implementations file of two: alpha, available, and beta, not.
const TwoImpls = `{
  "generated_by": "test",
  "implementations": [
    {"id": "alpha", "family": "mpich", "version": "4.1", "available": true,
     "cc": "/opt/alpha/bin/mpicc", "launcher": "/opt/alpha/bin/mpiexec",
     "launcher_args": ["-x"], "np_flag": "-np", "lib": "/opt/alpha/lib/libmpi.so",
     "env": {"A": "1"}},
    {"id": "beta", "family": "openmpi", "available": false, "reason": "not built"}
  ]
}`

// TwoImplsHere is twoImpls with alpha's cc, launcher and lib made in a
// temporary folder, so that LoadImpls finds them.
func TwoImplsHere(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	WriteFile(t, filepath.Join(dir, "bin", "mpicc"), "#!/bin/sh\n", 0o755)
	WriteFile(t, filepath.Join(dir, "bin", "mpiexec"), "#!/bin/sh\n", 0o755)
	WriteFile(t, filepath.Join(dir, "lib", "libmpi.so"), "", 0o644)
	return strings.ReplaceAll(TwoImpls, "/opt/alpha", dir)
}

// SecretText is what Planted's secret file holds.
const SecretText = "root only\n"

// Planted makes in dir what another user could put where a run writes: a
// link (named link) to a secret file of this user's (secret, mode 600,
// holding SecretText, in a folder of its own) and a FIFO (fifo).
func Planted(t *testing.T, dir string) (secret, link, fifo string) {
	t.Helper()
	secret = WriteFile(t, filepath.Join(t.TempDir(), "secret"), SecretText, 0o600)
	link, fifo = filepath.Join(dir, "link"), filepath.Join(dir, "fifo")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	return secret, link, fifo
}

// SecretUnchanged fails t when Planted's secret file was written through.
func SecretUnchanged(t *testing.T, secret string) {
	t.Helper()
	if got, _ := os.ReadFile(secret); string(got) != SecretText {
		t.Errorf("the file behind the link was written: %q", got)
	}
}
