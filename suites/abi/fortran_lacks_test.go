package abi

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// abi_f2c refused for a missing conversion fails the rule whose subject it
// is, and only that rule; another missing name fails neither.
func TestLacksConversions(t *testing.T) {
	x := &rulebook.X{Impl: &mpi.Impl{ID: "v"}}
	handles := lacksConversions(handleConvRe, "q1")
	status := lacksConversions(statusConvRe, "q2")
	cases := []struct {
		missing        []string
		handle, status verdict.Status
	}{
		{[]string{"MPI_File_c2f", "MPI_File_open"}, verdict.Fail, ""},
		{[]string{"MPI_Status_f2c"}, "", verdict.Fail},
		{[]string{"MPI_File_open", "MPI_Session_init"}, "", ""},
	}
	for _, c := range cases {
		h, s := handles(x, c.missing), status(x, c.missing)
		if h.Status != c.handle || s.Status != c.status {
			t.Errorf("%v: handles %q, status %q; want %q, %q", c.missing, h.Status, s.Status, c.handle, c.status)
		}
		if h.Status == verdict.Fail && (!strings.Contains(h.Reason, "MPI_File_c2f") || strings.Contains(h.Reason, "MPI_File_open")) {
			t.Errorf("reason names the wrong names: %q", h.Reason)
		}
	}
	// A build with no Fortran interface: the text does not settle it.
	x.Caps = &mpi.Caps{Fortran: mpi.Fortran{Reason: "no Fortran compiler wrapper (fc)"}}
	if v := status(x, []string{"MPI_Status_f2c"}); v.Status != verdict.Unsupported || !strings.Contains(v.Reason, "no Fortran interface (no Fortran compiler wrapper (fc))") {
		t.Errorf("no Fortran: %s %q, want unsupported saying why", v.Status, v.Reason)
	}
}
