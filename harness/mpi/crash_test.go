package mpi

import (
	"slices"
	"testing"
	"time"
)

// The lines MPITS_CALL and the fatal-signal handler write (mpits_record.c).
const (
	callingCreate  = `{"kind":"calling","call":"MPI_Comm_create_errhandler"}`
	returnedCreate = `{"kind":"returned","call":"MPI_Comm_create_errhandler","rc":0}`
	callingBarrier = `{"kind":"calling","call":"MPI_Barrier"}`
	callingAddr    = `{"kind":"calling","call":"QMPI_Get_calling_address"}`
	returnedAddr   = `{"kind":"returned","call":"QMPI_Get_calling_address","rc":0}`
	diedSEGV       = `{"kind":"died","signal":11}`
)

func crashOfLines(t *testing.T, res *Result, ranks ...[]string) *Crash {
	t.Helper()
	recs, err := RecordsOf("fx", len(ranks), ranks)
	if err != nil {
		t.Fatal(err)
	}
	return CrashOf(res, recs, len(ranks))
}

func TestCrashOfPlacesTheDeath(t *testing.T) {
	segv := &Result{ExitCode: -1, Signal: "SIGSEGV"}
	cases := []struct {
		name  string
		res   *Result
		ranks [][]string
		want  string // Crash.String, "" for nil
	}{
		{"both ranks in the call, a library's own handler", segv,
			[][]string{{callingCreate}, {callingCreate}},
			"the library crashed (SIGSEGV) in MPI_Comm_create_errhandler (job fx, ranks 0 and 1)"},
		{"the rank that recorded its signal, not the one killed waiting", &Result{ExitCode: 1},
			[][]string{{callingCreate, returnedCreate, callingBarrier}, {callingCreate, diedSEGV}},
			"the library crashed (SIGSEGV) in MPI_Comm_create_errhandler (job fx, rank 1)"},
		{"a tool's call nests in the application's", segv,
			[][]string{{callingBarrier, callingAddr}},
			"the library crashed (SIGSEGV) in QMPI_Get_calling_address (job fx, rank 0)"},
		{"after the tool's call returned, the application's is open", &Result{TimedOut: true, ExitCode: -1},
			[][]string{{callingBarrier, callingAddr, returnedAddr}},
			"the library hung (killed at its deadline, 0s) in MPI_Barrier (job fx, rank 0)"},
		{"died outside any call: the fixture's own code", segv,
			[][]string{{callingCreate, returnedCreate, diedSEGV}}, ""},
		{"one rank outside any call may have died there", segv,
			[][]string{{callingBarrier}, {callingCreate, returnedCreate}}, ""},
		{"a fixture that announces no call", segv,
			[][]string{{`{"kind":"handler"}`}}, ""},
		{"a job that ended well", &Result{},
			[][]string{{callingCreate}}, ""},
	}
	for _, c := range cases {
		got := ""
		if cr := crashOfLines(t, c.res, c.ranks...); cr != nil {
			got = cr.String()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCrashOfRealJob builds fixtures/c/harness/crash_in_call.c and places
// its death under each installed implementation: inside the announced call
// of rank 1 (which alone recorded its signal, where the library left the
// signal to the fixture: MPICH; Open MPI's own handler takes it, and both
// ranks' open calls are named), and nowhere when rank 1 dies after its
// call returned.
func TestCrashOfRealJob(t *testing.T) {
	if testing.Short() {
		t.Skip("real MPI jobs")
	}
	t.Setenv("MPITS_CACHE", t.TempDir())
	for _, id := range []string{"mpich", "openmpi"} {
		t.Run(id, func(t *testing.T) {
			im := hostImpl(t, id)
			prog := buildFixture(t, im, "crash_in_call")
			// UCX (under MPICH here) takes the fatal signals unless told not to
			for _, env := range []map[string]string{nil, {"UCX_HANDLE_ERRORS": "none"}} {
				for _, outside := range []bool{false, true} {
					var args []string
					if outside {
						args = []string{"outside"}
					}
					res, err := Run(Job{Impl: im, Name: "crash_in_call", Ranks: 2, Program: prog, Args: args, Env: env, Deadline: 30 * time.Second})
					if err != nil {
						t.Fatal(err)
					}
					defer res.Cleanup()
					recs, err := RecordsOf("crash_in_call", 2, RecordLines(res.Dir, 2))
					if err != nil {
						t.Fatalf("%v\n%s", err, res.Evidence())
					}
					c := CrashOf(res, recs, 2)
					if outside {
						if c != nil {
							t.Errorf("died after its call returned: placed %q, want nowhere", c)
						}
						continue
					}
					if c == nil || !slices.Contains(c.In, OpenCall{1, "mpits_crash_in_call"}) {
						t.Fatalf("placed %v, want rank 1 in mpits_crash_in_call\n%s", c, res.Evidence())
					}
					if len(recs.Kind("died", 1)) > 0 && len(c.In) != 1 {
						t.Errorf("rank 1 recorded its signal, yet %q", c)
					}
					t.Logf("%v: %s (a \"died\" record: %v)", env, c, len(recs.Kind("died", 1)) > 0)
				}
			}
		})
	}
}
