package events

import (
	"fmt"

	"github.com/mpits/mpits/harness"
)

// Seed 002 ("State of discussion": the callback information must identify
// unambiguously the thread and process it belongs to, and carry the tool's
// storage pointer given at registration), made normative in MPI-4.1
// §16.3.8: a callback gets its registration handle, the user_data given at
// registration, and cb_safety, the level required where it is called,
// which must not exceed the level it was registered for (Table 16.5).
var seedCheck = harness.Define(harness.Check{
	ID:        "EVENTS-SEED-001",
	Clause:    "seed:002",
	Needs:     "events",
	Title:     "every callback identifies its registration (the allocated handle and the user data given at registration) and runs in the registering process, and none is called where a higher safety level is required than it was registered for",
	Injectors: []string{"inject_events_cb_wrong_user_data", "inject_events_cb_wrong_safety"},
	Run:       runSeed,
})

func runSeed(x *harness.X) harness.Verdict {
	r := needEvents(x)
	n := 0
	tids := map[[2]int]bool{}
	for _, j := range []*jobOut{r.Probe, r.Deliver} {
		for _, c := range decode[cbRec](j, "cb") {
			ev := jsonOf([]cbRec{c})
			switch {
			case !c.UserOK:
				x.Failf(ev, "rank %d: a callback of %s got a user_data that is not the pointer given at registration: the tool cannot tell which registration it is", c.Rank, c.Event)
			case !c.HandleOK:
				x.Failf(ev, "rank %d: a callback of %s got another registration handle than MPI_T_event_handle_alloc gave", c.Rank, c.Event)
			case !c.PidOK:
				x.Failf(ev, "rank %d: a callback of %s ran in another process than the one that registered it", c.Rank, c.Event)
			case c.Safety < 0:
				x.Failf(ev, "rank %d: a callback of %s got a cb_safety that is no safety level", c.Rank, c.Event)
			case c.Safety > c.Level:
				x.Failf(ev, "rank %d: a callback of %s registered at %s was called with cb_safety %s: where a higher level is required than it supports", c.Rank, c.Event, levelName(c.Level), levelName(c.Safety))
			}
			tids[[2]int{c.Rank, c.Tid}] = true
			n++
		}
		for _, d := range decode[droppedRec](j, "dropped") {
			if !d.HandleOK {
				x.Failf(jsonOf([]droppedRec{d}), "rank %d: a dropped handler got another registration handle than MPI_T_event_handle_alloc gave", d.Rank)
			}
		}
	}
	return harness.Verdict{Reason: fmt.Sprintf("%d callbacks on %d thread(s) identified their registration and process, none above its level", n, len(tids))}
}
