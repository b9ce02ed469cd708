package events

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// MPI_T events under MPI_THREAD_MULTIPLE (MPI-5.0 §15.3.8.4): four threads
// act at once, the THREAD_SAFE callback records every invocation and the
// thread it ran on; each rule judges its own records.
var threadsCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-THREAD",
	Needs: "events",
	Title: "with 4 threads acting at once under MPI_THREAD_MULTIPLE, every event instance reaches the THREAD_SAFE callback exactly once, with its user data",
	Rules: []rulebook.Rule{
		// §15.3.8.4: "Once the callback function is registered, MPI will
		// invoke the callback function for each occurrence of the event";
		// §15.3.8.2: a THREAD_SAFE callback may "happen concurrently with any
		// other callback including itself", so concurrency is no reason to
		// lose or repeat an instance.
		{ID: "CB-13", Source: "MPI-5.0 §15.3.8.2, §15.3.8.4", Basis: rulebook.Normative,
			Text:      "under MPI_THREAD_MULTIPLE, instances raised by several threads at once each reach a THREAD_SAFE callback exactly once",
			Injectors: []string{"inject_events_cb_twice", "inject_events_cb_never"},
			Exposure:  cb13Exposure.Declared(), Judge: judgeCallbacksOnThreads("count")},
		// §15.3.8.4: "The argument user_data is the pointer to user-allocated
		// memory that was passed to the MPI implementation during callback
		// registration."
		{ID: "CB-8t", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "under MPI_THREAD_MULTIPLE, with several threads raising events at once, every callback gets the user_data given at registration",
			Injectors: []string{"inject_events_cb_wrong_user_data"},
			Exposure:  cb8tExposure.Declared(), Judge: judgeCallbacksOnThreads("user")},
	},
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

// cb13Exposure: every instance the threads raised could have been lost
// or repeated; cb8tExposure: every callback could have got another
// user_data.
var (
	cb13Exposure = rulebook.Exposure[raisedInstance]{Items: "instances raised by the threads"}
	cb8tExposure = rulebook.Exposure[cbRec]{Items: "callbacks"}
)

// judgeCallbacksOnThreads judges one kind of problem ("count" or "user")
// of the callbacks of events raised by several threads (the threads job).
func judgeCallbacksOnThreads(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		var bad, ev []string
		fail := func(e string, format string, args ...any) {
			bad = append(bad, fmt.Sprintf(format, args...))
			ev = append(ev, e)
		}
		r := needEvents(x)
		pr := r.Profiles[0]
		ph := pr.Threads
		j := sharedJob(x, "events_threads", 2, []string{ph.arg("act", pr.Context)})
		j.mustBeWhole(x)
		trs := mpi.DecodeRanked[threadsRec](j.Recs, "threads")
		if len(trs) == 0 {
			x.Errorf(j.Evidence, "events_threads wrote no threads record")
		}
		if !trs[0].Provided {
			x.Unsupported("MPI_Init_thread(MPI_THREAD_MULTIPLE) provides less")
		}
		cbs := mpi.DecodeRanked[cbRec](j.Recs, "cb")
		facts := mpi.DecodeRanked[factRec](j.Recs, "fact")
		threads := trs[0].Threads
		want := threads * ph.K
		tids := map[int]bool{}
		var instances []raisedInstance // the observing ranks' threads raised (counted)
		var callbacks []cbRec          // of their event types
		for rank, tr := range trs {
			if !tr.Observer {
				continue
			}
			for _, et := range ph.Events {
				var got []cbRec
				for _, c := range cbs {
					if c.Rank == rank && c.Event == et.Name {
						callbacks = append(callbacks, c)
						got = append(got, c)
						tids[c.Tid] = true
						if !c.UserOK && kind == "user" {
							fail(jsonOf([]cbRec{c}), "rank %d: a callback of %s got a user_data that is not the pointer given at registration", rank, et.Name)
						}
					}
				}
				if kind != "count" {
					continue
				}
				for i := 0; i < want; i++ {
					instances = append(instances, raisedInstance{rank, et.Name})
				}
				if len(got) != want {
					fail(jsonOf(got), "rank %d: %d threads x %d %s raised %s %d times, not %d", rank, threads, ph.K, ph.Action, et.Name, len(got), want)
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
						fail(fmt.Sprintf("callbacks saw: %v\nactions made: %v", seen, made), "rank %d: the %s of the callbacks are not the %d the threads made, each once", rank, name, want)
					}
				}
			}
		}
		if len(bad) > 0 {
			x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
		}
		if len(tids) == 0 {
			x.Unsupported("not measurable here: no callback ran in the threads job")
		}
		maxc := 0
		for _, s := range mpi.DecodeRanked[threadsSummary](j.Recs, "summary") {
			if s.MaxConcurrent > maxc {
				maxc = s.MaxConcurrent
			}
		}
		what := map[string]string{"count": "every instance once", "user": "every callback got its user_data"}[kind]
		reason := fmt.Sprintf("%d threads x %d %s: %s, callbacks ran on %d thread(s), at most %d at a time", threads, ph.K, ph.Action, what, len(tids), maxc)
		if kind == "count" {
			return cb13Exposure.Pass(instances, "%s", reason)
		}
		return cb8tExposure.Pass(callbacks, "%s", reason)
	}
}
