package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.6-16.3.9: each *_get_index "returns MPI_SUCCESS on success
// and returns MPI_T_ERR_INVALID_NAME if name does not match the name of any
// [variable / category / event type] provided by the implementation";
// control variable, category, event type and enumeration names "must be
// unique", performance variables by name and class, enumeration items within
// their enumeration. Out-of-range indices: MPI_T_event_get_info "returns
// MPI_T_ERR_INVALID_INDEX if event_index does not match a valid event type
// index"; for the other get_info calls §16.3.10 lets an implementation skip
// the check ("if a user passes invalid parameter values ... the behavior ...
// is undefined"), so there only a wrong error code fails (a check that is made
// must answer MPI_T_ERR_INVALID_INDEX, "the variable or category index is
// invalid"); an unchecked index or a crash is reported, not failed.
var namesCheck = harness.Define(harness.Check{
	ID:        "MPIT-NAMES-001",
	Clause:    "MPI-4.1:16.3.6",
	Needs:     "mpit",
	Title:     "*_get_index round-trips every control and performance variable (by name and class), category and event type; unknown names give MPI_T_ERR_INVALID_NAME; out-of-range indices give MPI_T_ERR_INVALID_INDEX; names are unique where the standard says so",
	Injectors: []string{"inject_mpit_unknown_name"},
	Run:       runNames,
})

type badNameRec struct {
	Function string `json:"function"`
	RC       string `json:"rc"`
}

type badIndexRec struct {
	Function string `json:"function"`
	Index    int    `json:"index"`
	RC       string `json:"rc"`
}

type badIndexCrash struct {
	Function string `json:"function"`
	Index    int    `json:"index"`
	Signal   int    `json:"signal"`
}

func runNames(x *harness.X) harness.Verdict {
	w := walk(x)
	var p problems
	var refused []string
	roundTrip := func(kind string, index int, rc, name, xrc string, got int) {
		if rc != "MPI_SUCCESS" {
			refused = append(refused, fmt.Sprintf("%s %d (%s)", kind, index, rc))
			return
		}
		if xrc != "MPI_SUCCESS" || got != index {
			p.add("%s %d %q: get_index gave %s, index %d", kind, index, name, xrc, got)
		}
	}
	cvarNames := map[string][]int{}
	for _, c := range w.cvars {
		roundTrip("control variable", c.Index, c.RC, c.Name, c.GetIndexRC, c.GetIndex)
		if c.RC == "MPI_SUCCESS" {
			cvarNames[c.Name] = append(cvarNames[c.Name], c.Index)
		}
	}
	pvarNames := map[string][]int{}
	for _, v := range w.pvars {
		roundTrip("performance variable", v.Index, v.RC, v.Name+" ("+v.Class+")", v.GetIndexRC, v.GetIndex)
		if v.RC == "MPI_SUCCESS" {
			pvarNames[v.Name+" class "+v.Class] = append(pvarNames[v.Name+" class "+v.Class], v.Index)
		}
	}
	catNames := map[string][]int{}
	for _, c := range w.categories {
		roundTrip("category", c.Index, c.RC, c.Name, c.GetIndexRC, c.GetIndex)
		if c.RC == "MPI_SUCCESS" {
			catNames[c.Name] = append(catNames[c.Name], c.Index)
		}
	}
	eventNames := map[string][]int{}
	for _, e := range w.events {
		roundTrip("event type", e.Index, e.RC, e.Name, e.GetIndexRC, e.GetIndex)
		if e.RC == "MPI_SUCCESS" {
			eventNames[e.Name] = append(eventNames[e.Name], e.Index)
		}
	}
	enumNames := map[string][]int{}
	for _, e := range w.enums {
		if e.RC != "MPI_SUCCESS" {
			continue
		}
		enumNames[e.Name] = append(enumNames[e.Name], e.ID)
		items := map[string][]int{}
		for k, it := range e.Items {
			if it.RC == "MPI_SUCCESS" {
				items[it.Name] = append(items[it.Name], k)
			}
		}
		dup(&p, "item of enumeration "+e.Name, items)
	}
	dup(&p, "control variable", cvarNames)
	dup(&p, "performance variable", pvarNames)
	dup(&p, "category", catNames)
	dup(&p, "event type", eventNames)
	dup(&p, "enumeration", enumNames)

	for _, b := range decode[badNameRec](w.recs, "badname") {
		if b.RC != "MPI_T_ERR_INVALID_NAME" {
			p.add("%s with an unknown name returned %s, not MPI_T_ERR_INVALID_NAME", b.Function, b.RC)
		}
	}
	var unchecked []string
	for _, b := range decode[badIndexRec](w.recs, "badindex") {
		switch {
		case b.RC == "MPI_T_ERR_INVALID_INDEX":
		case strings.HasPrefix(b.Function, "MPI_T_enum_get_item") && b.RC == "MPI_T_ERR_INVALID_ITEM":
		case b.Function == "MPI_T_event_get_info":
			p.add("%s(%d), out of range, returned %s, not MPI_T_ERR_INVALID_INDEX", b.Function, b.Index, b.RC)
		case b.RC == "MPI_SUCCESS":
			unchecked = append(unchecked, fmt.Sprintf("%s(%d) unchecked", b.Function, b.Index))
		default:
			p.add("%s(%d), out of range, returned %s, not MPI_T_ERR_INVALID_INDEX", b.Function, b.Index, b.RC)
		}
	}
	for _, c := range decode[badIndexCrash](w.recs, "badindex_crash") {
		what := fmt.Sprintf("%s(%d)", c.Function, c.Index)
		if c.Function == "MPI_T_event_get_info" {
			p.add("%s, out of range, killed the process (%s) instead of returning MPI_T_ERR_INVALID_INDEX", what, signalName(c.Signal))
			continue
		}
		unchecked = append(unchecked, fmt.Sprintf("%s crashed (%s)", what, signalName(c.Signal)))
	}
	p.fail(x, "problems")
	reason := fmt.Sprintf("%d control, %d performance variables, %d categories, %d event types round-trip; unknown names give MPI_T_ERR_INVALID_NAME; names unique",
		len(w.cvars)-countRefused(refused, "control"), len(w.pvars)-countRefused(refused, "performance"), len(w.categories), len(w.events))
	if len(unchecked) > 0 {
		reason += "; out-of-range indices (undefined behaviour, §16.3.10): " + strings.Join(unchecked, ", ")
	}
	if len(refused) > 0 {
		reason += fmt.Sprintf("; get_info refused %d indices below the count (allowed: inactive variables), e.g. %s", len(refused), refused[0])
	}
	return harness.Verdict{Reason: reason}
}

func countRefused(refused []string, kind string) int {
	n := 0
	for _, r := range refused {
		if strings.HasPrefix(r, kind) {
			n++
		}
	}
	return n
}

func dup(p *problems, kind string, names map[string][]int) {
	for name, idx := range names {
		if len(idx) > 1 {
			p.add("%s name %q is not unique: indices %v", kind, name, idx)
		}
	}
}
