package abi

import (
	"sort"
	"strings"
	"testing"
)

// TestHandListMatchesAnnexA1 compares the hand transcription of the ABI
// values (standard.go) with Annex A.1.1 as the text gives it
// (standard_constants_gen.go) and names every difference: a constant of
// the hand list that A.1.1 does not list with a C type and an ABI value, a
// value or a type that differs, and an A.1.1 constant with a C binding and
// an ABI value that the hand list lacks. Where they differ, the text is
// right.
func TestHandListMatchesAnnexA1(t *testing.T) {
	text := map[string]a11C{}
	for _, c := range standardCConstants() {
		text[c.Name] = c
	}
	var diffs []string
	hand := map[string]bool{}
	notABI := map[string]bool{}
	for _, c := range standardVersion {
		notABI[c.Name] = true
	}
	check := func(list []stdConst, typeOK func(c a11C, h stdConst) bool) {
		for _, h := range list {
			hand[h.Name] = true
			c, ok := text[h.Name]
			switch {
			case !ok:
				diffs = append(diffs, h.Name+": in standard.go, not a C constant of Annex A.1.1")
			case !c.HasValue:
				diffs = append(diffs, h.Name+": standard.go fixes "+itoa64(h.Value)+", Annex A.1.1 gives no ABI value ("+c.ValueText+")")
			case c.Value != h.Value:
				diffs = append(diffs, h.Name+": standard.go "+itoa64(h.Value)+", Annex A.1.1 "+c.ValueText)
			case !typeOK(c, h):
				diffs = append(diffs, h.Name+": standard.go type "+h.Type+", Annex A.1.1 C type "+c.CType)
			}
		}
	}
	check(standardHandles, func(c a11C, h stdConst) bool { return c.Kind == kindTyped && c.Type == h.Type })
	// integers: an integer constant expression, a macro with an int value,
	// or a constant of an enumerated type of A.1.2 (MPI_T_source_order,
	// MPI_T_cb_safety)
	enumTypes := map[string]bool{"MPI_T_source_order": true, "MPI_T_cb_safety": true}
	check(standardInts, func(c a11C, h stdConst) bool {
		return c.Kind == kindICE || c.Kind == kindMacro || (c.Kind == kindTyped && enumTypes[c.Type])
	})
	// addresses: a pointer type (written with a '*'), a predefined function,
	// or a handle of the tool information interface
	check(standardPointers, func(c a11C, h stdConst) bool {
		return strings.Contains(c.Type, "*") || c.Kind == kindFunction || strings.HasPrefix(c.Type, "MPI_T_")
	})
	for _, c := range standardCConstants() {
		if c.HasValue && !hand[c.Name] {
			diffs = append(diffs, c.Name+": Annex A.1.1 gives ABI value "+c.ValueText+" ("+c.Group+"), standard.go lacks it")
		}
		if !c.HasValue && c.ValueText != "" && !notABI[c.Name] {
			diffs = append(diffs, c.Name+": Annex A.1.1 gives no ABI value ("+c.ValueText+"), and standard.go does not say it is no ABI constant")
		}
	}
	for name := range notABI {
		if c, ok := text[name]; !ok || c.ValueText != "N/A" {
			diffs = append(diffs, name+": standard.go says it is no ABI constant, Annex A.1.1 does not give it as N/A")
		}
	}
	// A constant the text lists twice has one C type and one value.
	first := map[string]a11Const{}
	for _, c := range standardA11 {
		if f, ok := first[c.Name]; ok && (f.CType != c.CType || f.ValueText != c.ValueText) {
			diffs = append(diffs, c.Name+": Annex A.1.1 lists it twice, as "+f.CType+" "+f.ValueText+" and "+c.CType+" "+c.ValueText)
		}
		if _, ok := first[c.Name]; !ok {
			first[c.Name] = c
		}
	}
	// The handle types of standard.go are those of A.1.2's "C handles".
	var handles []string
	for _, ty := range standardA12 {
		if ty.Group == "C handles to assorted structures" {
			handles = append(handles, ty.Name)
		}
	}
	sort.Strings(handles)
	if strings.Join(handles, " ") != strings.Join(handleTypes, " ") {
		diffs = append(diffs, "handle types: standard.go "+strings.Join(handleTypes, " ")+", Annex A.1.2 "+strings.Join(handles, " "))
	}
	for _, d := range diffs {
		t.Error(d)
	}
}

// TestAnnexA1Parsed: the generated lists hold what the text's tables do
// (counts taken from the text; a change of the text or of its reading
// shows here).
func TestAnnexA1Parsed(t *testing.T) {
	c := standardCConstants()
	kinds := map[string]int{}
	for _, x := range c {
		kinds[x.Kind]++
	}
	if len(standardA11) < 300 || len(c) < 290 || len(standardA12) != 25 {
		t.Fatalf("A.1.1: %d rows, %d C constants; A.1.2: %d types", len(standardA11), len(c), len(standardA12))
	}
	if kinds[kindMacro] != 4 || kinds[kindFunction] != 14 {
		t.Errorf("A.1.1: %d macros (want MPI_VERSION, MPI_SUBVERSION, MPI_ABI_VERSION, MPI_ABI_SUBVERSION), %d predefined functions (want 14)", kinds[kindMacro], kinds[kindFunction])
	}
	for _, x := range c {
		if x.Type == "" || strings.ContainsAny(x.Type, "|^") {
			t.Errorf("%s: C type %q", x.Name, x.Type)
		}
	}
}

func itoa64(v int64) string {
	if v < 0 {
		return "-" + itoa64(-v)
	}
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa64(v/10) + string(rune('0'+v%10))
}
