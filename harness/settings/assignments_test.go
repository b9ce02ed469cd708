package settings

import (
	"maps"
	"strings"
	"testing"
)

// MPITS_ENV's lines: values keep their spaces, ':' and '='; a bad line is
// refused before anything runs, in one line naming it and what to do.
func TestAssignments(t *testing.T) {
	got, err := Assignments("WI4MPI_WRAPPER_LIB=/opt/wi4mpi/lib/libwi4mpi_OMPI.so\nLD_LIBRARY_PATH=/a:/b\n\nOPTS=-x a=b c\n")
	want := map[string]string{"WI4MPI_WRAPPER_LIB": "/opt/wi4mpi/lib/libwi4mpi_OMPI.so", "LD_LIBRARY_PATH": "/a:/b", "OPTS": "-x a=b c"}
	if err != nil || !maps.Equal(got, want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if got, err := Assignments("EMPTY="); err != nil || got["EMPTY"] != "" || len(got) != 1 {
		t.Errorf("an empty value: got %q, %v", got, err)
	}
	for _, c := range []struct{ in, want string }{
		{"A=1\nLD_LIBRARY_PATH", `MPITS_ENV="A=1\nLD_LIBRARY_PATH" is not allowed (line 2, "LD_LIBRARY_PATH", has no '=': give NAME=VALUE): want NAME=VALUE lines`},
		{"=x", `MPITS_ENV="=x" is not allowed (line 1, "=x", has no name before '=')`},
		{"1A=x", `(line 1: "1A" is not a variable name (letters, digits and '_', not first a digit))`},
		{"K=a\x1b[31mb", `(line 1: the value of K holds a control character ("a\x1b[31mb"): a value is one line of text)`},
		{"K=a\tb", `the value of K holds a control character`},
		{"MY VAR=x", `(line 1: "MY VAR" is not a variable name`},
		{" A=x", `(line 1: " A" is not a variable name`},
	} {
		t.Setenv(EnvEnv, c.in)
		err := CheckSettings()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "`") {
			t.Errorf("MPITS_ENV=%q: %v\nwant one line with %s", c.in, err, c.want)
		}
	}
	t.Setenv(EnvEnv, "A=1\nB=x=y z")
	if err := CheckSettings(); err != nil {
		t.Errorf("refused: %v", err)
	}
	if got := Setting(EnvEnv).Assignments(); !maps.Equal(got, map[string]string{"A": "1", "B": "x=y z"}) {
		t.Errorf("Assignments = %q", got)
	}
}
