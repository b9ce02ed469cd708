package mpi

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpitest"
	"github.com/mpits/mpits/harness/settings"
)

// MPITS_ENV is the environment of the implementation MPITS_MPICC (or
// MPITS_MPI) describes: its wrapper is asked its link line in it, and it
// is the implementation's Env; with an implementations file it reaches no
// implementation, and is refused.
func TestEnvSetting(t *testing.T) {
	mpitest.ClearSettings(t)
	dir := t.TempDir()
	lib := mpitest.WriteFile(t, filepath.Join(dir, "lib", "libmpich.so.12"), "", 0o644)
	// a module-loaded wrapper: it answers only in the module's environment
	cc := mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpicc"), "#!/bin/sh\n[ \"$MODULE_MPI\" = loaded ] || { echo 'mpicc: load the module first' >&2; exit 1; }\n[ \"$1\" = -show ] && echo gcc -L"+dir+"/lib -lmpich\n", 0o755)
	run := mpitest.WriteFile(t, filepath.Join(dir, "bin", "mpiexec"), "#!/bin/sh\n", 0o755)
	t.Setenv("MPITS_MPICC", cc)
	t.Setenv("MPITS_MPIEXEC", run)
	t.Setenv(settings.EnvEnv, "")
	if _, err := LoadImpls(); err == nil || !strings.Contains(err.Error(), "answers neither") {
		t.Errorf("without the module's environment: %v, want the wrapper refused", err)
	}
	t.Setenv(settings.EnvEnv, "MODULE_MPI=loaded\nOPTS=a b=c:d")
	impls, err := LoadImpls()
	if err != nil {
		t.Fatal(err)
	}
	if im := impls[0]; im.Lib != lib || im.Env["MODULE_MPI"] != "loaded" || im.Env["OPTS"] != "a b=c:d" || len(im.Env) != 2 {
		t.Errorf("lib %q, env %q", im.Lib, im.Env)
	}
	t.Setenv("MPITS_IMPLEMENTATIONS", mpitest.WriteFile(t, filepath.Join(dir, "impls.json"), mpitest.TwoImplsHere(t), 0o644))
	_, err = LoadImpls()
	mpitest.WantOneLineErr(t, err, "MPITS_ENV is the environment of the implementation MPITS_MPI or MPITS_MPICC describe", "give the variables in its entries' \"env\"")
}

// fakeLibrary is a C library that, like WI4MPI's libmpi.so, exits at load
// unless its environment names what it wraps (FAKE_WRAPPER_LIB), and
// answers MPI_Get_version 4.1.
func fakeLibrary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc to build the fake library with")
	}
	dir := t.TempDir()
	src := mpitest.WriteFile(t, filepath.Join(dir, "fake.c"), `#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void need(void) {
    if (!getenv("FAKE_WRAPPER_LIB")) {
        fprintf(stderr, "fake: FAKE_WRAPPER_LIB is not set\n");
        exit(1);
    }
}
int MPI_Get_version(int *major, int *minor) { *major = 4; *minor = 1; return 0; }
`, 0o644)
	lib := filepath.Join(dir, "libfake.so")
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v: %s", err, out)
	}
	return lib
}

// The probe helper loads the library in the implementation's environment;
// where only the launcher sets what loading needs, it loads it as a job of
// one rank; where neither can, the reason names the library and the file
// that keeps what both said, not the helper (a temporary test binary).
func TestProbeHelperEnvironment(t *testing.T) {
	mpitest.ClearSettings(t)
	lib := fakeLibrary(t)
	plain := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "mpiexec"), "#!/bin/sh\nshift 2\nexec \"$@\"\n", 0o755)
	setting := mpitest.WriteFile(t, filepath.Join(t.TempDir(), "mpiexec"), "#!/bin/sh\nshift 2\nFAKE_WRAPPER_LIB=/opt/real/libmpi.so exec \"$@\"\n", 0o755)
	for _, c := range []struct {
		name     string
		launcher string
		env      map[string]string
	}{
		{"the implementation's environment", "/bin/false", map[string]string{"FAKE_WRAPPER_LIB": "/opt/real/libmpi.so"}},
		{"the launcher's environment", setting, nil},
	} {
		im := &Impl{ID: "fake", Available: true, Launcher: c.launcher, Env: c.env}
		a, err := probeLibrary(im, lib, "native")
		if err != nil || a.MPIVersion != "4.1" {
			t.Errorf("%s: %+v, %v; want MPI 4.1", c.name, a, err)
		}
	}
	im := &Impl{ID: "fake", Available: true, Launcher: plain}
	_, err := probeLibrary(im, lib, "native")
	kept := probeLog(im, "probe native")
	mpitest.WantOneLineErr(t, err, "fake: the probe helper loading "+lib+" exited with status 1: fake: FAKE_WRAPPER_LIB is not set; through mpiexec with one rank, it exited with status 1 (output kept in "+kept+")")
	self, _ := os.Executable()
	if strings.Contains(err.Error(), self) {
		t.Errorf("the reason names the helper binary %s, which is gone after the run: %v", self, err)
	}
	if data, _ := os.ReadFile(kept); strings.Count(string(data), "FAKE_WRAPPER_LIB is not set") != 2 {
		t.Errorf("%s does not keep what both tries said:\n%s", kept, data)
	}
	// A launcher that cannot start leaves the direct run's account.
	im.Launcher = filepath.Join(t.TempDir(), "no-mpiexec")
	_, err = probeLibrary(im, lib, "native")
	mpitest.WantOneLineErr(t, err, "fake: the probe helper loading "+lib+" exited with status 1: fake: FAKE_WRAPPER_LIB is not set (output kept in "+kept+")")
}
