package mpi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
)

// needsEnvMPI is an MPI installed on this host seen through a prefix of
// its own whose programs find libmpi only through LD_LIBRARY_PATH (its
// wrapper links without a run path), as a module-loaded MPI's do: bin/
// holds the real launcher's files and a wrapper, lib/ the real library.
// It skips when no MPICH of this host's implementations file is installed
// under a prefix outside the system's library folders.
func needsEnvMPI(t *testing.T) (cc, run, lib string) {
	t.Helper()
	impls, err := ReadImplFile(DefaultImplFile())
	if err != nil {
		t.Skipf("no implementations file to find an installed MPI in (%v): run ci/provision", err)
	}
	var real string
	for _, im := range impls {
		if p, err := im.InstallPrefix(); err == nil && im.Family == "mpich" && strings.HasPrefix(im.Lib, p+"/lib/libmpi.so") {
			real = p
			break
		}
	}
	if real == "" {
		t.Skip("no MPICH installed under a prefix of its own (PREFIX/lib/libmpi.so): run ci/provision")
	}
	prefix := t.TempDir()
	for _, sub := range []string{"bin", "lib"} {
		entries, _ := os.ReadDir(filepath.Join(real, sub))
		for _, e := range entries {
			if e.Name() == "mpicc" || (sub == "lib" && !strings.HasPrefix(e.Name(), "libmpi.so")) {
				continue
			}
			if err := os.MkdirAll(filepath.Join(prefix, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(real, sub, e.Name()), filepath.Join(prefix, sub, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	flags := "-I" + real + "/include -L" + prefix + "/lib"
	cc = mpitest.WriteFile(t, filepath.Join(prefix, "bin", "mpicc"), `#!/bin/sh
[ "$1" = -show ] && { echo gcc `+flags+` -lmpi; exit 0; }
exec gcc `+flags+` "$@" -lmpi
`, 0o755)
	return cc, filepath.Join(prefix, "bin", "mpiexec"), filepath.Join(prefix, "lib")
}

// An MPI that loads only in its environment is probed in it: given it (as
// MPITS_ENV gives it), nothing breaks; without it, the probe breaks once,
// in one line quoting the loader.
func TestProbeOfAnMPIThatNeedsItsEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds and runs the capability probe of a real MPI twice, 5 s; run without -short")
	}
	cc, run, lib := needsEnvMPI(t)
	mpitest.ClearSettings(t)
	im, err := ImplFromWrapper("needsenv", cc, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := Probe(im)
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "error while loading shared libraries: libmpi.so.12") || strings.Contains(c.Problems[0], "\n") {
		t.Errorf("without its environment: problems %q, want one line quoting the loader", c.Problems)
	}
	im, err = ImplFromWrapper("needsenv", cc, run, map[string]string{"LD_LIBRARY_PATH": lib})
	if err != nil {
		t.Fatal(err)
	}
	if c := Probe(im); len(c.Problems) > 0 || c.AfterInit.Cvars < 0 || c.MPIVersion == "" {
		t.Errorf("with its environment: problems %q, MPI %q, cvars after init %d", c.Problems, c.MPIVersion, c.AfterInit.Cvars)
	}
}
