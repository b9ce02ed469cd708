package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

// The string convention (MPI-5.0 §15.3.3) on every name and description of
// every control and performance variable, category, enumeration and item,
// event type and source the walk (fixtures/c/mpit/walk.c) meets: each test
// of each string is recorded on its own, so each rule has its own verdict.
var stringsCheck = rulebook.Define(rulebook.Check{
	ID:    "MPIT-STRINGS",
	Needs: "mpit",
	Title: "every name and description of every MPI_T object follows the string convention (§15.3.3) and the name and description rules of its get_info",
	Rules: []rulebook.Rule{
		// §15.3.3: "On return, the function writes at most n-1 of the string's
		// characters into the buffer, followed by a null terminator. If the
		// returned string's length is greater than or equal to n, the string will
		// be truncated to n-1 characters."
		{ID: "STR-1", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative,
			Text:      "with a buffer of length n (every n from 1 to the full length + 1) the call succeeds and writes the string's first min(n-1, length) characters and a NUL, nothing past the buffer",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: stringsTriedExposure.Declared(), Judge: strTest("prefix", allKinds, stringsTriedExposure, "every buffer length gives the string's prefix and a NUL, nothing past the buffer")},
		// §15.3.3: "In this case, the length of the string plus one (for the
		// terminating null character) is returned in the length argument." "The
		// string" reads as the full string or as the (truncated) string returned.
		{ID: "STR-2", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Interpretation,
			Text:     "when the string does not fit, the length returned is \"the length of the string plus one\": the full string's (reading 1) or the truncated string's, i.e. n (reading 2); which reading the library follows",
			Exposure: str2Exposure.Declared(), Judge: judgeStr2},
		// The same sentence, under either reading: the length returned for a
		// truncated string is the full length + 1 or n, nothing else.
		{ID: "STR-2a", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative,
			Text:      "when the string does not fit, the length returned is the full length + 1 or n (the truncated string's length + 1), as one of the two readings of §15.3.3 has it",
			Injectors: []string{"inject_mpit_string_len"}, Exposure: str2aExposure.Declared(), Judge: judgeStr2a},
		// §15.3.3: "If the user passes the null pointer as the buffer argument or
		// passes 0 as the length argument, the function does not return the string
		// and only returns the length of the string plus one in the length
		// argument."
		{ID: "STR-3", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative,
			Text:      "with a NULL buffer the call succeeds and returns the string's length + 1",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: stringsTriedExposure.Declared(), Judge: strTest("null_buffer", allKinds, stringsTriedExposure, "a NULL buffer gives the length + 1")},
		// The same sentence, for a length of 0.
		{ID: "STR-4", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative,
			Text:      "with a length of 0 the call succeeds, writes nothing and returns the string's length + 1",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: stringsTriedExposure.Declared(), Judge: strTest("zero_length", allKinds, stringsTriedExposure, "length 0 gives the length + 1 and leaves the buffer alone")},
		// §15.3.3: "If the user passes the null pointer as the length argument,
		// the buffer argument is ignored and nothing is returned."
		{ID: "STR-5", Source: "MPI-5.0 §15.3.3", Basis: rulebook.Normative,
			Text:      "with a NULL length pointer the buffer is not written",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: stringsTriedExposure.Declared(), Judge: strTest("null_length", allKinds, stringsTriedExposure, "a NULL length pointer leaves the buffer alone")},
		// §15.3.6.1 (and §15.3.5, 15.3.7.2, 15.3.8.3, 15.3.9.1 alike): "If
		// completed successfully, the routine is required to return a name of at
		// least length one."
		{ID: "STR-6", Source: "MPI-5.0 §15.3.5-15.3.9", Basis: rulebook.Normative,
			Text:      "every name returned (control and performance variable, category, enumeration, enumeration item, event type) has at least one character",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: str6Exposure.Declared(), Judge: judgeStr6},
		// §15.3.6.1 (and §15.3.7.2, 15.3.8.3, 15.3.9.1 alike): "If an MPI
		// implementation does not return a description, the first character for
		// desc must be set to the null character and desc_len must be set to one
		// at the return of this call."
		{ID: "STR-7", Source: "MPI-5.0 §15.3.6-15.3.9", Basis: rulebook.Normative,
			Text:      "a missing description (control and performance variable, event type, category) reads as \"\" with desc_len 1",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: str7Exposure.Declared(), Judge: strTest("empty_desc", descKinds, str7Exposure, "every missing description gives \"\" and desc_len 1")},
		// §15.3.6.1: "After a successful call to MPI_T_CVAR_GET_INFO for a
		// particular variable, subsequent calls to this routine that query
		// information about the same variable must return the same information."
		// (§15.3.7.2, 15.3.8.3 alike; §15.3.3: output strings of identical
		// internal arrays are equivalent.)
		{ID: "STR-X1", Source: "MPI-5.0 §15.3.6.1, §15.3.7.2, §15.3.8.3", Basis: rulebook.Normative,
			Text:      "asked again, get_info returns the same name and description (control and performance variables, event types)",
			Injectors: []string{"inject_mpit_string_conv"}, Exposure: stringsTriedExposure.Declared(), Judge: strTest("stable", stableKinds, stringsTriedExposure, "every name and description is the same when asked again")},
	},
})

var (
	allKinds    = []string{"cvar", "pvar", "category", "enum", "enum_item", "event", "source"}
	nameKinds   = []string{"cvar", "pvar", "category", "enum", "enum_item", "event"}
	descKinds   = []string{"cvar", "pvar", "category", "event"}
	stableKinds = []string{"cvar", "pvar", "event"}
)

type strSum struct {
	Object     string         `json:"object"`
	Objects    int            `json:"objects"`
	Strings    int            `json:"strings"`
	Calls      int            `json:"calls"`
	Failures   map[string]int `json:"failures"`
	EmptyNames int            `json:"empty_names"`
	EmptyDescs int            `json:"empty_descs"`
	TruncCalls int            `json:"trunc_calls"`
	TruncFull  int            `json:"trunc_full"`
	TruncN     int            `json:"trunc_n"`
	TruncOther int            `json:"trunc_other"`
}

type strFail struct {
	Object string `json:"object"`
	Index  int    `json:"index"`
	Item   int    `json:"item"`
	String string `json:"string"`
	Test   string `json:"test"`
	N      int    `json:"n"`
	RC     string `json:"rc"`
	GotLen int    `json:"got_len"`
	Detail string `json:"detail"`
}

// strRecs are the walk's string records of the kinds a rule covers.
func strRecs(x *rulebook.X, kinds []string) (*walkRecs, []strSum, []strFail) {
	w := walk(x)
	in := set(kinds...)
	var sums []strSum
	for _, s := range mpi.Decode[strSum](w.recs, "strsum") {
		if in[s.Object] && s.Strings > 0 {
			sums = append(sums, s)
		}
	}
	var fails []strFail
	for _, f := range mpi.Decode[strFail](w.recs, "strfail") {
		if in[f.Object] {
			fails = append(fails, f)
		}
	}
	if len(sums) == 0 {
		x.Unsupported("not measurable here: no %s answered get_info after MPI_Init", strings.Join(kinds, ", "))
	}
	return w, sums, fails
}

func tried(sums []strSum) string {
	var t []string
	for _, s := range sums {
		t = append(t, fmt.Sprintf("%d %s strings", s.Strings, s.Object))
	}
	return strings.Join(t, ", ")
}

// stringsTriedExposure (STR-1, -3, -4, -5, -X1, through strTest): every
// string answered is tried (canaries after the buffer, the length set to
// another value first), so each could break the test; the walk counts them.
var stringsTriedExposure = rulebook.Exposure[countedItem]{Items: "strings",
	When: "every string answered (canaries after the buffer, the length set to another value first: each could break the test)"}

// str7Exposure: only a missing description can break the rule; the fixture
// sets desc_len to a large value first, so one the library left alone
// shows.
var str7Exposure = rulebook.Exposure[countedItem]{Items: "missing descriptions",
	When: "every missing description (desc_len is set to a large value first: one the library left alone shows)"}

// strTest judges one test of the string convention on the given kinds,
// passing through e (the rule's exposure).
func strTest(test string, kinds []string, e rulebook.Exposure[countedItem], pass string) func(x *rulebook.X) verdict.Verdict {
	return func(x *rulebook.X) verdict.Verdict {
		_, sums, fails := strRecs(x, kinds)
		var bad []string
		for _, s := range sums {
			if n := s.Failures[test]; n > 0 {
				var ex []string
				for _, f := range fails {
					if f.Object == s.Object && f.Test == test {
						ex = append(ex, fmt.Sprintf("%s %d %s (%d characters, rc %s): %s", f.Object, f.Index, f.String, f.N, f.RC, f.Detail))
					}
				}
				// The fixture records a few examples of each test's failures,
				// not all of them: the count is the summary's.
				bad = append(bad, fmt.Sprintf("%s: %s broke it; e.g. %s", s.Object, plural(n, "call", "calls"), recordedExamples(ex)))
			}
		}
		x.FailOn(bad, "")
		if test == "empty_desc" {
			empty := 0
			for _, s := range sums {
				empty += s.EmptyDescs
			}
			if empty == 0 {
				x.Unsupported("not measurable here: every %s has a description", strings.Join(kinds, ", "))
			}
			return e.Pass(countedItems(empty), "%s (%d missing descriptions)", pass, empty)
		}
		return e.Pass(countedItems(strCount(sums)), "%s: %s", pass, tried(sums))
	}
}

// strCount is the number of strings answered of the kinds summed.
func strCount(sums []strSum) int {
	n := 0
	for _, s := range sums {
		n += s.Strings
	}
	return n
}

// str2Exposure: a truncated call (n <= the length) tells the readings
// apart: the full length + 1 is above n.
var str2Exposure = rulebook.Exposure[countedItem]{Items: "truncated calls",
	When: "every truncated call (n <= the length: the full length + 1 is above n, so the length returned shows the reading)"}

func judgeStr2(x *rulebook.X) verdict.Verdict {
	_, sums, _ := strRecs(x, allKinds)
	var calls, full, n, other int
	for _, s := range sums {
		calls += s.TruncCalls
		full += s.TruncFull
		n += s.TruncN
		other += s.TruncOther
	}
	if calls == 0 {
		x.Unsupported("not measurable here: no string was truncated")
	}
	detail := fmt.Sprintf("%d truncated calls: %d returned the full length + 1, %d returned n, %d neither", calls, full, n, other)
	// a truncated call (n <= the length) tells the readings apart: the
	// full length + 1 is above n
	reading := "neither (" + detail + "; see STR-2a)"
	switch {
	case full > 0 && n == 0:
		reading = "the full string's length + 1 (" + detail + ")"
	case n > 0 && full == 0:
		reading = "the truncated string's length + 1, i.e. n (" + detail + ")"
	case n > 0 && full > 0:
		reading = "both, object by object (" + detail + ")"
	}
	return str2Exposure.Pass(countedItems(calls), "reading: %s", reading)
}

// str2aExposure: each truncated call could have returned another length.
var str2aExposure = rulebook.Exposure[countedItem]{Items: "truncated calls",
	When: "every truncated call (each could have returned another length)"}

func judgeStr2a(x *rulebook.X) verdict.Verdict {
	_, sums, _ := strRecs(x, allKinds)
	var bad []string
	calls := 0
	for _, s := range sums {
		calls += s.TruncCalls
		if s.TruncOther > 0 {
			bad = append(bad, fmt.Sprintf("%s: %d of %d truncated calls returned a length that is neither the full length + 1 nor n", s.Object, s.TruncOther, s.TruncCalls))
		}
	}
	x.FailOn(bad, "")
	if calls == 0 {
		x.Unsupported("not measurable here: no string was truncated")
	}
	return str2aExposure.Pass(countedItems(calls), "%d truncated calls return the full length + 1 or n", calls)
}

// str6Exposure: the fixture empties the name buffer first, so a name the
// library did not write reads as empty.
var str6Exposure = rulebook.Exposure[countedItem]{Items: "names",
	When: "every name (the buffer is emptied first: a name the library did not write reads as empty)"}

func judgeStr6(x *rulebook.X) verdict.Verdict {
	_, sums, _ := strRecs(x, nameKinds)
	var bad []string
	for _, s := range sums {
		if s.EmptyNames > 0 {
			bad = append(bad, fmt.Sprintf("%s: %d empty names (a name must have at least one character)", s.Object, s.EmptyNames))
		}
	}
	x.FailOn(bad, "")
	// one name an object (enumerations and items have no description)
	names, by := 0, []string{}
	for _, s := range sums {
		names += s.Objects
		by = append(by, fmt.Sprintf("%d %s", s.Objects, s.Object))
	}
	return str6Exposure.Pass(countedItems(names), "no empty name among %d names (%s)", names, strings.Join(by, ", "))
}
