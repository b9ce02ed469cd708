package events

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.8.2 (callback safety requirements, Table 16.5: NONE <
// MPI_RESTRICTED < THREAD_SAFE < ASYNC_SIGNAL_SAFE) and the callback
// management of §16.3.8 (MPI_T_event_register_callback: registering a level
// again replaces its callback, NULL removes it; the implementation invokes
// the callback registered with the lowest safety level that is valid where
// the event is raised, passing the level required there as cb_safety; when
// none is valid the instance is dropped, and MPI_T_event_set_dropped_handler's
// handler is told the count before the next event is delivered). The level
// each event is raised at comes from the profile (profiles.go).
var safetyCheck = harness.Define(harness.Check{
	ID:        "EVENTS-SAFETY-001",
	Clause:    "MPI-4.1:16.3.8.2",
	Needs:     "events",
	Title:     "the callback of the lowest valid safety level is called with cb_safety equal to the level required where it is called; re-registering replaces, NULL removes; with none valid the instances are dropped and counted to the dropped handler before the next delivery",
	Injectors: []string{"inject_events_cb_wrong_safety", "inject_events_cb_never"},
	Run:       runSafety,
})

// The same rule for a callback registered only at ASYNC_SIGNAL_SAFE, the
// strictest level, which is valid in every context.
var asyncCheck = harness.Define(harness.Check{
	ID:        "EVENTS-SAFETY-002",
	Clause:    "MPI-4.1:16.3.8.2",
	Needs:     "events",
	Title:     "a callback registered only at MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE (valid in every context) is called for every instance, with cb_safety equal to the level required where it is called",
	Injectors: []string{"inject_events_cb_wrong_safety", "inject_events_cb_never"},
	Run:       runAsync,
})

// probeSubs gives the probe phase's callbacks, dropped-handler calls and
// free callbacks of one observing rank, by sub-phase.
type probeView struct {
	pr      profile
	rank    int
	cbs     map[string][]cbRec
	dropped map[string][]droppedRec
	frees   []freecbRec
}

func probeViews(x *harness.X, r *eventsRun) []probeView {
	var out []probeView
	phases := decode[phaseRec](r.Probe, "phase")
	cbs := decode[cbRec](r.Probe, "cb")
	drops := decode[droppedRec](r.Probe, "dropped")
	frees := decode[freecbRec](r.Probe, "freecb")
	if errs := r.Probe.errors(); len(errs) > 0 {
		x.Failf(jsonOf(errs), "rank %d: %s failed with %d", errs[0].Rank, errs[0].What, errs[0].RC)
	}
	for _, pr := range r.Profiles {
		for _, p := range phases {
			if p.Mode != "probe" || p.Action != pr.Probe.Action || p.Events[0] != pr.Probe.Events[0].Name || !p.Observer {
				continue
			}
			v := probeView{pr: pr, rank: p.Rank, cbs: map[string][]cbRec{}, dropped: map[string][]droppedRec{}}
			for _, c := range cbs {
				if c.Rank == p.Rank && c.Phase == p.Phase {
					v.cbs[c.Sub] = append(v.cbs[c.Sub], c)
				}
			}
			for _, d := range drops {
				if d.Rank == p.Rank && d.Phase == p.Phase {
					v.dropped[d.Sub] = append(v.dropped[d.Sub], d)
				}
			}
			for _, f := range frees {
				if f.Rank == p.Rank && f.Phase == p.Phase {
					v.frees = append(v.frees, f)
				}
			}
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		panic(harness.Verdict{Status: harness.Error, Reason: "the probe job has no observing rank for the profile's probe event", Evidence: r.Probe.Evidence})
	}
	return out
}

// expectCalls requires n callbacks, each from the slot registered at level
// (and, with notSlot >= 0, not from that slot), with cb_safety ctx.
func expectCalls(x *harness.X, v probeView, sub string, n, level, notSlot int, what string) {
	got := v.cbs[sub]
	ev := jsonOf(got)
	if len(got) != n {
		x.Failf(ev+jsonOf(v.dropped[sub]), "rank %d, %s, %s: %d callbacks for %d instances of %s", v.rank, v.pr.Probe.Events[0].Name, what, len(got), n, v.pr.Probe.Action)
	}
	ctx := v.pr.Context
	for _, c := range got {
		if c.Level != level || c.Slot == notSlot {
			x.Failf(ev, "rank %d, %s, %s: the callback registered at %s ran, not the one at %s", v.rank, c.Event, what, levelName(c.Level), levelName(level))
		}
		if c.Safety != ctx {
			x.Failf(ev, "rank %d, %s, %s: cb_safety is %s; the event is raised where %s is required (profile %s)", v.rank, c.Event, what, levelName(c.Safety), levelName(ctx), v.pr.ID)
		}
	}
}

func runSafety(x *harness.X) harness.Verdict {
	r := needEvents(x)
	for _, v := range probeViews(x, r) {
		k, c := v.pr.Probe.K, v.pr.Context
		expectCalls(x, v, "s_all", k, c, -1, "callbacks at all four levels")
		first := v.cbs["s_all"][0].Slot
		expectCalls(x, v, "s_replace", k, c, first, fmt.Sprintf("%s registered again", levelName(c)))
		if c < levelAsyncSignalSafe {
			expectCalls(x, v, "s_null", k, c+1, -1, fmt.Sprintf("%s removed (NULL)", levelName(c)))
		}
		if got := v.cbs["s_drop"]; len(got) > 0 {
			x.Failf(jsonOf(got), "rank %d: with no callback at %s or above, a callback registered below it ran: it was called where a higher level is required", v.rank, levelName(c))
		}
		expectCalls(x, v, "s_after", 1, c, -1, "after the dropped instances")
		drops := append(append([]droppedRec{}, v.dropped["s_drop"]...), v.dropped["s_after"]...)
		var count int64
		for _, d := range drops {
			count += d.Count
			if d.Seq > v.cbs["s_after"][0].Seq {
				x.Failf(jsonOf(drops)+jsonOf(v.cbs["s_after"]), "rank %d: the dropped handler ran after the next delivered callback", v.rank)
			}
		}
		if count != int64(k) {
			x.Failf(jsonOf(drops)+jsonOf(v.cbs["s_after"]), "rank %d: %d instances were dropped (no valid callback); the dropped handler was told %d before the next delivery", v.rank, k, count)
		}
	}
	pr := r.Profiles[0]
	return harness.Verdict{Reason: fmt.Sprintf("raised at %s (profile %s): lowest valid level called, replace, NULL, %d dropped counted before the next delivery", levelName(pr.Context), profileIDs(r.Profiles), pr.Probe.K)}
}

func runAsync(x *harness.X) harness.Verdict {
	r := needEvents(x)
	for _, v := range probeViews(x, r) {
		got := v.cbs["s_async"]
		if len(got) != v.pr.Probe.K {
			x.Failf(jsonOf(got)+jsonOf(v.dropped["s_async"]), "rank %d: with a callback registered only at %s, %d of %d instances of %s reached it (dropped-handler calls: %d)", v.rank, levelName(levelAsyncSignalSafe), len(got), v.pr.Probe.K, v.pr.Probe.Events[0].Name, len(v.dropped["s_async"]))
		}
		expectCalls(x, v, "s_async", v.pr.Probe.K, levelAsyncSignalSafe, -1, "only ASYNC_SIGNAL_SAFE registered")
	}
	return harness.Verdict{Reason: fmt.Sprintf("the ASYNC_SIGNAL_SAFE callback got every instance, with cb_safety %s", levelName(r.Profiles[0].Context))}
}
