package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
)

// The flags are the file's fields: a list or env flag once per word, abi.X
// and slurm.X for the nested ones; list reads the file back as a run does.
func TestImplAddFlags(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"bin/mpicc", "bin/mpiexec"} {
		if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	abiLib := filepath.Join(dir, "libmpi_abi.so.1")
	if err := os.WriteFile(abiLib, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "implementations.json")
	var out strings.Builder
	err := cmdImplAdd([]string{"-file=" + file, "-id=mine", "-family=openmpi", "-version=6.0.0",
		"-cc=" + dir + "/bin/mpicc", "-launcher", dir + "/bin/mpiexec", "-np_flag", "-n",
		"-launcher_args=--oversubscribe", "-launcher_args=--bind-to=none",
		"-env=OMPI_ALLOW_RUN_AS_ROOT=1", "-env=X=a=b", "-lib=" + abiLib, "-lib_dirs=" + dir,
		"-abi.cc=sh", "-abi.cflags=-I/x", "-abi.ldflags=-L" + dir, "-abi.ldflags=-l:libmpi_abi.so.1",
		"-abi.lib=" + abiLib, "-abi.lib_dir=" + dir, "-notes=a note", "-launch=salloc",
		"-slurm.mpi=pmix", "-slurm.nodes=2", "-slurm.args=-p", "-slurm.args=debug"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "mpits impl add: " + file + ": wrote mine (available)\n"; out.String() != want {
		t.Errorf("said %q, want %q", out.String(), want)
	}
	impls, err := mpi.ReadImplFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := mpi.Impl{ID: "mine", Family: "openmpi", Version: "6.0.0", Available: true,
		CC: dir + "/bin/mpicc", Launcher: dir + "/bin/mpiexec", NPFlag: "-n",
		LauncherArgs: []string{"--oversubscribe", "--bind-to=none"},
		Env:          map[string]string{"OMPI_ALLOW_RUN_AS_ROOT": "1", "X": "a=b"},
		Lib:          abiLib, LibDirs: []string{dir},
		ABI:   &mpi.ABI{CC: "sh", CFlags: []string{"-I/x"}, LDFlags: []string{"-L" + dir, "-l:libmpi_abi.so.1"}, Lib: abiLib, LibDir: dir},
		Notes: "a note", Launch: "salloc",
		Slurm: &mpi.Slurm{MPI: "pmix", Nodes: 2, Args: []string{"-p", "debug"}},
	}
	if len(impls) != 1 || !reflect.DeepEqual(*impls[0], want) {
		t.Fatalf("read back %+v\nwant %+v", impls[0], want)
	}

	// -keep leaves an entry there; a new id is added after it.
	out.Reset()
	for _, id := range []string{"mine", "later"} {
		if err := cmdImplAdd([]string{"-file", file, "-keep", "-id", id, "-available=false", "-reason", "not provisioned yet"}, &out); err != nil {
			t.Fatal(err)
		}
	}
	if want := "mpits impl add: " + file + ": kept the entry there for mine (unavailable)\nmpits impl add: " + file + ": wrote later (unavailable)\n"; out.String() != want {
		t.Errorf("said %q, want %q", out.String(), want)
	}
	out.Reset()
	if err := cmdImplList([]string{"-file", file}, &out); err != nil {
		t.Fatal(err)
	}
	if want := "mine: available: openmpi 6.0.0\nlater: unavailable: not provisioned yet\n1 of 2 implementations available in " + file + "\n"; out.String() != want {
		t.Errorf("list said %q, want %q", out.String(), want)
	}
}

// A wrong flag or entry is one line, and the file is not touched.
func TestImplAddErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "implementations.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-id=a", "-compiler=x"}, "impl add: flag provided but not defined: -compiler: see mpits impl add -h"},
		{[]string{"-id=a", "-env=NOVALUE"}, `"NOVALUE" is not NAME=VALUE`},
		{[]string{"-id=a", "-env=A=1", "-env=A=2"}, "A is given twice"},
		{[]string{"-id=a", "-cflags", "-I/x", "-DY"}, "flag provided but not defined: -DY"},
		{[]string{"-id=a", "stray"}, `impl add takes flags only, not "stray"`},
		{[]string{"-id=a"}, "a: is available but has no family"},
		{[]string{"-id=a", "-available=false"}, "a: is not available and says no reason"},
		{[]string{"-id=a", "-available=false", "-reason=r", "-slurm.nodes=-1"}, "slurm nodes -1 is negative"},
	} {
		err := cmdImplAdd(append([]string{"-file", file}, c.args...), &strings.Builder{})
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want one line containing %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("refused entries wrote the file (%v)", err)
	}
	if err := cmdImplList([]string{"-file", file}, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Errorf("list of a missing file: %v", err)
	}
}

// prefix names the folder above bin/mpicc of a host installation, and
// says in one line why another entry has none.
func TestImplPrefix(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bin/mpicc", "bin/mpiexec", "libmpi.so.12"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "implementations.json")
	for _, a := range [][]string{
		{"-id=host", "-family=mpich", "-version=4.0.2", "-cc=" + dir + "/bin/mpicc", "-launcher=" + dir + "/bin/mpiexec", "-lib=" + dir + "/libmpi.so.12"},
		{"-id=deb", "-family=mpich", "-version=4.0.2", "-cc=/bin/mpicc", "-launcher=/bin/mpiexec", "-lib=/libmpi.so.12", "-root=" + dir, "-prefix=chroot", "-prefix=" + dir},
		{"-id=gone", "-available=false", "-reason=not provisioned yet"},
	} {
		if err := cmdImplAdd(append([]string{"-file=" + file}, a...), &strings.Builder{}); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	if err := cmdImplPrefix([]string{"-file", file, "-id", "host"}, &out); err != nil || out.String() != dir+"\n" {
		t.Errorf("prefix of host: %q, %v; want %q", out.String(), err, dir)
	}
	for id, want := range map[string]string{"deb": "installed in the root", "gone": "not available", "nope": "no implementation"} {
		err := cmdImplPrefix([]string{"-file", file, "-id", id}, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("prefix of %s: %v, want one line with %q", id, err, want)
		}
	}
}
