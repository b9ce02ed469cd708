package mpi

import (
	"slices"
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
