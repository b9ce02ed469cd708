package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.8 ("Events": an event is raised by invoking the callback
// registered for its type, with the user_data given to
// MPI_T_event_register_callback; MPI_T_event_read copies one element of the
// instance's data, laid out as MPI_T_event_get_info describes). The ground
// truth of what each action raises and carries is the profile (profiles.go).
var deliverCheck = harness.Define(harness.Check{
	ID:        "EVENTS-DELIVER-001",
	Clause:    "MPI-4.1:16.3.8",
	Needs:     "events",
	Title:     "after K actions of a profile the callback of each event they raise has run exactly K times, with the user data given at registration, and MPI_T_event_read of each element gives what the action implies",
	Injectors: []string{"inject_events_cb_never", "inject_events_cb_twice", "inject_events_cb_wrong_user_data", "inject_events_read_corrupt"},
	Run:       runDeliver,
})

func runDeliver(x *harness.X) harness.Verdict {
	r := needEvents(x)
	d := r.Deliver
	if d.Recs == nil {
		panic(harness.Verdict{Status: harness.Error, Reason: d.RecErr.Error(), Evidence: d.Evidence})
	}
	cbs := decode[cbRec](d, "cb")
	facts := decode[factRec](d, "fact")
	phases := decode[phaseRec](d, "phase")
	if errs := d.errors(); len(errs) > 0 {
		x.Failf(jsonOf(errs), "rank %d: %s failed with %d", errs[0].Rank, errs[0].What, errs[0].RC)
	}
	var checked []string
	for _, pr := range r.Profiles {
		for _, ph := range pr.Phases {
			n := checkPhase(x, ph, "deliver", phases, cbs, facts, d)
			if n > 0 {
				checked = append(checked, fmt.Sprintf("%s x%d", ph.Action, ph.K))
			}
		}
	}
	if c := crashInCallback(d); c != "" {
		x.Failf(d.Evidence, "%s", c)
	}
	d.mustBeWhole()
	return harness.Verdict{Reason: fmt.Sprintf("profile %s: %s each raised exactly their events, elements as the actions imply", profileIDs(r.Profiles), strings.Join(checked, ", "))}
}

func profileIDs(ps []profile) string {
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return strings.Join(ids, "+")
}

// checkPhase compares the callbacks of one phase's sub with its facts on
// every observing rank; it returns how many ranks it judged (0: the phase
// was not reached, which a crash explains).
func checkPhase(x *harness.X, ph phase, sub string, phases []phaseRec, cbs []cbRec, facts []factRec, j *jobOut) int {
	judged := 0
	for _, p := range phases {
		if p.Action != ph.Action || strings.Join(p.Events, ",") != strings.Join(ph.events(), ",") || p.Mode != "deliver" {
			continue
		}
		if !p.Present {
			x.Failf(jsonOf([]phaseRec{p}), "rank %d: an event of %s is missing although the profile was selected by these names", p.Rank, ph.Action)
		}
		if !p.Observer {
			continue
		}
		var fs []factRec
		for _, f := range facts {
			if f.Rank == p.Rank && f.Phase == p.Phase && f.Sub == sub {
				fs = append(fs, f)
			}
		}
		if len(fs) < ph.K {
			if j.Problem != "" {
				continue // the job ended before this phase did
			}
			panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("rank %d: %s recorded %d of %d actions", p.Rank, ph.Action, len(fs), ph.K), Evidence: jsonOf(fs)})
		}
		for _, et := range ph.Events {
			var got []cbRec
			for _, c := range cbs {
				if c.Rank == p.Rank && c.Phase == p.Phase && c.Sub == sub && c.Event == et.Name {
					got = append(got, c)
				}
			}
			for i, c := range got {
				if !c.UserOK {
					x.Failf(jsonOf(got), "rank %d: callback %d of %s got a user_data that is not the pointer given at registration", p.Rank, i, et.Name)
				}
				if i < len(fs) {
					compareElements(x, p.Rank, et, i, c, fs[i], cbs)
				}
			}
			if len(got) != ph.K {
				if j.Problem != "" && len(got) < ph.K {
					continue // cut short by the crash, judged below
				}
				x.Failf(jsonOf(got), "rank %d: %d x %s raised %s %d times, not %d", p.Rank, ph.K, ph.Action, et.Name, len(got), ph.K)
			}
		}
		judged++
	}
	return judged
}

// compareElements checks callback n's elements against action n's facts.
func compareElements(x *harness.X, rank int, et eventTruth, n int, c cbRec, f factRec, all []cbRec) {
	for e, name := range et.Elems {
		if name == "" {
			continue
		}
		if e >= len(c.Elems) {
			x.Failf(jsonOf([]cbRec{c}), "rank %d: %s has %d elements, the profile expects element %d (%s)", rank, et.Name, len(c.Elems), e, name)
		}
		if c.ReadRCs[e] != 0 {
			x.Failf(jsonOf([]cbRec{c}), "rank %d: MPI_T_event_read(%s, element %d) returned %d in the callback", rank, et.Name, e, c.ReadRCs[e])
		}
		want, src := expectedValue(name, f, rank, all)
		got, _ := hexValue(c.Elems[e])
		if want != got {
			x.Failf(fmt.Sprintf("callback:\n%sfacts of action %d: %v", jsonOf([]cbRec{c}), n, f.Facts),
				"rank %d: element %d of %s in callback %d is 0x%x, but %s is 0x%x", rank, e, et.Name, n, got, src, want)
		}
	}
}

func expectedValue(name string, f factRec, rank int, all []cbRec) (uint64, string) {
	if rest, ok := strings.CutPrefix(name, "event:"); ok {
		i := strings.LastIndex(rest, ":")
		var e int
		fmt.Sscanf(rest[i+1:], "%d", &e)
		for _, c := range all {
			if c.Rank == rank && c.Event == rest[:i] && e < len(c.Elems) {
				v, _ := hexValue(c.Elems[e])
				return v, fmt.Sprintf("element %d of %s", e, rest[:i])
			}
		}
		return 0, "(no " + rest[:i] + " callback)"
	}
	v, ok := hexValue(f.Facts[name])
	if !ok {
		panic(harness.Verdict{Status: harness.Error, Reason: fmt.Sprintf("the fixture recorded no fact %q: %v", name, f.Facts)})
	}
	return v, "the action's " + name
}

// crashInCallback says where a job that crashed died when it died inside an
// event callback (its last record on a rank is a "cbin" with no "cb" after
// it), or "" when it did not crash there.
func crashInCallback(j *jobOut) string {
	if j.Problem == "" || j.Recs == nil {
		return ""
	}
	last := map[int]harness.Record{}
	for _, r := range j.Recs.All {
		last[r.Rank] = r
	}
	for rank, r := range last {
		if r.Kind != "cbin" {
			continue
		}
		var in struct {
			Event string `json:"event"`
			Sub   string `json:"sub"`
		}
		r.Decode(&in)
		return fmt.Sprintf("rank %d died inside the callback of %s (%s) while querying the event instance (MPI_T_event_read/_copy/_get_timestamp/_get_source): %s", rank, in.Event, in.Sub, j.Problem)
	}
	return ""
}
