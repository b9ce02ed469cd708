package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T from four threads at once (MPI-5.0 §15.3.4), from one run of
// fixtures/c/mpit/threads.c: four threads read every control variable and,
// in sessions of their own, the performance variables; before they start,
// one thread reads every control variable twice, the second time deeper in
// its stack (a variable that differs then is unstable, not a thread-safety
// question).
var threadsCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-THREADS",
	Needs: "mpit",
	Title: "under MPI_THREAD_MULTIPLE, 4 threads reading all control variables and (in their own sessions) performance variables at once: no crash, no failed call, the values one thread read alone",
	Rules: []rulebook.Rule{
		// §15.3.4: MPI_T_init_thread "initializes the thread environment for
		// all routines in the MPI tool information interface"; with
		// MPI_THREAD_MULTIPLE provided, "multiple threads may call MPI, with no
		// restrictions" (§11.6). A control variable that one thread read the
		// same twice reads the same from four threads at once.
		{ID: "INIT-10", Source: "MPI-5.0 §15.3.4", Basis: rulebook.Normative,
			Text:      "with MPI_T at MPI_THREAD_MULTIPLE, 4 threads reading every control variable and (in their own sessions) performance variables at once: no crash, no failed call, and every control variable that reads the same twice in one thread reads that value in all four",
			Injectors: []string{"inject_mpit_cvar_read_unsafe"}, Exposure: init10Exposure.Declared(), Judge: judgeMPITOnThreads},
		// Table 20 (§15.3.6.1): MPI_T_SCOPE_CONSTANT "read-only, value is
		// constant".
		{ID: "CVAR-16", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "a control variable of scope MPI_T_SCOPE_CONSTANT reads the same value twice",
			Injectors: []string{"inject_mpit_cvar_drift"}, Exposure: cvar16Exposure.Declared(), Judge: judgeCvar16},
		// Table 20: MPI_T_SCOPE_READONLY "read-only, cannot be written, but
		// can change"; of the writable scopes the text does not say a value
		// may change with nobody writing it, nor that it may not: a robust
		// library does not hand out what lies on the reader's stack.
		{ID: "CVAR-X2", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Quality,
			Text:      "a control variable of a writable scope that nobody writes reads the same value twice in one thread, the second 8 KiB deeper in its stack",
			Injectors: []string{"inject_mpit_cvar_drift"}, Exposure: cvarX2Exposure.Declared(), Judge: judgeCvarX2},
	},
})

type unstableRec struct {
	Index    int    `json:"index"`
	Name     string `json:"name"`
	Constant int    `json:"constant"`
	ReadOnly int    `json:"readonly"`
	Scope    int    `json:"scope"`
}

// cvar16Exposure: each constant that answered a read was read twice, and
// could have differed (the fixture gives their number only).
var cvar16Exposure = rulebook.Exposure[countedItem]{Items: "constant control variables"}

func judgeCvar16(x *rulebook.X) verdict.Verdict {
	res, recs, err := x.LaunchOnce(threadsJob(x))
	if recs == nil {
		x.Errorf(res.Evidence(), "%v", err)
	}
	cs := mpi.Decode[struct {
		N int `json:"n"`
	}](recs, "constants")
	if len(cs) == 0 {
		x.Errorf(res.Evidence(), "mpit_threads recorded no count of constant control variables")
	}
	if cs[0].N == 0 {
		x.Unsupported("not measurable here: no control variable of scope MPI_T_SCOPE_CONSTANT answered a read")
	}
	var bad, other []string
	for _, u := range mpi.Decode[unstableRec](recs, "unstable") {
		if u.Constant == 1 {
			bad = append(bad, fmt.Sprintf("%s (%d)", u.Name, u.Index))
		} else {
			other = append(other, fmt.Sprintf("%s (%d, scope %d)", u.Name, u.Index, u.Scope))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%d control variables of scope MPI_T_SCOPE_CONSTANT read differently twice: %s", len(bad), examples(bad))
	}
	reason := fmt.Sprintf("%d constant control variables read the same twice", cs[0].N)
	if len(other) > 0 {
		reason += fmt.Sprintf("; %d others (their scope lets them change) did not: %s", len(other), examples(other))
	}
	return cvar16Exposure.Pass(countedItems(cs[0].N), "%s", reason)
}

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

// threadsJob is the one run of fixtures/c/mpit/threads.c.
func threadsJob(x *rulebook.X) mpi.Job {
	return mpi.Job{Name: "mpit_threads", Ranks: 1, Program: x.Fixture("mpit_threads"), Args: []string{threadPvars(x)}}
}

// pvarPickRec is which of the named performance variables threads.c found
// among its own (their indices in its process).
type pvarPickRec struct {
	Named   int    `json:"named"`
	Num     int    `json:"num"`
	Indices string `json:"indices"`
}

// threadPvars names the performance variables a handle can be made for
// without a crash, from the session job ("-" if there are none or it could
// not run): names, not indices, since that job's process may have
// registered more variables than the threads' (MPICH ch3 registers its RMA
// ones at the first window), and an index is only its own process's.
func threadPvars(x *rulebook.X) string {
	pv := "-"
	if x.Caps.AfterInit.Pvars > 0 {
		func() {
			// A job that could not run leaves "-"; a judge that broke still says where.
			defer func() {
				if b, broke := mpi.StopOf(recover()).(mpi.Broke); broke {
					panic(b) // panic-ok: re-raises where the suite broke; a verdict of the pvar job leaves "-"
				}
			}()
			r := pvarJob(x)
			crashed := r.crashed("probe_exit")
			// a name is passed when every variable of that name (one
			// per class) could be allocated and read: threads.c uses
			// every variable of its own with a name of the list
			ok := map[string]bool{}
			for _, pr := range r.probes {
				_, bad := crashed[pr.Index]
				good := !bad && pr.AllocRC == "MPI_SUCCESS" && pr.ReadRC == "MPI_SUCCESS"
				if was, met := ok[pr.Name]; met {
					good = good && was
				}
				ok[pr.Name] = good
			}
			var s []string
			for name, good := range ok {
				// a name with a comma could not be passed in the list
				if good && name != "" && !strings.Contains(name, ",") {
					s = append(s, name)
				}
			}
			sort.Strings(s)
			if len(s) > 0 {
				pv = strings.Join(s, ",")
			}
		}()
	}
	return pv
}

// init10Exposure: each read could have failed (or, of a stable control
// variable, differed); the threads give their number only.
var init10Exposure = rulebook.Exposure[countedItem]{Items: "control and performance variable reads from 4 threads"}

// judgeMPITOnThreads judges MPI_T calls made from 4 threads at once: every
// control and performance variable read succeeds and they agree.
func judgeMPITOnThreads(x *rulebook.X) verdict.Verdict {
	res, recs, err := x.LaunchOnce(threadsJob(x))
	if err != nil && res.OK() {
		return verdict.Verdict{Status: verdict.Error, Reason: err.Error(), Evidence: res.Evidence()}
	}
	if recs == nil {
		recs = &mpi.Records{}
	}
	lv := mpi.Decode[levelsRec](recs, "levels")
	if len(lv) != 1 {
		if !res.OK() {
			// the levels come before the threads start: a death before
			// them judges no thread
			x.Errorf(res.Evidence(), "mpit_threads died before its threads started: %s", res.Problem())
		}
		return verdict.Verdict{Status: verdict.Error, Reason: "mpit_threads recorded no thread levels", Evidence: res.Evidence()}
	}
	if lv[0].InitRC != 0 || lv[0].MPITProvided != lv[0].Multiple {
		x.Unsupported("MPI_T_init_thread(MPI_THREAD_MULTIPLE) returned %d with provided = %d (MPI_THREAD_MULTIPLE is %d)", lv[0].InitRC, lv[0].MPITProvided, lv[0].Multiple)
	}
	var p rulebook.Problems
	p.Also(res.Evidence())
	ths := mpi.Decode[threadRec](recs, "thread")
	switch {
	case !res.OK() && len(ths) < 4:
		// a thread's record is written when it has been joined
		p.Add("", "MPI_T from 4 threads: %s (%d of 4 threads reported)", res.Problem(), len(ths))
	case len(ths) != 4:
		p.Add("", "%d of 4 threads reported", len(ths))
	}
	reads, preads, decreases := 0, 0, 0
	for _, t := range ths {
		reads += t.CvarReads
		preads += t.PvarReads
		decreases += t.PvarDecrease
		if t.CvarErrors > 0 || t.CvarMismatch > 0 || t.PvarErrors > 0 {
			p.Add("", "thread %d: %d failed control variable calls, %d reads that differ from one thread's, %d failed performance variable calls (first: %s)",
				t.ID, t.CvarErrors, t.CvarMismatch, t.PvarErrors, t.First)
		}
	}
	p.FailOn(x)
	if !res.OK() {
		x.Errorf(res.Evidence(), "mpit_threads died after its 4 threads ended, all of whose calls succeeded: %s", res.Problem())
	}
	pv := "-"
	if picks := mpi.Decode[pvarPickRec](recs, "pvar_pick"); len(picks) == 1 {
		pv = picks[0].Indices
		if picks[0].Named > 0 {
			// the indices are the threads process's own
			pv += fmt.Sprintf(" of its %d; %d named", picks[0].Num, picks[0].Named)
		}
	}
	reason := fmt.Sprintf("4 threads: %d control variable reads and %d performance variable reads (variables %s), all succeeded and agree", reads, preads, pv)
	if decreases > 0 {
		reason += fmt.Sprintf("; %d SUM-class reads went down (judged by MPIT-PVAR-OPS)", decreases)
	}
	return init10Exposure.Pass(countedItems(reads+preads), "%s", reason)
}

// cvarX2Exposure: each writable-scope control variable the threads run read
// twice could have read differently (the fixture gives their number only).
var cvarX2Exposure = rulebook.Exposure[countedItem]{Items: "control variables of a writable scope"}

func judgeCvarX2(x *rulebook.X) verdict.Verdict {
	res, recs, err := x.LaunchOnce(threadsJob(x))
	if recs == nil {
		x.Errorf(res.Evidence(), "%v", err)
	}
	var bad, readonly []string
	for _, u := range mpi.Decode[unstableRec](recs, "unstable") {
		switch {
		case u.ReadOnly == 1: // "read-only, cannot be written, but can change"
			readonly = append(readonly, fmt.Sprintf("%s (%d)", u.Name, u.Index))
		case u.Constant == 0:
			bad = append(bad, fmt.Sprintf("%s (%d, scope %d)", u.Name, u.Index, u.Scope))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(bad, "\n"), "%d writable-scope control variables nobody wrote read differently twice in one thread: %s", len(bad), examples(bad))
	}
	// mpit_threads records only the variables that read differently, and
	// how many of a writable scope it read twice
	cs := mpi.Decode[struct {
		Writable *int `json:"writable"`
	}](recs, "constants")
	if len(cs) == 0 || cs[0].Writable == nil {
		x.Errorf(res.Evidence(), "mpit_threads recorded no count of the writable-scope control variables it read twice")
	}
	writable := countedItems(*cs[0].Writable)
	reason := fmt.Sprintf("each of the %d writable-scope control variables that answered a read gave the same value when read again by the same thread, nobody writing it", len(writable))
	if len(readonly) > 0 {
		reason += fmt.Sprintf("; %d of scope READONLY (which can change) did not: %s", len(readonly), examples(readonly))
	}
	return cvarX2Exposure.Pass(writable, "%s", reason)
}
