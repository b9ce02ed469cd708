package main

import "testing"

// contrivedLeft are the contrived injectors not yet replaced (issue 32
// item 6); the test fails on any other, and on one of these once it is no
// longer contrived.
var contrivedLeft = map[string]bool{}

func TestInjectorsClassed(t *testing.T) {
	list, err := injectorClasses()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ic := range list {
		seen[ic.File] = true
		switch {
		case ic.Class == classContrived && !contrivedLeft[ic.File]:
			t.Errorf("fixtures/c/inject/%s is contrived (%s): replace it by one that breaks the library at the API as a real library could", ic.File, ic.Mimics)
		case ic.Class != classContrived && contrivedLeft[ic.File]:
			t.Errorf("fixtures/c/inject/%s is %s now: drop it from contrivedLeft", ic.File, ic.Class)
		case ic.Class != classConformer && len(ic.Names) == 0:
			t.Errorf("fixtures/c/inject/%s is no suite's injector", ic.File)
		}
	}
	for f := range contrivedLeft {
		if !seen[f] {
			t.Errorf("contrivedLeft names %s, which is not in fixtures/c/inject", f)
		}
	}
}

func TestParseClassLine(t *testing.T) {
	for line, ok := range map[string]bool{
		"// class: realistic — mimics: a lost flag": true,
		"// class: conformer — mimics: x":           true,
		"// class: realistic — mimics: ":            false,
		"// class: plausible — mimics: x":           false,
		"/* Fault injector */":                      false,
	} {
		if _, _, got := parseClassLine(line); got != ok {
			t.Errorf("parseClassLine(%q) ok = %v, want %v", line, got, ok)
		}
	}
}
