package events

import (
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The delivery job of MPICH 4.0.2 (mpich-fast-single): rank 0 dies in
// MPI_T_event_read inside the callback of unexp_message_dequeued, rank 1
// waits in MPI_Finalize. The rule governing the call fails; the others
// are not judged, with a cause naming it; records that announce no call
// (a fixture built before) leave it to CB-X1's last-record reading.
func TestDeathInCallbackPlaced(t *testing.T) {
	rank0 := []string{`{"kind":"cbin","seq":12,"phase":0,"sub":"deliver","event":"unexp_message_dequeued"}`,
		`{"kind":"calling","call":"MPI_T_event_read"}`, `{"kind":"died","signal":11}`}
	rank1 := []string{`{"kind":"calling","call":"MPI_Finalize"}`}
	res := &mpi.Result{ExitCode: 11, Signal: "SIGSEGV"}
	job := func(lines ...[]string) *jobOut {
		recs, err := mpi.RecordsOf("events_deliver", 2, lines)
		if err != nil {
			t.Fatal(err)
		}
		return &jobOut{Name: "events_deliver", Problem: res.Problem(), Res: res, Recs: recs, Ranks: 2}
	}
	rule := func(id string) rulebook.Rule {
		for _, c := range []rulebook.Check{insideCheck, deliverCheck} {
			for _, r := range c.Rules {
				if r.ID == id {
					return r
				}
			}
		}
		t.Fatalf("no rule %s", id)
		return rulebook.Rule{}
	}
	judge := func(id string, j *jobOut) verdict.Verdict {
		r := rule(id)
		r.Exposure = rulebook.Declared{} // the stub judge below passes by its own count
		r.Judge = func(x *rulebook.X) verdict.Verdict {
			j.placeCrash(x)
			return rulebook.Exposed(1, "callbacks", "not placed")
		}
		return rulebook.Evaluate(r, &rulebook.X{Impl: &mpi.Impl{ID: "mpich-fast-single"}})
	}
	placed := job(rank0, rank1)
	for _, id := range []string{"ED-1", "CB-X1"} {
		if v := judge(id, placed); v.Status != verdict.Fail || !strings.Contains(v.Reason, "in MPI_T_event_read (job events_deliver, rank 0)") {
			t.Errorf("%s: %+v, want a fail naming MPI_T_event_read", id, v)
		}
	}
	for _, id := range []string{"ED-2", "ED-3", "ED-4", "ED-7"} {
		if v := judge(id, placed); v.Status != verdict.Error || !strings.Contains(v.Cause, "MPI_T_event_read") {
			t.Errorf("%s: %+v, want not judged with a cause naming MPI_T_event_read", id, v)
		}
	}
	// Without its "died" record rank 1's open MPI_Finalize is a suspect too.
	if v := judge("ED-1", job(rank0[:2], rank1)); v.Status != verdict.Error {
		t.Errorf("no died record: %+v, want not judged", v)
	}
	old := job(rank0[:1], []string{`{"kind":"summary","rank":1}`})
	if v := judge("ED-1", old); v.Status != verdict.Pass {
		t.Errorf("no call announced: %+v, want the judge's own verdict", v)
	}
	if c := crashInCallback(old); !strings.Contains(c, "unexp_message_dequeued") {
		t.Errorf("crashInCallback of records announcing no call = %q", c)
	}
	if c := crashInCallback(placed); c != "" {
		t.Errorf("crashInCallback of records announcing calls = %q, want \"\" (placed by the records)", c)
	}
}
