package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
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
var safetyCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-SAFETY-001",
	Needs: "events",
	Title: "the callback of the lowest valid safety level is called with cb_safety equal to the level required where it is called; re-registering replaces, NULL removes; with none valid the instances are dropped and counted to the dropped handler before the next delivery",
	Rules: []rulebook.Rule{
		// §15.3.8.4: "When an event is triggered, the implementation will
		// select from all registered callbacks the callback with the lowest
		// safety level valid in the context in which the callback is invoked."
		// "The argument cb_safety describes the safety requirements the
		// callback function must fulfill in the current invocation."
		{ID: "CB-2", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "with callbacks at all four levels, the one of the lowest level valid where the event is raised runs for every instance, with cb_safety that level",
			Injectors: []string{"inject_events_cb_wrong_safety", "inject_events_cb_never"},
			Exposure:  cb2Exposure.Declared(), Judge: safetyJudge("all")},
		// §15.3.8.4 (MPI_T_EVENT_REGISTER_CALLBACK): registering for a safety
		// level that already has a callback replaces it (and its info).
		{ID: "CB-3", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "registering a callback again at a level replaces that level's callback: only the new one runs",
			Injectors: []string{"inject_events_cb_never"},
			Exposure:  cb3Exposure.Declared(), Judge: safetyJudge("replace")},
		// §15.3.8.4: registering NULL for a level removes its callback; the
		// next valid level's callback runs instead.
		{ID: "CB-4", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "registering NULL at a level removes its callback: the next higher level's callback runs instead",
			Injectors: []string{"inject_events_cb_never", "inject_events_cb_null_ignored"},
			Exposure:  cb4Exposure.Declared(), Judge: safetyJudge("null")},
		// §15.3.8.4: "In situations where the required callback safety level
		// exceeds the highest level for which a callback function is
		// registered for a given registration handle, the event instance is
		// dropped."
		{ID: "CB-5", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "with callbacks only below the level required where the event is raised, no callback runs (the instance is dropped)",
			Injectors: []string{"inject_events_cb_null_ignored"},
			Exposure:  cb5Exposure.Declared(), Judge: safetyJudge("drop")},
		// §15.3.8.5: "The argument count provides a best effort estimation of
		// the number of invocations to a registered event callback [...] that
		// were not executed since the registration of the dropped-callback
		// handler or the last invocation of a registered dropped-callback
		// handler."
		{ID: "DROP-1", Source: "MPI-5.0 §15.3.8.5", Basis: rulebook.Normative,
			Text:      "instances dropped for lack of a valid callback are reported to the dropped handler with their count",
			Injectors: []string{"inject_events_cb_never"},
			Exposure:  drop1Exposure.Declared(), Judge: safetyJudge("count")},
		// §15.3.8.5: "If dropped event notifications have been observed for a
		// specific source since the last event notification of that source,
		// the corresponding dropped handler callback function must be called
		// before other events are raised for that source."
		{ID: "DROP-2", Source: "MPI-5.0 §15.3.8.5", Basis: rulebook.Normative,
			Text:      "the dropped handler runs before the callback of the next instance of the source whose instances were dropped",
			Injectors: []string{"inject_events_dropped_handler_off"},
			Exposure:  drop2Exposure.Declared(), Judge: safetyJudge("before")},
		// §15.3.8.5: "Subsequent calls to MPI_T_EVENT_SET_DROPPED_HANDLER with
		// the same registration handle will replace previously-registered
		// callback functions for that registration handle."
		{ID: "DROP-5", Source: "MPI-5.0 §15.3.8.5", Basis: rulebook.Normative,
			Text:      "after MPI_T_event_set_dropped_handler is called again on a handle, only the new handler is told of dropped instances, never the replaced one",
			Injectors: []string{"inject_events_dropped_handler_off"},
			Exposure:  drop5Exposure.Declared(), Judge: safetyJudge("replaced")},
		// §15.3.8.5: "If the pointer to dropped_cb_function is the NULL
		// pointer, no data loss is recorded or reported until a new valid
		// callback function is registered."
		{ID: "DROP-6", Source: "MPI-5.0 §15.3.8.5", Basis: rulebook.Normative,
			Text:      "instances dropped while the dropped handler is NULL are reported to no handler, neither then nor to the handler set after",
			Injectors: []string{"inject_events_dropped_handler_off"},
			Exposure:  drop6Exposure.Declared(), Judge: safetyJudge("dnull")},
		// §15.3.8.5: "The source_index provides the index of the source that
		// dropped the corresponding event information. The argument cb_safety
		// describes the safety requirements the callback function must fulfill
		// in the current invocation. The possible values for cb_safety are
		// described in Table 21."
		{ID: "DROP-4", Source: "MPI-5.0 §15.3.8.5", Basis: rulebook.Normative,
			Text:      "the dropped handler gets the index of the source of the dropped event (the one its delivered instances report) and a cb_safety that is one of the four levels",
			Injectors: []string{"inject_events_cb_wrong_identity"},
			Exposure:  drop4Exposure.Declared(), Judge: judgeDroppedArgs},
	},
})

// replacingInstance is an instance raised after its level's callback was
// registered again, with the slot of the callback replaced (-1: unknown,
// s_all called none).
type replacingInstance struct{ replaced int }

// droppedCount is what the dropped handler was told on one observing rank.
type droppedCount struct {
	rank int
	told int64
}

// The exposures of safetyJudge's rules: every instance raised could have
// reached the wrong callback (or, dropped, any callback or handler), every
// rank's count of dropped instances could have been off, every
// dropped-handler call could have come late or to the replaced handler;
// a replacing callback can be told from the replaced one only where the
// replaced one is known.
var (
	cb2Exposure = rulebook.Exposure[raisedInstance]{Items: "instances"}
	cb3Exposure = rulebook.Exposure[replacingInstance]{Items: "instances",
		When:  "when the replaced callback is known (s_all called it): only then can the replacing one at its level be told from it",
		Could: func(i replacingInstance) bool { return i.replaced >= 0 }}
	cb4Exposure   = rulebook.Exposure[raisedInstance]{Items: "instances"}
	cb5Exposure   = rulebook.Exposure[raisedInstance]{Items: "dropped instances"}
	drop1Exposure = rulebook.Exposure[droppedCount]{Items: "dropped counts (one per observing rank)"}
	drop2Exposure = rulebook.Exposure[droppedRec]{Items: "dropped-handler calls"}
	drop5Exposure = rulebook.Exposure[droppedRec]{Items: "dropped-handler calls"}
	drop6Exposure = rulebook.Exposure[raisedInstance]{Items: "instances dropped while the dropped handler was NULL"}
)

// safetyJudge judges one sub-phase of the probe job.
func safetyJudge(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := needEvents(x)
		var bad []string
		var ev []string
		// The items of the kind: instances raised (all, null, drop,
		// dnull), instances after the replacement (replace), the count
		// told on each rank (count), dropped-handler calls (before,
		// replaced).
		var raised []raisedInstance
		var replacing []replacingInstance
		var counts []droppedCount
		var calls []droppedRec
		for _, v := range probeViews(x, r) {
			k, c := v.pr.Probe.K, v.pr.Context
			var first = -1
			if got := v.cbs["s_all"]; len(got) > 0 {
				first = got[0].Slot
			}
			switch kind {
			case "all", "null", "drop":
				raised = append(raised, v.raised(k)...)
			case "replace":
				for i := 0; i < k; i++ {
					replacing = append(replacing, replacingInstance{first})
				}
			}
			switch kind {
			case "all":
				bad = append(bad, callProblems(v, "s_all", k, c, -1, "callbacks at all four levels", &ev)...)
			case "replace":
				bad = append(bad, callProblems(v, "s_replace", k, c, first, fmt.Sprintf("%s registered again", levelName(c)), &ev)...)
			case "null":
				if c >= levelAsyncSignalSafe {
					x.Unsupported("not measurable here: events are raised at %s, no higher level to fall back to", levelName(c))
				}
				bad = append(bad, callProblems(v, "s_null", k, c+1, -1, fmt.Sprintf("%s removed (NULL)", levelName(c)), &ev)...)
			case "drop":
				if c == levelNone {
					x.Unsupported("not measurable here: events are raised at %s, no level below it to register", levelName(c))
				}
				if got := v.cbs["s_drop"]; len(got) > 0 {
					bad = append(bad, fmt.Sprintf("rank %d: with no callback at %s or above, a callback registered below it ran: it was called where a higher level is required", v.rank, levelName(c)))
					ev = append(ev, jsonOf(got))
				}
			case "count":
				drops := append(append([]droppedRec{}, v.dropped["s_drop"]...), v.dropped["s_after"]...)
				var count int64
				for _, d := range drops {
					count += d.Count
				}
				counts = append(counts, droppedCount{v.rank, count})
				if count != int64(k) {
					bad = append(bad, fmt.Sprintf("rank %d: %d instances were dropped (no valid callback); the dropped handler was told %d (up to the next delivery)", v.rank, k, count))
					ev = append(ev, jsonOf(drops)+jsonOf(v.cbs["s_after"]))
				}
			case "before":
				after := v.cbs["s_after"]
				drops := append(append([]droppedRec{}, v.dropped["s_drop"]...), v.dropped["s_after"]...)
				if len(after) == 0 || len(drops) == 0 {
					x.Unsupported("not measurable here: rank %d: %d dropped-handler calls and %d callbacks for the instance after the dropped ones (DROP-1, CB-10)", v.rank, len(drops), len(after))
				}
				calls = append(calls, drops...)
				for _, d := range drops {
					if d.Seq > after[0].Seq {
						bad = append(bad, fmt.Sprintf("rank %d: the dropped handler (count %d) ran after the callback of the next instance of the source", v.rank, d.Count))
						ev = append(ev, jsonOf(drops)+jsonOf(after))
						break
					}
				}
			case "replaced":
				drops := append(append([]droppedRec{}, v.dropped["s_drop"]...), v.dropped["s_after"]...)
				if len(drops) == 0 {
					x.Unsupported("not measurable here: rank %d: no dropped handler ran for %d dropped instances (DROP-1)", v.rank, k)
				}
				calls = append(calls, drops...)
				for _, d := range drops {
					if d.Handler != "current" {
						bad = append(bad, fmt.Sprintf("rank %d: the dropped handler replaced by a second MPI_T_event_set_dropped_handler was told of %d dropped instances", v.rank, d.Count))
						ev = append(ev, jsonOf(drops))
						break
					}
				}
			case "dnull":
				if len(v.dropped["s_drop"])+len(v.dropped["s_after"]) == 0 {
					x.Unsupported("not measurable here: rank %d: no dropped handler ran for %d dropped instances with a handler set (DROP-1)", v.rank, k)
				}
				if n := len(v.cbs["s_dnull"]); n > 0 {
					x.Unsupported("not measurable here: rank %d: %d callbacks ran where the instances should have been dropped (CB-5)", v.rank, n)
				}
				raised = append(raised, v.raised(k)...)
				if got := append(append([]droppedRec{}, v.dropped["s_dnull"]...), v.dropped["s_dnull_after"]...); len(got) > 0 {
					bad = append(bad, fmt.Sprintf("rank %d: %d instances were dropped while the dropped handler was NULL; a dropped handler was then told of %d", v.rank, k, got[0].Count))
					ev = append(ev, jsonOf(got)+jsonOf(v.cbs["s_dnull_after"]))
				}
			}
		}
		if len(bad) > 0 {
			x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
		}
		pr := r.Profiles[0]
		what := map[string]string{"all": "the lowest valid level's callback ran for every instance", "replace": "the replacing callback ran, not the replaced one", "null": "with the level removed, the next level's callback ran", "drop": "no callback below the required level ran", "count": fmt.Sprintf("%d dropped instances counted to the dropped handler", pr.Probe.K), "before": "the dropped handler ran before the callback of the next instance", "replaced": "only the replacing dropped handler was told of the dropped instances", "dnull": fmt.Sprintf("%d instances dropped while the handler was NULL were reported to no handler, then or after a new one was set", pr.Probe.K)}[kind]
		const format = "raised at %s (profile %s): %s"
		args := []any{levelName(pr.Context), profileIDs(r.Profiles), what}
		switch kind {
		case "all":
			return cb2Exposure.Pass(raised, format, args...)
		case "replace":
			return cb3Exposure.Pass(replacing, format, args...)
		case "null":
			return cb4Exposure.Pass(raised, format, args...)
		case "drop":
			return cb5Exposure.Pass(raised, format, args...)
		case "count":
			return drop1Exposure.Pass(counts, format, args...)
		case "before":
			return drop2Exposure.Pass(calls, format, args...)
		case "replaced":
			return drop5Exposure.Pass(calls, format, args...)
		}
		return drop6Exposure.Pass(raised, format, args...) // dnull
	}
}

// callProblems lists what differs from n callbacks in sub, each from the
// slot registered at level (and, with notSlot >= 0, not from that slot),
// with cb_safety the profile's context.
func callProblems(v probeView, sub string, n, level, notSlot int, what string, ev *[]string) []string {
	got := v.cbs[sub]
	var bad []string
	if len(got) != n {
		bad = append(bad, fmt.Sprintf("rank %d, %s, %s: %d callbacks for %d instances of %s", v.rank, v.pr.Probe.Events[0].Name, what, len(got), n, v.pr.Probe.Action))
	}
	ctx := v.pr.Context
	for _, c := range got {
		if c.Level != level || c.Slot == notSlot {
			bad = append(bad, fmt.Sprintf("rank %d, %s, %s: the callback registered at %s ran, not the one at %s", v.rank, c.Event, what, levelName(c.Level), levelName(level)))
		}
		if c.Safety != ctx {
			bad = append(bad, fmt.Sprintf("rank %d, %s, %s: cb_safety is %s; the event is raised where %s is required (profile %s)", v.rank, c.Event, what, levelName(c.Safety), levelName(ctx), v.pr.ID))
		}
	}
	if len(bad) > 0 {
		*ev = append(*ev, jsonOf(got)+jsonOf(v.dropped[sub]))
	}
	return bad
}

// A callback registered only at ASYNC_SIGNAL_SAFE, the strictest level,
// which is valid in every context (MPI-5.0 §15.3.8.2, §15.3.8.4). The probe
// job records every instance of the probe action and every callback, so each
// rule judges its own records.
var asyncCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-SAFETY-002",
	Needs: "events",
	Title: "a callback registered only at MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE (valid in every context) is called for every instance, with cb_safety equal to the level required where it is called",
	Rules: []rulebook.Rule{
		// §15.3.8.2: "The level of MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE includes
		// all the limitations of MPI_T_CB_REQUIRE_THREAD_SAFE [...]"; §15.3.8.4:
		// "When an event is triggered, the implementation will select from all
		// registered callbacks the callback with the lowest safety level valid
		// in the context in which the callback is invoked. In situations where
		// the required callback safety level exceeds the highest level for
		// which a callback function is registered for a given registration
		// handle, the event instance is dropped."
		{ID: "CB-7", Source: "MPI-5.0 §15.3.8.2, §15.3.8.4", Basis: rulebook.Normative,
			Text:      "a callback registered alone at MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE meets every lower requirement and gets every instance (none is dropped)",
			Injectors: []string{"inject_events_cb_never"},
			Exposure:  cb7Exposure.Declared(), Judge: judgeAsyncCount},
		// §15.3.8.4: "The argument cb_safety describes the safety requirements
		// the callback function must fulfill in the current invocation."
		{ID: "CB-1a", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "a callback registered at MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE is invoked with cb_safety equal to the level required where the event is raised (the profile's)",
			Injectors: []string{"inject_events_cb_wrong_safety"},
			Exposure:  cb1aExposure.Declared(), Judge: judgeAsyncSafety},
	},
})

// cb7Exposure: every instance could have been dropped.
var cb7Exposure = rulebook.Exposure[raisedInstance]{Items: "instances"}

func judgeAsyncCount(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	var bad, ev []string
	var raised []raisedInstance // on the observing ranks
	for _, v := range probeViews(x, r) {
		raised = append(raised, v.raised(v.pr.Probe.K)...)
		got := v.cbs["s_async"]
		if len(got) != v.pr.Probe.K {
			bad = append(bad, fmt.Sprintf("rank %d: with a callback registered only at %s, %d of %d instances of %s reached it (dropped-handler calls: %d)", v.rank, levelName(levelAsyncSignalSafe), len(got), v.pr.Probe.K, v.pr.Probe.Events[0].Name, len(v.dropped["s_async"])))
			ev = append(ev, jsonOf(got)+jsonOf(v.dropped["s_async"]))
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	return cb7Exposure.Pass(raised, "raised at %s: the ASYNC_SIGNAL_SAFE callback got all %d instances", levelName(r.Profiles[0].Context), r.Profiles[0].Probe.K)
}

// cb1aExposure: every callback could have got another cb_safety.
var cb1aExposure = rulebook.Exposure[cbRec]{Items: "callbacks"}

func judgeAsyncSafety(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	var bad, ev []string
	var cbs []cbRec
	for _, v := range probeViews(x, r) {
		for _, c := range v.cbs["s_async"] {
			cbs = append(cbs, c)
			if c.Level != levelAsyncSignalSafe || c.Safety != v.pr.Context {
				bad = append(bad, fmt.Sprintf("rank %d, %s: the callback registered at %s got cb_safety %s; the event is raised where %s is required (profile %s)", v.rank, c.Event, levelName(c.Level), levelName(c.Safety), levelName(v.pr.Context), v.pr.ID))
				ev = append(ev, jsonOf([]cbRec{c}))
			}
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, "\n"), "%s", verdict.FirstAndMore(bad))
	}
	if len(cbs) == 0 {
		x.Unsupported("not measurable here: the callback registered only at %s never ran (CB-7)", levelName(levelAsyncSignalSafe))
	}
	return cb1aExposure.Pass(cbs, "%d ASYNC_SIGNAL_SAFE callbacks got cb_safety %s", len(cbs), levelName(r.Profiles[0].Context))
}

// probeSubs gives the probe phase's callbacks, dropped-handler calls and
// free callbacks of one observing rank, by sub-phase.
type probeView struct {
	pr      profile
	rank    int
	cbs     map[string][]cbRec
	dropped map[string][]droppedRec
	frees   []freecbRec
}

// raisedInstance is one instance of an event type raised on an observing
// rank.
type raisedInstance struct {
	rank  int
	event string
}

// raised is n instances of v's probe event raised on its rank.
func (v probeView) raised(n int) []raisedInstance {
	out := make([]raisedInstance, n)
	for i := range out {
		out[i] = raisedInstance{v.rank, v.pr.Probe.Events[0].Name}
	}
	return out
}

func probeViews(x *rulebook.X, r *eventsRun) []probeView {
	if errs := r.Probe.errors(); len(errs) > 0 {
		x.Failf(jsonOf(errs), "rank %d: %s failed with %d", errs[0].Rank, errs[0].What, errs[0].RC)
	}
	return probeRecords(x, r)
}

// probeRecords is probeViews without judging the failed calls the probe job
// recorded (for rules that judge those calls themselves, or not at all).
func probeRecords(x *rulebook.X, r *eventsRun) []probeView {
	var out []probeView
	phases := mpi.DecodeRanked[phaseRec](r.Probe.Recs, "phase")
	cbs := mpi.DecodeRanked[cbRec](r.Probe.Recs, "cb")
	drops := mpi.DecodeRanked[droppedRec](r.Probe.Recs, "dropped")
	frees := mpi.DecodeRanked[freecbRec](r.Probe.Recs, "freecb")
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
		x.Errorf(r.Probe.Evidence, "the probe job has no observing rank for the profile's probe event")
	}
	return out
}
