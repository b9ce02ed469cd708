package mpit

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness"
)

// MPI-4.1 §16.3.3 (Convention for Returning Strings): with a buffer of n the
// function "writes at most n-1 of the string's characters into the buffer,
// followed by a null terminator. If the returned string's length is greater
// than or equal to n ... the length of the string plus one ... is returned";
// a null buffer or length 0 "only returns the length of the string plus
// one"; a null length pointer: "the buffer argument is ignored and nothing is
// returned". §16.3.5-16.3.9: get_info "is required to return a name of at
// least length one"; without a description "the first character for desc
// must be set to the null character and desc_len must be set to one".
var stringsCheck = harness.Define(harness.Check{
	ID:        "MPIT-STRINGS-001",
	Clause:    "MPI-4.1:16.3.3",
	Needs:     "mpit",
	Title:     "every name and description of every control and performance variable, category, enumeration and item, event type and source follows the string convention (NULL buffer, length 0, every length 1 to full + 1, NULL length pointer) and names are not empty",
	Injectors: []string{"inject_mpit_string_len"},
	Run:       runStrings,
})

type strSum struct {
	Object     string `json:"object"`
	Objects    int    `json:"objects"`
	Strings    int    `json:"strings"`
	Calls      int    `json:"calls"`
	Failures   int    `json:"failures"`
	EmptyNames int    `json:"empty_names"`
	EmptyDescs int    `json:"empty_descs"`
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

func runStrings(x *harness.X) harness.Verdict {
	w := walk(x)
	sums := decode[strSum](w.recs, "strsum")
	fails := decode[strFail](w.recs, "strfail")
	var p problems
	var objects, strs, calls, emptyDescs int
	var tried []string
	byTest := map[string]int{}
	for _, f := range fails {
		byTest[f.Test]++
	}
	for _, s := range sums {
		objects += s.Objects
		strs += s.Strings
		calls += s.Calls
		emptyDescs += s.EmptyDescs
		if s.Objects > 0 {
			tried = append(tried, fmt.Sprintf("%d %s", s.Objects, s.Object))
		}
		if s.Failures > 0 {
			first := ""
			for _, f := range fails {
				if f.Object == s.Object {
					first = fmt.Sprintf("; e.g. %s %d %s (%d characters): %s", f.Object, f.Index, f.String, f.N, f.Detail)
					break
				}
			}
			p.add("%s strings: %d of %d calls broke the convention%s", s.Object, s.Failures, s.Calls, first)
		}
		if s.EmptyNames > 0 {
			p.add("%s: %d empty names (a name must have at least one character)", s.Object, s.EmptyNames)
		}
	}
	if objects == 0 {
		x.Unsupported("no MPI_T object answered get_info after MPI_Init (no strings to try)")
	}
	if len(fails) > 0 {
		var bt []string
		for t, n := range byTest {
			bt = append(bt, fmt.Sprintf("%s %d", t, n))
		}
		lines := []string{"first failure of each failing string (recorded ones), by test: " + strings.Join(bt, ", ")}
		for _, f := range fails {
			lines = append(lines, fmt.Sprintf("  %s %d item %d %s [%s, %d characters]: rc %s, length %d: %s", f.Object, f.Index, f.Item, f.String, f.Test, f.N, f.RC, f.GotLen, f.Detail))
		}
		p.evidence = strings.Join(lines, "\n")
	}
	p.fail(x, "problems")
	return harness.Verdict{Reason: fmt.Sprintf("%d strings of %s follow the convention (%d calls; %d empty descriptions give \"\" and 1)",
		strs, strings.Join(tried, ", "), calls, emptyDescs)}
}
