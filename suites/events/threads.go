package events

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.8 with MPI_THREAD_MULTIPLE, and seed 002 ("callbacks should
// be prepared to be invoked from different threads"): when four threads act
// at once, every event instance reaches its callback exactly once; a
// callback registered at MPI_T_CB_REQUIRE_THREAD_SAFE may run concurrently,
// and loses nothing doing so. The thread each callback ran on is recorded.
var threadsCheck = harness.Define(harness.Check{
	ID:        "EVENTS-THREAD-001",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "with 4 threads acting at once under MPI_THREAD_MULTIPLE, every event instance reaches the THREAD_SAFE callback exactly once, with its user data",
	Injectors: []string{"inject_events_cb_twice", "inject_events_cb_never"},
	Run:       runThreads,
})

type threadsRec struct {
	Provided bool   `json:"provided"`
	Present  bool   `json:"present"`
	Observer bool   `json:"observer"`
	Threads  int    `json:"threads"`
	K        int    `json:"k"`
	Note     string `json:"note"`
}

type threadsSummary struct {
	MaxConcurrent int `json:"max_concurrent_callbacks"`
}

func runThreads(x *harness.X) harness.Verdict {
	r := needEvents(x)
	pr := r.Profiles[0]
	ph := pr.Threads
	j := sharedJob(x, "events_threads", 2, []string{ph.arg("act", pr.Context)})
	j.mustBeWhole()
	trs := decode[threadsRec](j, "threads")
	if len(trs) == 0 {
		panic(harness.Verdict{Status: harness.Error, Reason: "events_threads wrote no threads record", Evidence: j.Evidence})
	}
	if !trs[0].Provided {
		x.Unsupported("MPI_Init_thread(MPI_THREAD_MULTIPLE) provides less")
	}
	cbs := decode[cbRec](j, "cb")
	facts := decode[factRec](j, "fact")
	threads := trs[0].Threads
	want := threads * ph.K
	tids := map[int]bool{}
	for rank, tr := range trs {
		if !tr.Observer {
			continue
		}
		for _, et := range ph.Events {
			var got []cbRec
			for _, c := range cbs {
				if c.Rank == rank && c.Event == et.Name {
					got = append(got, c)
					tids[c.Tid] = true
					if !c.UserOK {
						x.Failf(jsonOf([]cbRec{c}), "rank %d: a callback of %s got a user_data that is not the pointer given at registration", rank, et.Name)
					}
				}
			}
			if len(got) != want {
				x.Failf(jsonOf(got), "rank %d: %d threads x %d %s raised %s %d times, not %d", rank, threads, ph.K, ph.Action, et.Name, len(got), want)
			}
			// Where an element identifies the instance, each exactly once.
			for e, name := range et.Elems {
				if name != "handle" {
					continue
				}
				var seen, made []string
				for _, c := range got {
					seen = append(seen, c.Elems[e])
				}
				for _, f := range facts {
					if f.Rank == rank {
						made = append(made, f.Facts[name])
					}
				}
				sort.Strings(seen)
				sort.Strings(made)
				if strings.Join(seen, ",") != strings.Join(made, ",") {
					x.Failf(fmt.Sprintf("callbacks saw: %v\nactions made: %v", seen, made), "rank %d: the %s of the callbacks are not the %d the threads made, each once", rank, name, want)
				}
			}
		}
	}
	maxc := 0
	for _, s := range decode[threadsSummary](j, "summary") {
		if s.MaxConcurrent > maxc {
			maxc = s.MaxConcurrent
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("%d threads x %d %s: every instance once, callbacks ran on %d thread(s), at most %d at a time", threads, ph.K, ph.Action, len(tids), maxc)}
}
