package mpi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Refusals as gcc 12, ld and gfortran print them.
func TestMissingNames(t *testing.T) {
	cases := []struct {
		name, out string
		want      []string
		ok        bool
	}{
		{"link", "/usr/bin/ld: /tmp/ccX.o: in function `main':\nf2c.c:(.text+0x1a): undefined reference to `MPI_Status_c2f08'\n/usr/bin/ld: f2c.c:(.text+0x2b): undefined reference to `MPI_Status_f082c'\n/usr/bin/ld: f2c.c:(.text+0x3c): undefined reference to `MPI_Status_c2f08'\ncollect2: error: ld returned 1 exit status\n",
			[]string{"MPI_Status_c2f08", "MPI_Status_f082c"}, true},
		{"declaration", "f2c.c: In function 'main':\nf2c.c:12:9: error: 'MPI_F08_STATUS_IGNORE' undeclared (first use in this function)\nf2c.c:12:9: note: each undeclared identifier is reported only once for each function it appears in\n",
			[]string{"MPI_F08_STATUS_IGNORE"}, true},
		{"type", "f2c.c:3:1: error: unknown type name 'MPI_F08_status'\n", []string{"MPI_F08_status"}, true},
		{"header", "app.c:1:10: fatal error: mpi_abi.h: No such file or directory\ncompilation terminated.\n", []string{"mpi_abi.h"}, true},
		{"module", "probe.f90:2:7:\n\n    2 |   use mpi_f08\n      |       1\nFatal Error: Cannot open module file 'mpi_f08.mod' for reading at (1): No such file or directory\ncompilation terminated.\n",
			[]string{"mpi_f08"}, true},
		{"warning only", "f2c.c:5:3: warning: implicit declaration of function 'MPI_Foo'\n/usr/bin/ld: undefined reference to `MPI_Foo'\ncollect2: error: ld returned 1 exit status\n", []string{"MPI_Foo"}, true},
		// The fixture's own mistakes are the suite's.
		{"own function", "/usr/bin/ld: undefined reference to `record_open'\ncollect2: error: ld returned 1 exit status\n", nil, false},
		{"syntax", "f2c.c:9:1: error: expected ';' before '}' token\n/usr/bin/ld: undefined reference to `MPI_Foo'\n", nil, false},
		{"mixed", "/usr/bin/ld: undefined reference to `MPI_Foo'\nf2c.c:9:1: error: too few arguments to function 'MPI_Send'\n", nil, false},
		{"nothing", "gcc: fatal: killed\n", nil, false},
		{"empty", "", nil, false},
	}
	for _, c := range cases {
		got, ok := MissingNames(c.out)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q %v, want %q %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func FuzzMissingNames(f *testing.F) {
	f.Add("undefined reference to `MPI_Status_c2f08'\ncollect2: error: ld returned 1 exit status")
	f.Add("error: 'MPI_X' undeclared")
	f.Fuzz(func(t *testing.T, out string) {
		names, ok := MissingNames(out)
		if ok && len(names) == 0 {
			t.Errorf("ok without names for %q", out)
		}
	})
}

// Real refusals of gcc 12, ld and gfortran (testdata/compiler, made with
// mpicc.mpich and mpifort.mpich under LC_ALL=C and LC_ALL=C.UTF-8): the
// same names, and the same first complaint, whichever quotes they use.
func TestMissingNamesInEitherLocale(t *testing.T) {
	for _, c := range []struct {
		file  string
		names []string
		first string
	}{
		{"decl", []string{"MPIX_Info_unknown", "MPI_T_PVAR_SESSION_NULLX"}, "decl.c:3:28: error: «MPI_T_PVAR_SESSION_NULLX» undeclared (first use in this function); did you mean «MPI_T_PVAR_SESSION_NULL»?"},
		{"link", []string{"MPI_Bogus_function"}, "/tmp/lc/link.c:3: undefined reference to `MPI_Bogus_function'"},
		{"hdr", []string{"mpi_nosuch.h"}, "hdr.c:1:10: fatal error: mpi_nosuch.h: No such file or directory"},
		{"mod", []string{"mpi_nosuch"}, "Fatal Error: Cannot open module file «mpi_nosuch.mod» for reading at (1): No such file or directory"},
	} {
		for _, locale := range []string{"C", "C.UTF-8"} {
			data, err := os.ReadFile(filepath.Join("testdata", "compiler", c.file+"."+locale+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if names, ok := MissingNames(string(data)); !ok || !slices.Equal(names, c.names) {
				t.Errorf("%s under %s: MissingNames = %q, %v; want %q", c.file, locale, names, ok, c.names)
			}
			open, close := "'", "'"
			if locale != "C" {
				open, close = "‘", "’"
			}
			want := strings.NewReplacer("«", open, "»", close).Replace(c.first)
			if got := firstErrorLine(string(data)); got != want {
				t.Errorf("%s under %s: firstErrorLine = %q, want %q", c.file, locale, got, want)
			}
		}
	}
}

// Built under the user's locale, a compiler's messages would be another
// language's: a compiler runs under LC_ALL=C, without LANGUAGE, whatever
// this process's locale.
func TestCompilerLocale(t *testing.T) {
	t.Setenv("LANG", "de_DE.UTF-8")
	t.Setenv("LC_ALL", "fr_FR.UTF-8")
	t.Setenv("LANGUAGE", "de:fr")
	im := &Impl{ID: "x", CC: "/opt/mpi/bin/mpicc", Env: map[string]string{"LC_ALL": "de_DE.UTF-8"}}
	env := compilerLocale(im.environ(nil, nil))
	var lcAll string
	for _, kv := range env {
		if strings.HasPrefix(kv, "LANGUAGE=") {
			t.Errorf("LANGUAGE is left: %s", kv)
		}
		if v, ok := strings.CutPrefix(kv, "LC_ALL="); ok {
			lcAll = v // the last one wins
		}
	}
	if lcAll != "C" {
		t.Errorf("LC_ALL=%s, want C", lcAll)
	}
	if !im.isCompiler("/opt/mpi/bin/mpicc") || im.isCompiler("/opt/mpi/bin/mpiexec") || im.isCompiler("") {
		t.Error("isCompiler tells the wrapper from other programs wrongly")
	}
}
