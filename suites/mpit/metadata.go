package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Metadata of control and performance variables, enumerations, event types
// (verbosity and binding only) and categories, judged from the walk
// (fixtures/c/mpit/walk.c): each value in its allowed set, each rule its own
// verdict.
var metadataCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-META",
	Needs: "mpit",
	Title: "verbosity, binding, scope, datatype, class, flags and enumerations of every variable are in their allowed sets; enumerations answer; categories list valid members, form no cycle, and their update number never goes back",
	Rules: []rulebook.Rule{
		// §15.3.6.1: "The argument verbosity returns the verbosity level of the
		// variable (see Section Verbosity Levels [§15.3.1])." (§15.3.7.2 and
		// §15.3.8.3 alike); §15.3.1 lists the nine MPI_T_VERBOSITY_* constants.
		{ID: "META-2", Source: "MPI-5.0 §15.3.1, §15.3.6-15.3.8", Basis: rulebook.Normative,
			Text:      "control variables, performance variables and event types return one of the nine MPI_T_VERBOSITY_* constants",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["verbosity"].Declared(), Judge: judgeMeta("verbosity")},
		// §15.3.6.1: "The parameter bind returns the type of the MPI object to
		// which the variable must be bound or the value MPI_T_BIND_NO_OBJECT (see
		// Section Binding MPI Tool Information Interface Variables to MPI Objects
		// [§15.3.2])." (§15.3.7.2 and §15.3.8.3 alike.)
		{ID: "META-3", Source: "MPI-5.0 §15.3.2, §15.3.6-15.3.8", Basis: rulebook.Normative,
			Text:      "control variables, performance variables and event types return one of the MPI_T_BIND_* constants",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["bind"].Declared(), Judge: judgeMeta("bind")},
		// §15.3.6.1: "On successful return from MPI_T_CVAR_GET_INFO, the argument
		// scope will be set to one of the constants listed in Table 20."
		{ID: "CVAR-6", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "the scope of every control variable is one of the seven MPI_T_SCOPE_* constants",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["scope"].Declared(), Judge: judgeMeta("scope")},
		// §15.3.5: "Table 19 lists all MPI datatypes that can be returned by the
		// MPI tool information interface to represent its variables." (MPI_C_BOOL
		// is not among them.)
		{ID: "META-6", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "the datatype of every control and performance variable is one of the eleven of Table 19",
			Injectors: []string{"inject_mpit_bad_datatype"}, Exposure: metaExposures["datatype"].Declared(), Judge: judgeMeta("datatype")},
		// §15.3.6.1: "If the datatype is not MPI_INT or the argument enumtype is
		// the null pointer, no enumeration type is returned." (§15.3.7.2 alike.)
		{ID: "META-9", Source: "MPI-5.0 §15.3.6.1, §15.3.7.2", Basis: rulebook.Normative,
			Text:      "only MPI_INT control and performance variables return an enumeration; the others return MPI_T_ENUM_NULL",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["enum"].Declared(), Judge: judgeMeta("enum")},
		// §15.3.7.2: "The class must be one of the constants defined in Section
		// Performance Variable Classes [§15.3.7.1]."
		{ID: "PVAR-5", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "the class of every performance variable is one of the ten MPI_T_PVAR_CLASS_* constants",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["class"].Declared(), Judge: judgeMeta("class")},
		// §15.3.7.1, for each class, e.g. MPI_T_PVAR_CLASS_COUNTER: "Variables of
		// this class can have one of the following datatypes: MPI_UNSIGNED,
		// MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG."
		{ID: "PVAR-6", Source: "MPI-5.0 §15.3.7.1", Basis: rulebook.Normative,
			Text:      "the datatype of every performance variable is one its class allows (STATE MPI_INT; COUNTER unsigned; PERCENTAGE MPI_DOUBLE; LEVEL, SIZE, watermarks, AGGREGATE, TIMER unsigned or MPI_DOUBLE)",
			Injectors: []string{"inject_mpit_bad_datatype"}, Exposure: metaExposures["classtype"].Declared(), Judge: judgeMeta("classtype")},
		// §15.3.7.2: "Upon return, the argument readonly is set to zero if the
		// variable can be written or reset by the user. It is set to one if the
		// variable can only be read." (continuous and atomic alike.)
		{ID: "PVAR-7", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "readonly, continuous and atomic of every performance variable are each 0 or 1",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["flags"].Declared(), Judge: judgeMeta("flags")},
		// §15.3.5: "If enumtype is a valid enumeration, this routine returns the
		// number of items represented by this enumeration type as well as its
		// name. N must be greater than 0, i.e., the enumeration must represent at
		// least one value."
		{ID: "META-10", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "MPI_T_enum_get_info succeeds on every enumeration a variable returned and gives N > 0",
			Injectors: []string{"inject_mpit_enum_empty"}, Exposure: metaExposures["enuminfo"].Declared(), Judge: judgeMeta("enuminfo")},
		// §15.3.5 (MPI_T_ENUM_GET_ITEM): "If completed successfully, the routine
		// returns the name/value pair that describes the enumeration at the
		// specified index", an index "between 0 and N-1".
		{ID: "META-11", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "MPI_T_enum_get_item succeeds for every index 0..N-1",
			Injectors: []string{"inject_mpit_meta"}, Exposure: metaExposures["enumitem"].Declared(), Judge: judgeMeta("enumitem")},
		// §15.3.9: "Categories can never include themselves, either directly or
		// transitively within other included categories."
		{ID: "CAT-5", Source: "MPI-5.0 §15.3.9", Basis: rulebook.Normative,
			Text:      "no category contains itself, directly or transitively",
			Injectors: []string{"inject_mpit_meta"}, Exposure: cat5Exposure.Declared(), Judge: judgeCatCycle},
		// §15.3.9.2: MPI_T_CATEGORY_GET_CVARS "OUT indices | an integer array of
		// size len, indicating control variable indices" (pvars, categories and
		// events alike), of categories answered by MPI_T_category_get_info.
		{ID: "CAT-6", Source: "MPI-5.0 §15.3.9.1-2", Basis: rulebook.Normative,
			Text:      "MPI_T_category_get_cvars/pvars/categories/events succeed and list valid indices of their kind",
			Injectors: []string{"inject_mpit_meta"}, Exposure: cat6Exposure.Declared(), Judge: judgeCatMembers},
		// §15.3.9.2: "If the update number retrieved from the second call is
		// higher, then some categories have been added or expanded. If the number
		// of changes to categories exceeds the limit of update_number, an
		// implementation shall set update_number to the maximum possible value."
		// It never goes back ("monotonically increasing during the
		// execution"), MPI_Init included.
		{ID: "CAT-8", Source: "MPI-5.0 §15.3.9.2", Basis: rulebook.Normative,
			Text:      "MPI_T_category_changed succeeds and its update number never decreases",
			Injectors: []string{"inject_mpit_category_reset"}, Exposure: cat8Exposure.Declared(), Judge: judgeCatChanged},
	},
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

// judgeMeta judges one property of every variable (and event type, for
// verbosity and binding).
func judgeMeta(prop string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		w := walk(x)
		broken := tally{}
		note := broken.note
		var judged []metaValue
		for _, c := range w.cvars {
			if c.RC != "MPI_SUCCESS" {
				continue
			}
			who := fmt.Sprintf("%s (%d)", c.Name, c.Index)
			switch prop {
			case "verbosity":
				judged = append(judged, metaValue{datatype: c.Datatype})
				if c.Verbosity < 0 {
					note("control variable verbosity not one of the nine levels", fmt.Sprintf("%s (index %d: %d)", c.Name, c.Index, c.VerbValue))
				}
			case "bind":
				judged = append(judged, metaValue{datatype: c.Datatype})
				if c.Bind == "invalid" {
					note("control variable binding not one of the MPI_T_BIND constants", who)
				}
			case "scope":
				judged = append(judged, metaValue{datatype: c.Datatype})
				if c.Scope == "invalid" {
					note("control variable scope not one of the MPI_T_SCOPE constants", who)
				}
			case "datatype":
				judged = append(judged, metaValue{datatype: c.Datatype})
				if !mpitTypes[c.Datatype] {
					note("control variable datatype "+c.Datatype+" is not in Table 19", who)
				}
			case "enum":
				judged = append(judged, metaValue{datatype: c.Datatype})
				if c.Enum >= 0 && c.Datatype != "MPI_INT" {
					note("control variable of type "+c.Datatype+" has an enumeration (only MPI_INT variables may; others get MPI_T_ENUM_NULL)", who)
				}
				if c.Enum == enumUnwritten && c.Datatype != "MPI_INT" {
					note("control variable of type "+c.Datatype+" left enumtype unwritten (others get MPI_T_ENUM_NULL)", who)
				}
			}
		}
		for _, v := range w.pvars {
			if v.RC != "MPI_SUCCESS" {
				continue
			}
			who := fmt.Sprintf("%s (%d, %s)", v.Name, v.Index, v.Class)
			allowed, known := classTypes[v.Class]
			switch prop {
			case "verbosity":
				judged = append(judged, metaValue{datatype: v.Datatype})
				if v.Verbosity < 0 {
					note("performance variable verbosity not one of the nine levels", fmt.Sprintf("%s (index %d, %s: %d)", v.Name, v.Index, v.Class, v.VerbValue))
				}
			case "bind":
				judged = append(judged, metaValue{datatype: v.Datatype})
				if v.Bind == "invalid" {
					note("performance variable binding not one of the MPI_T_BIND constants", who)
				}
			case "datatype":
				judged = append(judged, metaValue{datatype: v.Datatype})
				if !mpitTypes[v.Datatype] {
					note("performance variable datatype "+v.Datatype+" is not in Table 19", who)
				}
			case "enum":
				judged = append(judged, metaValue{datatype: v.Datatype})
				if v.Enum >= 0 && v.Datatype != "MPI_INT" {
					note("performance variable of type "+v.Datatype+" has an enumeration (only MPI_INT variables may)", who)
				}
				if v.Enum == enumUnwritten && v.Datatype != "MPI_INT" {
					note("performance variable of type "+v.Datatype+" left enumtype unwritten (others get MPI_T_ENUM_NULL)", who)
				}
			case "class":
				judged = append(judged, metaValue{datatype: v.Datatype})
				if !known {
					note("performance variable class not one of the MPI_T_PVAR_CLASS constants", who)
				}
			case "classtype":
				if known {
					judged = append(judged, metaValue{datatype: v.Datatype})
					if !allowed[v.Datatype] {
						note(fmt.Sprintf("%s performance variable of type %s (not allowed for the class)", v.Class, v.Datatype), who)
					}
				}
			case "flags":
				judged = append(judged, metaValue{datatype: v.Datatype})
				for _, f := range []struct {
					name string
					v    int
				}{{"readonly", v.Readonly}, {"continuous", v.Continuous}, {"atomic", v.Atomic}} {
					if f.v != 0 && f.v != 1 {
						note(fmt.Sprintf("performance variable flag %s is %d (the standard sets it to zero or one)", f.name, f.v), who)
					}
				}
			}
		}
		if prop == "verbosity" || prop == "bind" {
			for _, e := range w.events {
				if e.RC != "MPI_SUCCESS" {
					continue
				}
				judged = append(judged, metaValue{})
				who := fmt.Sprintf("%s (%d)", e.Name, e.Index)
				if prop == "verbosity" && e.Verbosity < 0 {
					note("event type verbosity not one of the nine levels", fmt.Sprintf("%s (index %d: %d)", e.Name, e.Index, e.VerbValue))
				}
				if prop == "bind" && e.Bind == "invalid" {
					note("event type binding not one of the MPI_T_BIND constants", who)
				}
			}
		}
		if prop == "enuminfo" || prop == "enumitem" {
			for _, e := range w.enums {
				who := fmt.Sprintf("%s (enumeration %d)", e.Name, e.ID)
				if prop == "enuminfo" {
					judged = append(judged, metaValue{})
					switch {
					case e.RC != "MPI_SUCCESS":
						note("MPI_T_enum_get_info failed on an enumeration a variable returned: "+e.RC, who)
					case e.Num < 1:
						note(fmt.Sprintf("enumeration with %d items (N must be greater than 0)", e.Num), who)
					}
					continue
				}
				for k, it := range e.Items {
					judged = append(judged, metaValue{})
					if it.RC != "MPI_SUCCESS" {
						note(fmt.Sprintf("MPI_T_enum_get_item(%d) failed: %s", k, it.RC), who)
					}
				}
			}
		}
		var p rulebook.Problems
		broken.into(&p, ", ")
		p.FailOn(x)
		n := len(judged)
		if n == 0 {
			x.Unsupported("not measurable here: nothing of the kind this rule covers answered get_info after MPI_Init (%d control, %d performance variables, %d enumerations)", len(w.cvars), len(w.pvars), len(w.enums))
		}
		seen := fmt.Sprintf("(%d control variables, %d performance variables, %d event types, %d enumerations)",
			len(w.cvars), len(w.pvars), len(w.events), len(w.enums))
		e := metaExposures[prop]
		if prop == "enum" {
			notInt := 0
			for _, v := range judged {
				if e.Could(v) {
					notInt++
				}
			}
			return e.Pass(judged, "%d variables, %d of them not MPI_INT: each of those was set to MPI_T_ENUM_NULL (over a preset the library had to overwrite) %s", n, notInt, seen)
		}
		return e.Pass(judged, "%d values allowed %s", n, seen)
	}
}

// enumUnwritten is the enumeration walk.c records when get_info left
// enumtype as it was preset (bytes no handle has).
const enumUnwritten = -2

// metaValue is one value judgeMeta judges, with the datatype of the
// variable it is of ("" for event types and enumerations).
type metaValue struct{ datatype string }

// metaOutput: every output other than enumtype is preset to a value
// outside its allowed set (-1, MPI_DATATYPE_NULL), so each value judged
// could have broken the rule, a value the library did not write included.
const metaOutput = "every value (its output is preset to a value outside the allowed set: one the library did not write shows)"

// metaExposures by property (META-2, META-3, CVAR-6, META-6, META-9,
// PVAR-5, PVAR-6, PVAR-7, META-10, META-11). For enumerations the fixture
// presets bytes no handle has (not MPI_T_ENUM_NULL): a variable of another
// type than MPI_INT shows a breach both when the library writes an
// enumeration there and when it writes nothing; an MPI_INT variable may
// have either.
var metaExposures = map[string]rulebook.Exposure[metaValue]{
	"verbosity": {Items: "verbosities (variables and event types)", When: metaOutput},
	"bind":      {Items: "bindings (variables and event types)", When: metaOutput},
	"scope":     {Items: "control variable scopes", When: metaOutput},
	"datatype":  {Items: "variable datatypes", When: metaOutput},
	"enum": {Items: "variables' enumerations", When: "when the variable is not MPI_INT (an MPI_INT variable may have an enumeration or none)",
		Could: func(v metaValue) bool { return v.datatype != "MPI_INT" }},
	"class":     {Items: "performance variable classes", When: metaOutput},
	"classtype": {Items: "performance variable datatypes", When: metaOutput},
	"flags":     {Items: "performance variables' flag triples", When: metaOutput},
	"enuminfo":  {Items: "enumerations", When: metaOutput},
	"enumitem":  {Items: "enumeration items", When: "every item asked (each MPI_T_enum_get_item could have failed)"},
}

// cat5Exposure: only a category that lists subcategories can be on a
// cycle.
var cat5Exposure = rulebook.Exposure[categoryRec]{Items: "categories",
	When:  "when it lists subcategories (only such a category can be on a cycle)",
	Could: func(c categoryRec) bool { return len(c.Categories) > 0 }}

func judgeCatCycle(x *rulebook.X) verdict.Verdict {
	w := walk(x)
	sub := map[int][]int{}
	for _, c := range w.categories {
		if c.RC == "MPI_SUCCESS" {
			sub[c.Index] = c.Categories
		}
	}
	if len(sub) == 0 {
		x.Unsupported("not measurable here: no category")
	}
	if cyc := findCycle(sub); cyc != nil {
		x.Failf("", "categories include themselves: %v", cyc)
	}
	// one item a category index, with the subcategories it lists
	var cats []categoryRec
	nested := 0
	for i, s := range sub {
		c := categoryRec{Index: i, Categories: s}
		cats = append(cats, c)
		if cat5Exposure.Could(c) {
			nested++
		}
	}
	return cat5Exposure.Pass(cats, "%d categories, %d of them listing subcategories: no cycle", len(sub), nested)
}

// cat6Exposure: a member query is made only for a kind the category has
// members of.
var cat6Exposure = rulebook.Exposure[categoryRec]{Items: "categories",
	When: "when it has members (a member query is made only for a kind the category has members of)",
	Could: func(c categoryRec) bool {
		return len(c.Cvars)+len(c.Pvars)+len(c.Categories)+len(c.Events) > 0
	}}

func judgeCatMembers(x *rulebook.X) verdict.Verdict {
	w := walk(x)
	broken := tally{}
	var cats []categoryRec
	queried := 0
	for _, c := range w.categories {
		if c.RC != "MPI_SUCCESS" {
			continue
		}
		cats = append(cats, c)
		if cat6Exposure.Could(c) {
			queried++
		}
		who := fmt.Sprintf("%s (%d)", c.Name, c.Index)
		if c.ListsRC != "MPI_SUCCESS" {
			broken.note("MPI_T_category_get_cvars/pvars/categories/events failed: "+c.ListsRC, who)
		}
		inRange := func(what string, list []int, n int) {
			for _, i := range list {
				if i < 0 || i >= n {
					broken.note(fmt.Sprintf("category lists %s index %d (there are %d)", what, i, n), who)
				}
			}
		}
		inRange("control variable", c.Cvars, len(w.cvars))
		inRange("performance variable", c.Pvars, len(w.pvars))
		inRange("category", c.Categories, len(w.categories))
		if w.summary.Events >= 0 {
			inRange("event type", c.Events, w.summary.Events)
		}
	}
	var p rulebook.Problems
	broken.into(&p, ", ")
	p.FailOn(x)
	if len(cats) == 0 {
		x.Unsupported("not measurable here: no category")
	}
	return cat6Exposure.Pass(cats, "%d categories, %d of them with members: every member query succeeded and listed valid indices", len(cats), queried)
}

// updatePair is two successive MPI_T_category_changed reads of one process.
type updatePair struct{ before, after int }

// cat8Exposure: each pair of successive reads could show the number going
// back (a reset at MPI_Init, a wrap instead of saturation at the maximum).
var cat8Exposure = rulebook.Exposure[updatePair]{Items: "pairs of successive MPI_T_category_changed reads",
	When: "every pair (each could show the number going back)"}

// judgeCatChanged judges every update number in the order it was read: in
// mpit_across (each rank: before and after each of its three walks, the
// first with MPI_T initialized before MPI_Init, so the windows across
// MPI_Init and across traffic, where the number does move, are judged) and
// in mpit_walk (at its start and end, after MPI_Init). Each pair of
// successive reads could show the number going back (a reset at MPI_Init,
// a wrap instead of saturation at the maximum).
func judgeCatChanged(x *rulebook.X) verdict.Verdict {
	w := walk(x)
	_, recs := x.JobOnce(mpi.Job{Name: "mpit_across", Ranks: 2, Program: x.Fixture("mpit_across")})
	type read struct {
		at     string
		ok     bool
		rc     string
		update int
	}
	var seqs [][]read
	var names []string
	for rank := 0; rank < 2; rank++ {
		var seq []read
		for _, rec := range recs.Kind("changed", rank) {
			var c updateRec
			if err := rec.Decode(&c); err != nil {
				x.Errorf(string(rec.Raw), "%v", err)
			}
			seq = append(seq, read{at: c.When + " " + c.At, ok: c.RC == 0, rc: fmt.Sprint(c.RC), update: c.Update})
		}
		seqs = append(seqs, seq)
		names = append(names, fmt.Sprintf("mpit_across rank %d", rank))
	}
	for _, ch := range mpi.Decode[changedRec](w.recs, "changed") {
		seqs = append(seqs, []read{{"start", ch.RCFirst == "MPI_SUCCESS", ch.RCFirst, ch.First}, {"end", ch.RCLast == "MPI_SUCCESS", ch.RCLast, ch.Last}})
		names = append(names, "mpit_walk")
	}
	if len(seqs) < 3 || len(seqs[0]) == 0 || len(seqs[1]) == 0 {
		x.Errorf("", "mpit_across or mpit_walk recorded no MPI_T_category_changed reads")
	}
	var p rulebook.Problems
	// pairs: successive reads compared; moved: those between which the
	// number went up (the windows where categories changed)
	var pairs []updatePair
	moved := 0
	var shown []string
	for k, seq := range seqs {
		var vals []string
		for i, r := range seq {
			vals = append(vals, fmt.Sprint(r.update))
			if !r.ok {
				p.Add("", "%s: MPI_T_category_changed at %s returned %s", names[k], r.at, r.rc)
				continue
			}
			if i == 0 || !seq[i-1].ok {
				continue
			}
			a := seq[i-1]
			pairs = append(pairs, updatePair{before: a.update, after: r.update})
			switch {
			case r.update < a.update:
				p.Add("", "%s: the update number went back from %d (%s) to %d (%s)", names[k], a.update, a.at, r.update, r.at)
			case r.update > a.update:
				moved++
			}
		}
		shown = append(shown, names[k]+" "+strings.Join(vals, ", "))
	}
	p.FailOn(x)
	return cat8Exposure.Pass(pairs, "the update number never went back over %d pairs of successive reads (%d of them across a change), from before MPI_Init to after traffic: %s", len(pairs), moved, strings.Join(shown, "; "))
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
