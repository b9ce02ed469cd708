package events

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Delivery (MPI-5.0 §15.3.8.4, §15.3.8.6): after K actions of a profile
// (profiles.go: the ground truth read from each producer's source) the
// callbacks of the events they raise are counted, their user_data compared
// and their elements read. The fixture (events_deliver.c) records every
// callback and every action, so each rule judges its own records.
var deliverCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-DELIVER",
	Needs: "events",
	Title: "after K actions of a profile the callback of each event they raise has run exactly K times, with the user data given at registration, MPI_T_event_read of each element gives what the action implies, and reading the instance inside the callback does not crash",
	Rules: []rulebook.Rule{
		// §15.3.8.4: "MPI_T_EVENT_REGISTER_CALLBACK associates a user-defined
		// function pointed to by event_cb_function with an allocated
		// event-registration handle." "When an event is triggered, the
		// implementation will select from all registered callbacks the
		// callback with the lowest safety level valid in the context": one
		// invocation per event instance that is not dropped.
		{ID: "CB-10", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "K actions that each raise an event invoke its registered callback exactly K times (and the events of the profile exist)",
			Injectors: []string{"inject_events_cb_never", "inject_events_cb_twice"},
			Exposure:  cb10Exposure.Declared(), Judge: deliverJudge("count")},
		// §15.3.8.4: "The argument user_data is the pointer to user-allocated
		// memory that was passed to the MPI implementation during callback
		// registration."
		{ID: "CB-8", Source: "MPI-5.0 §15.3.8.4", Basis: rulebook.Normative,
			Text:      "the callback receives the user_data given to MPI_T_event_register_callback",
			Injectors: []string{"inject_events_cb_wrong_user_data"},
			Exposure:  cb8Exposure.Declared(), Judge: deliverJudge("user")},
		// §15.3.8.6: "MPI_T_EVENT_READ allows users to copy one element of the
		// event data to a user-specified buffer at a time."; the element is laid out as
		// MPI_T_event_get_info declares (datatypes, displacements). What an
		// element means is the implementation's own declaration: only the
		// elements the producer's source pins to an action are compared
		// (profiles.go; element 1 of MPICH 4.0.2's receive-queue events is the
		// context id by 4.0.2's layout and is not compared).
		{ID: "CB-11", Source: "MPI-5.0 §15.3.8.6", Basis: rulebook.Normative,
			Text: "MPI_T_event_read in the callback succeeds and gives, for every element the producer pins to the action, the action's value",
			// A death inside MPI_T_event_read is this rule's fail (it does
			// not succeed); inside another call, the phase it cut short is
			// not judged (deliverJudge).
			Governs:   []string{"MPI_T_event_read"},
			Injectors: []string{"inject_events_read_corrupt"},
			Exposure:  cb11Exposure.Declared(), Judge: deliverJudge("elems")},
		// §15.3: "The MPI tool information interface can be used
		// independently from the MPI communication functionality. In
		// particular, the routines of this interface can be called before MPI
		// is initialized and after MPI is finalized." §15.3.8: "The MPI
		// implementation is said to raise an event when it invokes a callback
		// function previously registered by the user for the corresponding
		// event type.": a handle allocated and a callback registered before
		// MPI_Init get the events MPI_Init raises.
		{ID: "CB-14", Source: "MPI-5.0 §15.3, §15.3.8.4", Basis: rulebook.Normative,
			Text:      "event handles allocated and callbacks registered before MPI_Init (MPI_T initialized) succeed, and the events the profile says MPI_Init raises reach those callbacks",
			Injectors: []string{"inject_events_in_cb_refused"},
			Exposure:  cb14Exposure.Declared(), Judge: judgePreInit},
		// §15.3.8.4/§15.3.8.6: the event-instance handle passed to the callback
		// is valid for the duration of the callback, and MPI_T_event_read,
		// _copy, _get_timestamp and _get_source query it there. A crash while
		// querying a delivered instance breaks every one of them.
		{ID: "CB-X1", Source: "MPI-5.0 §15.3.8.6", Basis: rulebook.Normative,
			Text:      "querying a delivered event instance inside its callback (MPI_T_event_read, _copy, _get_timestamp, _get_source) returns: the process does not die there",
			Governs:   []string{"MPI_T_event_read", "MPI_T_event_copy", "MPI_T_event_get_timestamp", "MPI_T_event_get_source"},
			Injectors: []string{"inject_events_read_crash", "inject_events_read_element_crash"},
			Exposure:  cbX1Exposure.Declared(), Judge: judgeNoCrashInCallback},
	},
})

// deliverProblems is what judging the phases of the delivery job finds,
// sorted by rule: each kind of problem goes where its field points (the
// three point to one Problems for a judgement that takes them all).
type deliverProblems struct {
	count, user, elems *rulebook.Problems
	judged             []string // "action xK" of phases judged
	// What was judged: the callback counts compared, the callbacks whose
	// user_data was checked, the pinned elements compared.
	counts    []callbackCount
	callbacks []cbRec
	pinned    []pinnedElement
}

// callbackCount is the callbacks of one event type counted in a phase on
// an observing rank.
type callbackCount struct {
	rank  int
	event string
	got   int
}

// pinnedElement is a pinned element read in a callback, with the value
// the action implies for it.
type pinnedElement struct{ want uint64 }

// The exposures of deliverJudge's rules: every count could have been off,
// every callback's user_data wrong; a pinned element could show a wrong
// value only where the action implies one other than 0, the value of the
// fixture's zeroed read buffer (an element the library never wrote reads
// 0).
var (
	cb10Exposure = rulebook.Exposure[callbackCount]{Items: "callback counts (an event type of a phase on an observing rank)"}
	cb8Exposure  = rulebook.Exposure[cbRec]{Items: "callbacks"}
	cb11Exposure = rulebook.Exposure[pinnedElement]{Items: "pinned elements read",
		When:  "when the action implies a value other than 0 (the fixture reads into a zeroed buffer: an element the library never wrote reads 0)",
		Could: func(e pinnedElement) bool { return e.want != 0 }}
)

func deliverRecs(x *rulebook.X) (*eventsRun, deliverProblems) {
	r := needEvents(x)
	d := r.Deliver
	if d.Recs == nil {
		x.Errorf(d.Evidence, "%s", d.RecErr.Error())
	}
	cbs := mpi.DecodeRanked[cbRec](d.Recs, "cb")
	facts := mpi.DecodeRanked[factRec](d.Recs, "fact")
	phases := mpi.DecodeRanked[phaseRec](d.Recs, "phase")
	all := deliverProblems{count: &rulebook.Problems{}, user: &rulebook.Problems{}, elems: &rulebook.Problems{}}
	for _, pr := range r.Profiles {
		for _, ph := range pr.Phases {
			if phaseProblems(x, ph, "deliver", phases, cbs, facts, d, &all) > 0 {
				all.judged = append(all.judged, fmt.Sprintf("%s x%d", ph.Action, ph.K))
			}
		}
	}
	return r, all
}

// deliverJudge judges one kind of problem ("count", "user" or "elems").
func deliverJudge(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		r, p := deliverRecs(x)
		d := r.Deliver
		if errs := d.errors(); len(errs) > 0 && kind == "count" {
			x.Failf(jsonOf(errs), "rank %d: %s failed with %d", errs[0].Rank, errs[0].What, errs[0].RC)
		}
		map[string]*rulebook.Problems{"count": p.count, "user": p.user, "elems": p.elems}[kind].FailOn(x)
		// No pass counts a phase the job's death cut short: a death inside
		// a call the rule governs fails it, one elsewhere leaves it not
		// judged, naming the call (or an error where no call is named).
		d.mustBeWhole(x)
		if len(p.judged) == 0 {
			x.Unsupported("not measurable here: no phase of profile %s was observed", profileIDs(r.Profiles))
		}
		what := map[string]string{"count": "each raised exactly their events", "user": "every callback got its user_data", "elems": "every pinned element read as the action implies"}[kind]
		reason := fmt.Sprintf("profile %s: %s: %s", profileIDs(r.Profiles), strings.Join(p.judged, ", "), what)
		switch kind {
		case "count":
			return cb10Exposure.Pass(p.counts, "%s", reason)
		case "user":
			return cb8Exposure.Pass(p.callbacks, "%s", reason)
		}
		return cb11Exposure.Pass(p.pinned, "%s", reason)
	}
}

// cbX1Exposure: every callback queried its instance, and could have died
// there.
var cbX1Exposure = rulebook.Exposure[cbRec]{Items: "callbacks"}

func judgeNoCrashInCallback(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	var cbs []cbRec
	for _, j := range []*jobOut{r.Deliver, r.Probe} {
		cbs = append(cbs, mpi.DecodeRanked[cbRec](j.Recs, "cb")...)
	}
	// A death inside a query of the instance (announced in the callback)
	// is CB-X1's fail, inside another call not judged (needEvents placed
	// the probe job's already). Records that announce no call (a fixture
	// built before it did) place a death in a callback by its last record.
	for _, j := range []*jobOut{r.Deliver, r.Probe} {
		if c := crashInCallback(j); c != "" {
			x.Failf(j.Evidence, "%s", c)
		}
	}
	r.Deliver.mustBeWhole(x)
	if len(cbs) == 0 {
		x.Unsupported("not measurable here: no callback ran")
	}
	return cbX1Exposure.Pass(cbs, "%d callbacks queried their instance and returned", len(cbs))
}

func profileIDs(ps []profile) string {
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return strings.Join(ids, "+")
}

// checkPhase fails x on any problem of one phase (for the bound-handle
// judgement of EVENTS-HANDLE-001); it returns how many ranks it judged.
func checkPhase(x *rulebook.X, ph phase, sub string, phases []phaseRec, cbs []cbRec, facts []factRec, j *jobOut) int {
	var bad rulebook.Problems
	n := phaseProblems(x, ph, sub, phases, cbs, facts, j, &deliverProblems{count: &bad, user: &bad, elems: &bad})
	bad.FailOn(x)
	return n
}

// phaseProblems compares the callbacks of one phase's sub with its facts on
// every observing rank, recording every problem and what it judged in out;
// it returns how many ranks it judged (0: the phase was not reached, which
// a crash explains).
func phaseProblems(x *rulebook.X, ph phase, sub string, phases []phaseRec, cbs []cbRec, facts []factRec, j *jobOut, out *deliverProblems) int {
	judged := 0
	for _, p := range phases {
		if p.Action != ph.Action || strings.Join(p.Events, ",") != strings.Join(ph.events(), ",") || p.Mode != "deliver" {
			continue
		}
		if !p.Present {
			out.count.Add(jsonOf([]phaseRec{p}), "rank %d: an event of %s is missing although the profile was selected by these names", p.Rank, ph.Action)
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
			x.Errorf(jsonOf(fs), "rank %d: %s recorded %d of %d actions", p.Rank, ph.Action, len(fs), ph.K)
		}
		for _, et := range ph.Events {
			var got []cbRec
			for _, c := range cbs {
				if c.Rank == p.Rank && c.Phase == p.Phase && c.Sub == sub && c.Event == et.Name {
					got = append(got, c)
				}
			}
			ev := jsonOf(got)
			out.callbacks = append(out.callbacks, got...)
			for i, c := range got {
				if !c.UserOK {
					out.user.Add(jsonOf([]cbRec{c}), "rank %d: callback %d of %s got a user_data that is not the pointer given at registration", p.Rank, i, et.Name)
				}
				if i < len(fs) {
					out.pinned = append(out.pinned, compareElements(x, p.Rank, et, i, c, fs[i], cbs, out.elems)...)
				}
			}
			if len(got) != ph.K {
				if j.Problem != "" && len(got) < ph.K {
					continue // cut short by the crash (CB-X1)
				}
				out.count.Add(ev, "rank %d: %d x %s raised %s %d times, not %d", p.Rank, ph.K, ph.Action, et.Name, len(got), ph.K)
			}
			out.counts = append(out.counts, callbackCount{p.Rank, et.Name, len(got)})
		}
		judged++
	}
	return judged
}

// compareElements checks callback n's elements against action n's facts,
// noting each problem in bad; it returns the pinned elements it compared.
func compareElements(x *rulebook.X, rank int, et eventTruth, n int, c cbRec, f factRec, all []cbRec, bad *rulebook.Problems) (compared []pinnedElement) {
	for e, name := range et.Elems {
		if name == "" {
			continue
		}
		if e >= len(c.Elems) {
			bad.Add(jsonOf([]cbRec{c}), "rank %d: %s has %d elements, the profile expects element %d (%s)", rank, et.Name, len(c.Elems), e, name)
			continue
		}
		if c.ReadRCs[e] != 0 {
			bad.Add(jsonOf([]cbRec{c}), "rank %d: MPI_T_event_read(%s, element %d) returned %d in the callback", rank, et.Name, e, c.ReadRCs[e])
			continue
		}
		want, src := expectedValue(x, name, f, rank, all)
		got, _ := hexValue(c.Elems[e])
		compared = append(compared, pinnedElement{want})
		if want != got {
			bad.Add(fmt.Sprintf("callback:\n%sfacts of action %d: %v", jsonOf([]cbRec{c}), n, f.Facts),
				"rank %d: element %d of %s in callback %d is 0x%x, but %s is 0x%x", rank, e, et.Name, n, got, src, want)
		}
	}
	return compared
}

func expectedValue(x *rulebook.X, name string, f factRec, rank int, all []cbRec) (uint64, string) {
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
		x.Errorf("", "the fixture recorded no fact %q: %v", name, f.Facts)
	}
	return v, "the action's " + name
}

// crashInCallback says where a job that crashed died when its records
// announce no library call and its last record on a rank is a "cbin" with
// no "cb" after it (it died inside an event callback, whose only library
// calls are the queries of its instance), or "" otherwise.
func crashInCallback(j *jobOut) string {
	if j.Problem == "" || j.Recs == nil || len(j.Recs.Kind("calling", -1)) > 0 {
		return ""
	}
	last := map[int]mpi.Record{}
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

// cb14Exposure: every count of an event MPI_Init raises could have been
// off.
var cb14Exposure = rulebook.Exposure[callbackCount]{Items: "callback counts (an event type MPI_Init raises, on an observing rank)"}

// judgePreInit judges the delivery job's mpi_init phases: handles allocated
// and callbacks registered before MPI_Init, the events raised inside it.
func judgePreInit(x *rulebook.X) verdict.Verdict {
	r := needEvents(x)
	d := r.Deliver
	if d.Recs == nil {
		x.Errorf(d.Evidence, "%s", d.RecErr.Error())
	}
	phases := mpi.DecodeRanked[phaseRec](d.Recs, "phase")
	cbs := mpi.DecodeRanked[cbRec](d.Recs, "cb")
	var bad, ev, judged []string
	var counts []callbackCount // an event type MPI_Init raises, on an observing rank
	for _, pr := range r.Profiles {
		for _, ph := range pr.Phases {
			if ph.Action != "mpi_init" {
				continue
			}
			for _, p := range phases {
				if p.Action != "mpi_init" || p.Mode != "deliver" || !p.Observer || !p.Present {
					continue
				}
				for _, e := range d.errors() {
					if e.Rank == p.Rank && e.Phase == p.Phase {
						bad = append(bad, fmt.Sprintf("rank %d: before MPI_Init, %s returned %d", e.Rank, e.What, e.RC))
						ev = append(ev, jsonOf([]errorRec{e}))
					}
				}
				for _, et := range ph.Events {
					n := 0
					for _, c := range cbs {
						if c.Rank == p.Rank && c.Phase == p.Phase && c.Event == et.Name {
							n++
						}
					}
					if n != ph.K {
						bad = append(bad, fmt.Sprintf("rank %d: with a callback registered before MPI_Init, MPI_Init raised %s %d times, not %d", p.Rank, et.Name, n, ph.K))
					}
					counts = append(counts, callbackCount{p.Rank, et.Name, n})
					judged = append(judged, fmt.Sprintf("rank %d: %s x%d", p.Rank, et.Name, n))
				}
			}
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, "")+jsonOf(cbs), "%s", verdict.FirstAndMore(bad))
	}
	if len(judged) == 0 {
		pre := mpi.DecodeRanked[preinitRec](d.Recs, "preinit")
		num := "no record"
		if len(pre) > 0 {
			num = fmt.Sprintf("MPI_T_event_get_num gives %d before MPI_Init (rc %d)", pre[0].Num, pre[0].NumRC)
		}
		x.Unsupported("not measurable here: profile %s names no event raised inside MPI_Init (%s)", profileIDs(r.Profiles), num)
	}
	return cb14Exposure.Pass(counts, "registered before MPI_Init: %s", strings.Join(judged, ", "))
}
