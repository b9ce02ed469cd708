package mpit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// Names and indices of control and performance variables, categories and
// enumerations, judged from the walk (fixtures/c/mpit/walk.c): every index
// below the count answers get_info, names are unique, get_index round-trips,
// unknown names are refused, and out-of-range indices (each tried in a fresh
// process) are refused without a crash. Event types and sources are the
// events suite's.
var namesCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-NAMES",
	Needs: "mpit",
	Title: "indices below the count name objects, names are unique, get_index round-trips and refuses unknown names, out-of-range indices are refused (control and performance variables, categories, enumerations)",
	Rules: []rulebook.Rule{
		// §15.3.7.2: "An MPI implementation exports a set of N performance
		// variables through the MPI tool information interface. If N is zero, then
		// the MPI implementation does not export any performance variables,
		// otherwise the provided performance variables are indexed from 0 to N-1."
		// Two readings, as for control variables (see CVAR-1): every index
		// answers, or an inactive variable's index may be refused.
		{ID: "PVAR-1", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Interpretation,
			Text:     "MPI_T_pvar_get_info answers every index from 0 to MPI_T_pvar_get_num - 1 (reading 1) or refuses some, as inactive variables (reading 2): which reading the library follows",
			Exposure: indexExposures["pvar"].Declared(), Judge: judgeIndexRange("pvar")},
		// §15.3.9: "An MPI implementation exports a set of N categories through
		// the MPI tool information interface. If N = 0, then the MPI implementation
		// does not export any categories, otherwise the provided categories are
		// indexed from 0 to N-1."
		{ID: "CAT-1", Source: "MPI-5.0 §15.3.9", Basis: rulebook.Interpretation,
			Text:     "MPI_T_category_get_info answers every index from 0 to MPI_T_category_get_num - 1 (reading 1) or refuses some (reading 2): which reading the library follows",
			Exposure: indexExposures["category"].Declared(), Judge: judgeIndexRange("category")},
		// §15.3.6.1: "The name must be unique with respect to all other names for
		// control variables used by the MPI implementation."
		{ID: "CVAR-5", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "control variable names are unique",
			Injectors: []string{"inject_mpit_names"}, Exposure: uniqueExposures["cvar"].Declared(), Judge: judgeUnique("cvar")},
		// §15.3.7.2: "The combination of the name and the class of the
		// performance variable must be unique with respect to all other names for
		// performance variables used by the MPI implementation."
		{ID: "PVAR-8", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "the pair (name, class) is unique among performance variables",
			Injectors: []string{"inject_mpit_names"}, Exposure: uniqueExposures["pvar"].Declared(), Judge: judgeUnique("pvar")},
		// §15.3.9.1: "This name must be unique with respect to all other names for
		// categories used by the MPI implementation."
		{ID: "CAT-2", Source: "MPI-5.0 §15.3.9.1", Basis: rulebook.Normative,
			Text:      "category names are unique",
			Injectors: []string{"inject_mpit_names"}, Exposure: uniqueExposures["category"].Declared(), Judge: judgeUnique("category")},
		// §15.3.5: "This name must be unique with respect to all other names for
		// enumerations that the MPI implementation uses."
		{ID: "META-12", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "enumeration names are unique",
			Injectors: []string{"inject_mpit_names"}, Exposure: uniqueExposures["enum"].Declared(), Judge: judgeUnique("enum")},
		// §15.3.5: "This name must be unique with respect to all other names of
		// items for the same enumeration."
		{ID: "META-13", Source: "MPI-5.0 §15.3.5", Basis: rulebook.Normative,
			Text:      "item names are unique within their enumeration",
			Injectors: []string{"inject_mpit_names"}, Exposure: uniqueExposures["item"].Declared(), Judge: judgeUnique("item")},
		// §15.3.7.2 (MPI_T_PVAR_GET_INDEX): "This routine returns MPI_SUCCESS on
		// success" with pvar_index the index of the performance variable of that
		// name and class.
		{ID: "PVAR-9", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_get_index(name, class) of every performance variable returns MPI_SUCCESS and its index",
			Injectors: []string{"inject_mpit_names"}, Exposure: roundTripExposures["pvar"].Declared(), Judge: judgeRoundTrip("pvar")},
		// §15.3.9.1 (MPI_T_CATEGORY_GET_INDEX): the index of the category of that
		// name, MPI_SUCCESS on success.
		{ID: "CAT-4a", Source: "MPI-5.0 §15.3.9.1", Basis: rulebook.Normative,
			Text:      "MPI_T_category_get_index(name) of every category returns MPI_SUCCESS and its index",
			Injectors: []string{"inject_mpit_names"}, Exposure: roundTripExposures["category"].Declared(), Judge: judgeRoundTrip("category")},
		// §15.3.6.1: "This routine returns MPI_SUCCESS on success and returns
		// MPI_T_ERR_INVALID_NAME if name does not match the name of any control
		// variable provided by the implementation at the time of the call."
		{ID: "CVAR-8", Source: "MPI-5.0 §15.3.6.1", Basis: rulebook.Normative,
			Text:      "MPI_T_cvar_get_index with an unknown name returns MPI_T_ERR_INVALID_NAME",
			Injectors: []string{"inject_mpit_unknown_name"}, Exposure: badNameExposure.Declared(), Judge: judgeBadName("MPI_T_cvar_get_index")},
		// §15.3.7.2: "returns MPI_T_ERR_INVALID_NAME if name does not match the
		// name of any performance variable of the specified var_class provided by
		// the implementation at the time of the call."
		{ID: "PVAR-10a", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_get_index with an unknown name returns MPI_T_ERR_INVALID_NAME",
			Injectors: []string{"inject_mpit_names"}, Exposure: badNameExposure.Declared(), Judge: judgeBadName("MPI_T_pvar_get_index")},
		// The same sentence: a known name with a class no variable of that name
		// has.
		{ID: "PVAR-10b", Source: "MPI-5.0 §15.3.7.2", Basis: rulebook.Normative,
			Text:      "MPI_T_pvar_get_index with a known name and a class no variable of that name has returns MPI_T_ERR_INVALID_NAME",
			Injectors: []string{"inject_mpit_names"}, Exposure: badNameExposure.Declared(), Judge: judgeBadName("MPI_T_pvar_get_index(name, other class)")},
		// §15.3.9.1: "returns MPI_T_ERR_INVALID_NAME if name does not match the
		// name of any category provided by the implementation at the time of the
		// call."
		{ID: "CAT-4b", Source: "MPI-5.0 §15.3.9.1", Basis: rulebook.Normative,
			Text:      "MPI_T_category_get_index with an unknown name returns MPI_T_ERR_INVALID_NAME",
			Injectors: []string{"inject_mpit_names"}, Exposure: badNameExposure.Declared(), Judge: judgeBadName("MPI_T_category_get_index")},
		// §15.3.10: "The MPI implementation is not required to check all
		// user-provided parameters; if a user passes invalid parameter values to
		// any routine, the behavior of the implementation is undefined." Table 23
		// names MPI_T_ERR_INVALID_INDEX ("The variable or category index is
		// invalid"), but no sentence of §15.3.6.1 requires it: any error code is
		// acceptable, MPI_SUCCESS or a crash is a quality finding.
		{ID: "CVAR-9", Source: "MPI-5.0 §15.3.6.1, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_cvar_get_info with an out-of-range index (-1, num, num + 1000) returns an error code (MPI_T_ERR_INVALID_INDEX the one Table 23 names) and does not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  badIndexExposure.Declared(), Judge: judgeBadIndex("MPI_T_cvar_get_info", "MPI_T_ERR_INVALID_INDEX")},
		// As CVAR-9, §15.3.10.
		{ID: "PVAR-11", Source: "MPI-5.0 §15.3.7.2, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_pvar_get_info with an out-of-range index (-1, num, num + 1000) returns an error code (MPI_T_ERR_INVALID_INDEX the one Table 23 names) and does not crash",
			Injectors: []string{"inject_mpit_unchecked"}, Conformers: []string{"conform_mpit_index_check"},
			Exposure: badIndexExposure.Declared(), Judge: judgeBadIndex("MPI_T_pvar_get_info", "MPI_T_ERR_INVALID_INDEX")},
		// As CVAR-9, §15.3.10.
		{ID: "CAT-11", Source: "MPI-5.0 §15.3.9, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_category_get_info and MPI_T_category_get_cvars with an out-of-range index (-1, num, num + 1000) return an error code (MPI_T_ERR_INVALID_INDEX the one Table 23 names) and do not crash",
			Injectors: []string{"inject_mpit_unchecked"},
			Exposure:  badIndexExposure.Declared(), Judge: judgeBadIndex("MPI_T_category_get_info|MPI_T_category_get_cvars", "MPI_T_ERR_INVALID_INDEX")},
		// As CVAR-9, §15.3.10; Table 23 names MPI_T_ERR_INVALID_INDEX for the
		// enumeration procedures ("The enumeration index is invalid"), the
		// deprecated MPI_T_ERR_INVALID_ITEM for items.
		{ID: "META-14", Source: "MPI-5.0 §15.3.5, §15.3.10", Basis: rulebook.Quality,
			Text:      "MPI_T_enum_get_item outside 0..N-1 returns an error code (MPI_T_ERR_INVALID_INDEX or the deprecated MPI_T_ERR_INVALID_ITEM the ones Table 23 names) and does not crash",
			Injectors: []string{"inject_mpit_unchecked"}, Conformers: []string{"conform_mpit_index_check"},
			Exposure: badIndexExposure.Declared(), Judge: judgeBadIndex("MPI_T_enum_get_item", "MPI_T_ERR_INVALID_INDEX|MPI_T_ERR_INVALID_ITEM")},
	},
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
	K        int    `json:"k"`
	Signal   int    `json:"signal"`
	Exit     int    `json:"exit"`
}

var kindWord = map[string]string{"cvar": "control variable", "pvar": "performance variable", "category": "category",
	"enum": "enumeration", "item": "enumeration item"}

// kindWords is kindWord in the plural.
func kindWords(kind string) string {
	if kind == "category" {
		return "categories"
	}
	return kindWord[kind] + "s"
}

// indexExposures: every index below the count is asked, and each could
// show the reading (by kind: CVAR-1, PVAR-1, CAT-1).
var indexExposures = map[string]rulebook.Exposure[int]{
	"cvar":     {Items: "control variable indices", When: "every index below the count (each could show the reading)"},
	"pvar":     {Items: "performance variable indices", When: "every index below the count (each could show the reading)"},
	"category": {Items: "category indices", When: "every index below the count (each could show the reading)"},
}

func judgeIndexRange(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		w := walk(x)
		var refused []string
		var asked []int
		switch kind {
		case "pvar":
			for _, v := range w.pvars {
				asked = append(asked, v.Index)
				if v.RC != "MPI_SUCCESS" {
					refused = append(refused, fmt.Sprintf("%d (%s)", v.Index, v.RC))
				}
			}
		case "category":
			for _, c := range w.categories {
				asked = append(asked, c.Index)
				if c.RC != "MPI_SUCCESS" {
					refused = append(refused, fmt.Sprintf("%d (%s)", c.Index, c.RC))
				}
			}
		}
		if len(asked) == 0 {
			x.Unsupported("not measurable here: no %s after MPI_Init", kindWord[kind]+"s")
		}
		return indexReading(indexExposures[kind], kindWord[kind], asked, refused)
	}
}

// indexReading says which reading of "indexed from 0 to N-1" a library
// follows: every index below the count answers get_info (reading 1), or some
// are refused (reading 2, as the example of §15.3.6.1 anticipates: its loop
// over 0..num-1 accepts MPI_T_ERR_INVALID_INDEX).
// asked are the indices below the count, every one asked.
func indexReading(e rulebook.Exposure[int], what string, asked []int, refused []string) verdict.Verdict {
	n := len(asked)
	if len(refused) == 0 {
		return e.Pass(asked, "reading 1: every %s index 0..%d answers get_info", what, n-1)
	}
	v := e.Pass(asked, "reading 2: get_info refuses %d of the %d %s indices below the count: %s", len(refused), n, what, examples(refused))
	v.Evidence = strings.Join(refused, "\n")
	return v
}

// objectName is one name judged unique, with how many others it could have
// clashed with (of its kind, or of its enumeration for an item).
type objectName struct{ others int }

// uniqueExposure: a name alone cannot clash.
func uniqueExposure(items, among string) rulebook.Exposure[objectName] {
	return rulebook.Exposure[objectName]{Items: items, When: "when there is another name " + among + " (one alone cannot clash)",
		Could: func(n objectName) bool { return n.others > 0 }}
}

// uniqueExposures by kind: CVAR-5, PVAR-8, CAT-2, META-12, META-13.
var uniqueExposures = map[string]rulebook.Exposure[objectName]{
	"cvar":     uniqueExposure("control variable names", "of a control variable"),
	"pvar":     uniqueExposure("performance variable names", "of a performance variable of the same class (PVAR-8's pair is name and class)"),
	"category": uniqueExposure("category names", "of a category"),
	"enum":     uniqueExposure("enumeration names", "of an enumeration"),
	"item":     uniqueExposure("enumeration item names", "in the same enumeration"),
}

func judgeUnique(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		w := walk(x)
		names := map[string][]int{}
		var bad []string
		var judged []objectName
		switch kind {
		case "cvar":
			for _, c := range w.cvars {
				if c.RC == "MPI_SUCCESS" {
					names[c.Name] = append(names[c.Name], c.Index)
				}
			}
		case "pvar":
			for _, v := range w.pvars {
				if v.RC == "MPI_SUCCESS" {
					k := v.Name + " class " + v.Class
					names[k] = append(names[k], v.Index)
				}
			}
		case "category":
			for _, c := range w.categories {
				if c.RC == "MPI_SUCCESS" {
					names[c.Name] = append(names[c.Name], c.Index)
				}
			}
		case "enum":
			for _, e := range w.enums {
				if e.RC == "MPI_SUCCESS" {
					names[e.Name] = append(names[e.Name], e.ID)
				}
			}
		case "item":
			for _, e := range w.enums {
				if e.RC != "MPI_SUCCESS" {
					continue
				}
				items := map[string][]int{}
				n := 0
				for k, it := range e.Items {
					if it.RC == "MPI_SUCCESS" {
						items[it.Name] = append(items[it.Name], k)
						n++
					}
				}
				for range n {
					judged = append(judged, objectName{others: n - 1})
				}
				bad = append(bad, dups("item of enumeration "+e.Name, items)...)
			}
		}
		switch kind {
		case "pvar":
			// only two variables of one class could make the same pair
			inClass := map[string]int{}
			for _, v := range w.pvars {
				if v.RC == "MPI_SUCCESS" {
					inClass[v.Class]++
				}
			}
			for _, n := range inClass {
				for range n {
					judged = append(judged, objectName{others: n - 1})
				}
			}
		case "cvar", "category", "enum":
			// any two names of the kind could have been the same
			count := 0
			for _, idx := range names {
				count += len(idx)
			}
			for range count {
				judged = append(judged, objectName{others: count - 1})
			}
		}
		bad = append(bad, dups(kindWord[kind], names)...)
		x.FailOn(bad, "")
		count := len(judged)
		if count == 0 {
			x.Unsupported("not measurable here: no %s after MPI_Init", kindWord[kind])
		}
		e := uniqueExposures[kind]
		if kind == "item" {
			inPairs := 0
			for _, n := range judged {
				if e.Could(n) {
					inPairs++
				}
			}
			return e.Pass(judged, "%d enumeration item names, all unique within their enumeration (%d of them in enumerations of two items or more)", count, inPairs)
		}
		return e.Pass(judged, "%d %s names, all unique", count, kindWord[kind])
	}
}

func dups(kind string, names map[string][]int) []string {
	var out []string
	for name, idx := range names {
		if len(idx) > 1 {
			out = append(out, fmt.Sprintf("%s name %q is not unique: indices %v", kind, name, idx))
		}
	}
	sort.Strings(out)
	return out
}

// roundTripExposures by kind (PVAR-9, CAT-4a): the index asked for is
// preset to -1, so each answer could be wrong. Items: the indices asked.
var roundTripExposures = map[string]rulebook.Exposure[int]{
	"pvar":     {Items: "performance variables", When: "every one asked (the index asked for is preset to -1: each answer could be wrong)"},
	"category": {Items: "categories", When: "every one asked (the index asked for is preset to -1: each answer could be wrong)"},
}

func judgeRoundTrip(kind string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		w := walk(x)
		var bad []string
		var asked []int
		unknown := 0
		check := func(index int, rc, name, xrc string, got int) {
			if rc != "MPI_SUCCESS" {
				return
			}
			asked = append(asked, index)
			if xrc != "MPI_SUCCESS" || got != index {
				bad = append(bad, fmt.Sprintf("%s %d %q: get_index gave %s, index %d", kindWord[kind], index, name, xrc, got))
			}
		}
		switch kind {
		case "pvar":
			for _, v := range w.pvars {
				if v.Class == "unknown" && v.RC == "MPI_SUCCESS" {
					// a class outside the standard's is PVAR-5's fault, and
					// the walk does not hand it back to get_index
					unknown++
					continue
				}
				check(v.Index, v.RC, v.Name+" ("+v.Class+")", v.GetIndexRC, v.GetIndex)
			}
		case "category":
			for _, c := range w.categories {
				check(c.Index, c.RC, c.Name, c.GetIndexRC, c.GetIndex)
			}
		}
		x.FailOn(bad, "")
		n := len(asked)
		if n == 0 {
			x.Unsupported("not measurable here: no %s after MPI_Init", kindWord[kind])
		}
		e := roundTripExposures[kind]
		if unknown > 0 {
			return e.Pass(asked, "%d %s round-trip through get_index (%d with a class outside the standard's not asked: PVAR-5)", n, kindWords(kind), unknown)
		}
		return e.Pass(asked, "%d %s round-trip through get_index", n, kindWords(kind))
	}
}

// badNameExposure (CVAR-8, PVAR-10a, PVAR-10b, CAT-4b): the one call
// tried could have returned another code.
var badNameExposure = rulebook.Exposure[badNameRec]{Items: "get_index calls naming no object",
	When: "every call tried (each could have returned another code)"}

func judgeBadName(fn string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		w := walk(x)
		for _, b := range mpi.Decode[badNameRec](w.recs, "badname") {
			if b.Function != fn {
				continue
			}
			if b.RC != "MPI_T_ERR_INVALID_NAME" {
				x.Failf("", "%s returned %s, not MPI_T_ERR_INVALID_NAME", fn, b.RC)
			}
			return badNameExposure.Pass([]badNameRec{b}, "%s returns MPI_T_ERR_INVALID_NAME", fn)
		}
		x.Unsupported("not measurable here: %s was not tried (no performance variable to take the name of)", fn)
		return verdict.Verdict{}
	}
}

// badIndexExposure (CVAR-9, PVAR-11, CAT-11, META-14): each call that
// returned (a crash fails) could have returned MPI_SUCCESS.
var badIndexExposure = rulebook.Exposure[badIndexRec]{Items: "out-of-range calls",
	When: "every call that returned (each could have returned MPI_SUCCESS)"}

// judgeBadIndex: out-of-range indices of the functions (|-separated), each
// tried in a fresh process. Any error code passes (the reason says whether
// it is the one Table 23 names); MPI_SUCCESS and a crash fail (quality).
func judgeBadIndex(fns, named string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		w := walk(x)
		var bad, got []string
		var refused []badIndexRec
		for _, b := range mpi.Decode[badIndexRec](w.recs, "badindex") {
			if !anyOf(b.Function, fns) {
				continue
			}
			what := fmt.Sprintf("%s(%d)", b.Function, b.Index)
			if b.RC == "MPI_SUCCESS" {
				bad = append(bad, what+" returned MPI_SUCCESS for an out-of-range index")
				continue
			}
			note := ""
			if !anyOf(b.RC, named) {
				note = " (not the code Table 23 names)"
			}
			got = append(got, fmt.Sprintf("%s %s%s", what, b.RC, note))
			refused = append(refused, b)
		}
		offs := []string{"-1", "num", "num + 1000"}
		for _, c := range mpi.Decode[badIndexCrash](w.recs, "badindex_crash") {
			if anyOf(c.Function, fns) {
				bad = append(bad, fmt.Sprintf("%s with index %s killed the process (%s)", c.Function, offs[c.K%3], mpi.SignalName(c.Signal)))
			}
		}
		for _, c := range mpi.Decode[badIndexCrash](w.recs, "badindex_exit") {
			switch {
			case !anyOf(c.Function, fns):
			case libraryExit(c.Exit):
				bad = append(bad, fmt.Sprintf("%s with index %s ended the process with exit status %d without returning", c.Function, offs[c.K%3], c.Exit))
			default:
				x.Errorf("", "the process trying %s with index %s exited with %d", c.Function, offs[c.K%3], c.Exit)
			}
		}
		x.FailOn(bad, "refused: "+strings.Join(got, "; "))
		if len(got) == 0 {
			x.Unsupported("not measurable here: no %s to try out-of-range indices on", strings.ReplaceAll(fns, "|", " or "))
		}
		return badIndexExposure.Pass(refused, "out-of-range indices refused: %s", strings.Join(got, "; "))
	}
}
