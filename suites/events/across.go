package events

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Event types across the ranks of one job (MPI-5.0 §15.3.8.3): the probe
// job (fixtures/c/events/events_deliver.c, event_signature) records on every
// rank, after MPI_Init, what each event type must keep identical.
var acrossCheck = rulebook.Define(rulebook.Check{
	ID:    "EVENTS-META-003",
	Needs: "events",
	Title: "event types of the same name on the ranks of one job have the same verbosity, datatypes, number of elements, enumeration and binding",
	Rules: []rulebook.Rule{
		// §15.3.8.3: "If an event type has an equivalent name across connected
		// MPI processes, the following OUT parameters must be identical:
		// verbosity, array_of_datatypes, num_elements, enumtype, and bind."
		// (enumtype compared by what it stands for: its name and items;
		// handles are local.)
		{ID: "META-18", Source: "MPI-5.0 §15.3.8.3", Basis: rulebook.Normative,
			Text:      "event types of the same name on two ranks of one job have the same verbosity, datatypes, number of elements, enumeration (name and items) and binding",
			Injectors: []string{"inject_events_meta_rank_differs"},
			Exposure:  meta18Exposure.Declared(), Judge: judgeEventTypesAcrossRanks},
	},
})

// meta18Exposure: every event type answering on two ranks could have
// differed between them.
var meta18Exposure = rulebook.Exposure[eventTypeName]{Items: "event types answering on both ranks"}

// eventTypeName is an event type, by the name that makes it one across
// processes.
type eventTypeName string

// judgeEventTypesAcrossRanks judges that an event type of one name has the
// same signature (evsig records) on every rank of the probe job.
func judgeEventTypesAcrossRanks(x *rulebook.X) verdict.Verdict {
	if x.Caps.AfterInit.Events == 0 {
		x.Unsupported("not measurable here: MPI_T_event_get_num gives 0 after MPI_Init: no events")
	}
	j := sharedJob(x, "events_deliver", 2, probeArgs())
	j.mustBeWhole(x)
	byName := map[string]map[int]evsigRec{}
	for _, s := range mpi.DecodeRanked[evsigRec](j.Recs, "evsig") {
		if s.RC != 0 || s.Name == "" {
			continue // a failing get_info is EVT-1's
		}
		if byName[s.Name] == nil {
			byName[s.Name] = map[int]evsigRec{}
		}
		byName[s.Name][s.Rank] = s
	}
	var names []string
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	var bad, ev []string
	var compared []eventTypeName
	for _, name := range names {
		ranks := byName[name]
		if len(ranks) < 2 {
			continue
		}
		compared = append(compared, eventTypeName(name))
		var first evsigRec
		for _, s := range ranks {
			if s.Rank == 0 {
				first = s
			}
		}
		for rank, s := range ranks {
			if rank == 0 {
				continue
			}
			for _, f := range []struct{ what, a, b string }{
				{"verbosity", first.Verbosity, s.Verbosity},
				{"datatypes", first.Types, s.Types},
				{"num_elements", fmt.Sprint(first.Num), fmt.Sprint(s.Num)},
				{"enumtype", first.Enum, s.Enum},
				{"bind", first.Bind, s.Bind},
			} {
				if f.a != f.b {
					bad = append(bad, fmt.Sprintf("event type %q: %s is %q on rank 0, %q on rank %d", name, f.what, f.a, f.b, rank))
					ev = append(ev, jsonOf([]evsigRec{first, s}))
				}
			}
		}
	}
	if len(bad) > 0 {
		x.Failf(strings.Join(ev, ""), "%s", verdict.FirstAndMore(bad))
	}
	if len(compared) == 0 {
		x.Unsupported("not measurable here: no event type answered MPI_T_event_get_info on two ranks (%d names)", len(names))
	}
	return meta18Exposure.Pass(compared, "%d event types have the same verbosity, datatypes, num_elements, enumeration and binding on both ranks", len(compared))
}
