package mpit

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.4: MPI_T_init_thread "initializes the thread environment for
// all routines in the MPI tool information interface"; with
// MPI_THREAD_MULTIPLE provided, "multiple threads may call MPI, with no
// restrictions" (§11.6.3). Four threads read every control variable and, in
// sessions of their own, the performance variables: no call fails, no
// control variable reads differently from what one thread read alone.
var threadsCheck = harness.Define(harness.Check{
	ID:        "MPIT-THREADS-001",
	Clause:    "MPI-4.1:16.3.4",
	Needs:     "mpit",
	Title:     "under MPI_THREAD_MULTIPLE, 4 threads reading all control variables and (in their own sessions) performance variables at once: no crash, no failed call, the values one thread read alone",
	Injectors: []string{"inject_mpit_cvar_read_unsafe"},
	Run:       runThreads,
})

type levelsRec struct {
	MPIProvided  int `json:"mpi_provided"`
	MPITProvided int `json:"mpit_provided"`
	Multiple     int `json:"multiple"`
	InitRC       int `json:"init_rc"`
}

type threadRec struct {
	ID           int    `json:"id"`
	CvarReads    int    `json:"cvar_reads"`
	CvarErrors   int    `json:"cvar_errors"`
	CvarMismatch int    `json:"cvar_mismatch"`
	PvarReads    int    `json:"pvar_reads"`
	PvarErrors   int    `json:"pvar_errors"`
	PvarDecrease int    `json:"pvar_decrease"`
	First        string `json:"first"`
}

func runThreads(x *harness.X) harness.Verdict {
	// the performance variables a handle can be made for without a crash,
	// from the session job (none if there are none or it could not run)
	pv := "-"
	if x.Caps.AfterInit.Pvars > 0 {
		func() {
			defer func() { _ = recover() }()
			r := pvarJob(x)
			crashed := r.crashed("probe_exit")
			var idx []int
			for _, pr := range r.probes {
				if _, bad := crashed[pr.Index]; !bad && pr.AllocRC == "MPI_SUCCESS" && pr.ReadRC == "MPI_SUCCESS" {
					idx = append(idx, pr.Index)
				}
			}
			sort.Ints(idx)
			var s []string
			for _, i := range idx {
				s = append(s, strconv.Itoa(i))
			}
			if len(s) > 0 {
				pv = strings.Join(s, ",")
			}
		}()
	}
	res, recs, err := x.LaunchOnce(harness.Job{Name: "mpit_threads", Ranks: 1, Program: x.Fixture("mpit_threads"), Args: []string{pv}})
	if err != nil {
		if res.OK() {
			return harness.Verdict{Status: harness.Error, Reason: err.Error(), Evidence: res.Evidence()}
		}
		x.Failf(res.Evidence(), "MPI_T from 4 threads: %s", res.Problem())
	}
	lv := decode[levelsRec](recs, "levels")
	if len(lv) != 1 {
		if !res.OK() {
			x.Failf(res.Evidence(), "MPI_T from 4 threads: %s", res.Problem())
		}
		return harness.Verdict{Status: harness.Error, Reason: "mpit_threads recorded no thread levels", Evidence: res.Evidence()}
	}
	if lv[0].InitRC != 0 || lv[0].MPITProvided != lv[0].Multiple {
		x.Unsupported("MPI_T_init_thread(MPI_THREAD_MULTIPLE) returned %d with provided = %d (MPI_THREAD_MULTIPLE is %d)", lv[0].InitRC, lv[0].MPITProvided, lv[0].Multiple)
	}
	var p problems
	p.evidence = res.Evidence()
	if !res.OK() {
		p.add("MPI_T from 4 threads: %s", res.Problem())
	}
	ths := decode[threadRec](recs, "thread")
	if len(ths) != 4 && res.OK() {
		p.add("%d of 4 threads reported", len(ths))
	}
	reads, preads, decreases := 0, 0, 0
	for _, t := range ths {
		reads += t.CvarReads
		preads += t.PvarReads
		decreases += t.PvarDecrease
		if t.CvarErrors > 0 || t.CvarMismatch > 0 || t.PvarErrors > 0 {
			p.add("thread %d: %d failed control variable calls, %d reads that differ from one thread's, %d failed performance variable calls (first: %s)",
				t.ID, t.CvarErrors, t.CvarMismatch, t.PvarErrors, t.First)
		}
	}
	p.fail(x, "threads")
	reason := fmt.Sprintf("4 threads: %d control variable reads and %d performance variable reads (variables %s), all succeeded and agree", reads, preads, pv)
	if decreases > 0 {
		reason += fmt.Sprintf("; %d SUM-class reads went down (judged by MPIT-PVAR-OPS-001)", decreases)
	}
	return harness.Verdict{Reason: reason}
}
