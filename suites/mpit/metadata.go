package mpit

import (
	"fmt"
	"sort"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.1 (verbosity levels), §16.3.2 (binding constants), §16.3.5
// (the datatypes "that can be returned by the MPI tool information interface
// to represent its variables"; enumerations: "N must be greater than 0"),
// §16.3.6 (scope "will be set to one of the constants" of its table; "If the
// variable is of type MPI_INT, MPI can optionally specify an enumeration ...
// Otherwise, enumtype is set to MPI_T_ENUM_NULL"), §16.3.7 (the datatypes
// each class allows; readonly, continuous and atomic are "set to zero" or
// "set to one"), §16.3.9 (categories "can never include themselves, either
// directly or transitively"; the update number is "monotonically increasing").
var metadataCheck = harness.Define(harness.Check{
	ID:        "MPIT-META-001",
	Clause:    "MPI-4.1:16.3.7",
	Needs:     "mpit",
	Title:     "verbosity, binding, scope, datatype (per performance variable class), flags and enumerations of every variable are in their allowed sets; categories point at valid indices and form no cycle; MPI_T_category_changed never goes back",
	Injectors: []string{"inject_mpit_bad_datatype"},
	Run:       runMetadata,
})

// The MPI_T datatype system (§16.3.5, Table 16.3 in MPI-4.1).
var mpitTypes = set("MPI_INT", "MPI_INT32_T", "MPI_INT64_T", "MPI_UNSIGNED", "MPI_UNSIGNED_LONG",
	"MPI_UNSIGNED_LONG_LONG", "MPI_UINT32_T", "MPI_UINT64_T", "MPI_COUNT", "MPI_CHAR", "MPI_DOUBLE")

var unsignedOrDouble = set("MPI_UNSIGNED", "MPI_UNSIGNED_LONG", "MPI_UNSIGNED_LONG_LONG", "MPI_DOUBLE")

// Allowed datatypes by performance variable class (§16.3.7).
var classTypes = map[string]map[string]bool{
	"STATE":         set("MPI_INT"),
	"LEVEL":         unsignedOrDouble,
	"SIZE":          unsignedOrDouble,
	"PERCENTAGE":    set("MPI_DOUBLE"),
	"HIGHWATERMARK": unsignedOrDouble,
	"LOWWATERMARK":  unsignedOrDouble,
	"COUNTER":       set("MPI_UNSIGNED", "MPI_UNSIGNED_LONG", "MPI_UNSIGNED_LONG_LONG"),
	"AGGREGATE":     unsignedOrDouble,
	"TIMER":         unsignedOrDouble,
	"GENERIC":       mpitTypes,
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

type changedRec struct {
	First   int    `json:"first"`
	Last    int    `json:"last"`
	RCFirst string `json:"rc_first"`
	RCLast  string `json:"rc_last"`
}

func runMetadata(x *harness.X) harness.Verdict {
	w := walk(x)
	var p problems
	// Several variables break a rule the same way: one problem per rule and
	// kind, with a count and examples.
	broken := tally{}
	note := broken.note
	enumOK := func(id int) bool { return id >= 0 && id < len(w.enums) }
	for _, c := range w.cvars {
		if c.RC != "MPI_SUCCESS" {
			continue
		}
		who := fmt.Sprintf("%s (%d)", c.Name, c.Index)
		if c.Verbosity < 0 {
			note("control variable verbosity not one of the nine levels", who)
		}
		if c.Bind == "invalid" {
			note("control variable binding not one of the MPI_T_BIND constants", who)
		}
		if c.Scope == "invalid" {
			note("control variable scope not one of the MPI_T_SCOPE constants", who)
		}
		if !mpitTypes[c.Datatype] {
			note("control variable datatype "+c.Datatype+" is not in the MPI_T datatype system", who)
		}
		if c.Enum >= 0 && c.Datatype != "MPI_INT" {
			note("control variable of type "+c.Datatype+" has an enumeration (only MPI_INT variables may; others get MPI_T_ENUM_NULL)", who)
		}
	}
	for _, v := range w.pvars {
		if v.RC != "MPI_SUCCESS" {
			continue
		}
		who := fmt.Sprintf("%s (%d, %s)", v.Name, v.Index, v.Class)
		if v.Verbosity < 0 {
			note("performance variable verbosity not one of the nine levels", who)
		}
		if v.Bind == "invalid" {
			note("performance variable binding not one of the MPI_T_BIND constants", who)
		}
		allowed, known := classTypes[v.Class]
		switch {
		case !known:
			note("performance variable class not one of the MPI_T_PVAR_CLASS constants", who)
		case !allowed[v.Datatype]:
			note(fmt.Sprintf("%s performance variable of type %s (not allowed for the class)", v.Class, v.Datatype), who)
		}
		if v.Enum >= 0 && v.Datatype != "MPI_INT" {
			note("performance variable of type "+v.Datatype+" has an enumeration (only MPI_INT variables may)", who)
		}
		for _, f := range []struct {
			name string
			v    int
		}{{"readonly", v.Readonly}, {"continuous", v.Continuous}, {"atomic", v.Atomic}} {
			if f.v != 0 && f.v != 1 {
				note(fmt.Sprintf("performance variable flag %s is %d (the standard sets it to zero or one)", f.name, f.v), who)
			}
		}
	}
	for _, e := range w.enums {
		who := fmt.Sprintf("%s (enumeration %d)", e.Name, e.ID)
		switch {
		case e.RC != "MPI_SUCCESS":
			note("MPI_T_enum_get_info failed on an enumeration a variable returned: "+e.RC, who)
		case e.Num < 1:
			note(fmt.Sprintf("enumeration with %d items (N must be greater than 0)", e.Num), who)
		}
		for k, it := range e.Items {
			if it.RC != "MPI_SUCCESS" {
				note(fmt.Sprintf("MPI_T_enum_get_item(%d) failed: %s", k, it.RC), who)
			}
		}
	}
	for _, e := range w.events {
		if e.RC != "MPI_SUCCESS" {
			continue
		}
		who := fmt.Sprintf("%s (%d)", e.Name, e.Index)
		if e.Verbosity < 0 {
			note("event type verbosity not one of the nine levels", who)
		}
		if e.Bind == "invalid" {
			note("event type binding not one of the MPI_T_BIND constants", who)
		}
		if e.Enum >= 0 && !enumOK(e.Enum) {
			note("event type enumeration unknown", who)
		}
	}
	// categories: members in range, and no cycle
	ncat := len(w.categories)
	sub := map[int][]int{}
	for _, c := range w.categories {
		if c.RC != "MPI_SUCCESS" {
			continue
		}
		who := fmt.Sprintf("%s (%d)", c.Name, c.Index)
		if c.ListsRC != "MPI_SUCCESS" {
			note("MPI_T_category_get_cvars/pvars/categories/events failed: "+c.ListsRC, who)
		}
		inRange := func(what string, list []int, n int) {
			for _, i := range list {
				if i < 0 || i >= n {
					note(fmt.Sprintf("category lists %s index %d (there are %d)", what, i, n), who)
				}
			}
		}
		inRange("control variable", c.Cvars, len(w.cvars))
		inRange("performance variable", c.Pvars, len(w.pvars))
		inRange("category", c.Categories, ncat)
		if w.summary.Events >= 0 {
			inRange("event type", c.Events, w.summary.Events)
		}
		sub[c.Index] = c.Categories
	}
	if cyc := findCycle(sub); cyc != nil {
		p.add("categories include themselves: %v", cyc)
	}
	for _, ch := range decode[changedRec](w.recs, "changed") {
		if ch.RCFirst != "MPI_SUCCESS" || ch.RCLast != "MPI_SUCCESS" {
			p.add("MPI_T_category_changed returned %s / %s", ch.RCFirst, ch.RCLast)
		} else if ch.Last < ch.First {
			p.add("MPI_T_category_changed went back from %d to %d during the walk", ch.First, ch.Last)
		}
	}
	broken.into(&p, ", ")
	p.fail(x, "rules broken")
	return harness.Verdict{Reason: fmt.Sprintf("%d control variables, %d performance variables, %d enumerations, %d event types, %d categories (acyclic) have allowed metadata",
		len(w.cvars), len(w.pvars), len(w.enums), len(w.events), ncat)}
}

// findCycle returns a category cycle (as indices) or nil.
func findCycle(sub map[int][]int) []int {
	const (
		white = iota
		grey
		black
	)
	color := map[int]int{}
	var stack []int
	var cycle []int
	var visit func(int) bool
	visit = func(n int) bool {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range sub[n] {
			if color[m] == grey {
				for i := range stack {
					if stack[i] == m {
						cycle = append(append([]int{}, stack[i:]...), m)
					}
				}
				return true
			}
			if color[m] == white && visit(m) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return false
	}
	keys := make([]int, 0, len(sub))
	for k := range sub {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		if color[k] == white && visit(k) {
			return cycle
		}
	}
	return nil
}
