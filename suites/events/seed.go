package events

import (
	"fmt"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Seed 002 (the MPI_T events callback requirements, "State of discussion"),
// judged on every callback and dropped-handler call the probe and delivery
// jobs recorded; each rule judges its own field of every record.
var seedCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-SEED",
	Needs: "events",
	Title: "every callback identifies its registration (the allocated handle and the user data given at registration) and runs in the registering process, and none is called where a higher safety level is required than it was registered for",
	Rules: []rulebook.Rule{
		// Seed 002: "The callback information should contain pointer (void*)
		// to tool-specific storage that was provided to MPI by the tool during
		// event registration."
		{ID: "SEED2-1", Source: "seed 002", Basis: rulebook.SeedBasis,
			Text:      "every callback gets the user_data pointer the tool gave at registration",
			Injectors: []string{"inject_events_cb_wrong_user_data"},
			Exposure:  seed21Exposure.Declared(), Judge: seedJudge("user")},
		// §15.3.8.4: "The argument event_registration corresponds to the
		// event-registration handle returned by MPI_T_EVENT_HANDLE_ALLOC for
		// the user function to the same event type and bound object
		// combination." (Seed 002 asks the same: "Callback info must enable
		// unambiguous identification".)
		{ID: "CB-9", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "every callback gets as event_registration the handle MPI_T_event_handle_alloc gave for its event type",
			Injectors: []string{"inject_events_cb_wrong_identity"},
			Exposure:  cb9Exposure.Declared(), Judge: seedJudge("handle")},
		// §15.3.8.5: "The argument event_registration corresponds to the
		// event registration handle to which the dropped data corresponds."
		{ID: "DROP-3", Source: "MPI-5.0 §15.3.8.5", Basis: rulebook.Normative,
			Text:      "every dropped handler gets as event_registration the handle whose events were dropped",
			Injectors: []string{"inject_events_cb_wrong_identity"},
			Exposure:  drop3Exposure.Declared(), Judge: seedJudge("dropped")},
		// Seed 002: the same sentence: the callback runs in the process that
		// registered it.
		{ID: "SEED2-3", Source: "seed 002", Basis: rulebook.SeedBasis,
			Text:      "every callback runs in the process that registered it",
			Injectors: []string{"inject_events_cb_other_process"},
			Exposure:  seed23Exposure.Declared(), Judge: seedJudge("pid")},
		// §15.3.8.2/§15.3.8.4: cb_safety given at registration is the highest
		// level the callback supports; it is never invoked where a higher one
		// is required, and its cb_safety argument is one of the levels.
		{ID: "CB-6", Source: "MPI-5.0 §15.3.8.2, §15.3.8.4", Basis: rulebook.Normative,
			Text:      "a callback is never invoked with a cb_safety that is no safety level or higher than the level it was registered for",
			Injectors: []string{"inject_events_cb_wrong_safety"},
			Exposure:  cb6Exposure.Declared(), Judge: seedJudge("level")},
	},
})

// The exposures of seedJudge's rules: every callback could have got
// another user_data or handle, run in another process or at a wrong
// level; every dropped-handler call could have got another handle.
var (
	seed21Exposure = rulebook.Exposure[cbRec]{Items: "callbacks"}
	cb9Exposure    = rulebook.Exposure[cbRec]{Items: "callbacks"}
	drop3Exposure  = rulebook.Exposure[droppedRec]{Items: "dropped-handler calls"}
	seed23Exposure = rulebook.Exposure[cbRec]{Items: "callbacks"}
	cb6Exposure    = rulebook.Exposure[cbRec]{Items: "callbacks"}
)

// seedJudge judges one field of every callback record.
func seedJudge(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r := needEvents(x)
		var cbs []cbRec
		var dropped []droppedRec
		tids := map[[2]int]bool{}
		var bad, ev []string
		for _, j := range []*jobOut{r.Probe, r.Deliver} {
			for _, c := range mpi.DecodeRanked[cbRec](j.Recs, "cb") {
				add := func(format string, args ...any) {
					bad = append(bad, fmt.Sprintf(format, args...))
					ev = append(ev, jsonOf([]cbRec{c}))
				}
				switch {
				case kind == "user" && !c.UserOK:
					add("rank %d: a callback of %s got a user_data that is not the pointer given at registration: the tool cannot tell which registration it is", c.Rank, c.Event)
				case kind == "dropped":
				case kind == "handle" && !c.HandleOK:
					add("rank %d: a callback of %s got another registration handle than MPI_T_event_handle_alloc gave", c.Rank, c.Event)
				case kind == "pid" && !c.PidOK:
					add("rank %d: a callback of %s ran in another process than the one that registered it", c.Rank, c.Event)
				case kind == "level" && c.Safety < 0:
					add("rank %d: a callback of %s got a cb_safety that is no safety level", c.Rank, c.Event)
				case kind == "level" && c.Safety > c.Level:
					add("rank %d: a callback of %s registered at %s was called with cb_safety %s: where a higher level is required than it supports", c.Rank, c.Event, levelName(c.Level), levelName(c.Safety))
				}
				tids[[2]int{c.Rank, c.Tid}] = true
				cbs = append(cbs, c)
			}
			if kind == "dropped" {
				for _, d := range mpi.DecodeRanked[droppedRec](j.Recs, "dropped") {
					dropped = append(dropped, d)
					if !d.HandleOK {
						bad = append(bad, fmt.Sprintf("rank %d: a dropped handler got another registration handle than MPI_T_event_handle_alloc gave", d.Rank))
						ev = append(ev, jsonOf([]droppedRec{d}))
					}
				}
			}
		}
		if len(bad) > 0 {
			x.Failf(jsonOf(ev), "%s", verdict.FirstAndMore(bad))
		}
		if kind == "dropped" {
			if len(dropped) == 0 {
				x.Unsupported("not measurable here: no dropped handler ran")
			}
			return drop3Exposure.Pass(dropped, "%d dropped-handler calls got the registration handle whose events were dropped", len(dropped))
		}
		if len(cbs) == 0 {
			x.Unsupported("not measurable here: no callback ran")
		}
		what := map[string]string{"user": "got their user_data", "handle": "got their registration handle", "pid": "ran in the registering process", "level": "ran with a cb_safety at or below their level"}[kind]
		exp := map[string]rulebook.Exposure[cbRec]{"user": seed21Exposure, "handle": cb9Exposure, "pid": seed23Exposure, "level": cb6Exposure}[kind]
		return exp.Pass(cbs, "%d callbacks on %d thread(s) %s", len(cbs), len(tids), what)
	}
}
