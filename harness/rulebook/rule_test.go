package rulebook

import (
	"strings"
	"testing"
)

func TestCheckSource(t *testing.T) {
	good := []string{"MPI-5.0 §15.3.3", "MPI-4.1 §15.3.4", "MPI-5.0 §15.3.7.1 (Table 23)", "MPI-5.0 §15.3.6-15.3.9",
		"MPI-5.0 §9.4, §15.3.10", "MPI-5.0 §20.3, Annex A", "MPI-5.0 §15.3.9.1-2", "MPI-5.0 §11.3", "seed 000", "seed 004"}
	for _, s := range good {
		if err := CheckSource(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	bad := map[string]string{
		"MPI-4.1:16.3.6":   "neither",
		"MPI-4.1 §16.3.6":  "no section 16.3.6", // HTML numbering
		"MPI-5.0 §15.3.99": "no section 15.3.99",
		"seed:000":         "neither",
		"seed 009":         "neither",
		"MPI-3.1 §14.3":    "neither",
	}
	for s, want := range bad {
		if err := CheckSource(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", s, err, want)
		}
	}
}

func TestSourceLabel(t *testing.T) {
	for src, want := range map[string]string{
		"MPI-5.0 §15.3.3":              "MPI-5.0:15.3.3",
		"MPI-5.0 §15.3.6-15.3.9":       "MPI-5.0:15.3.6",
		"MPI-5.0 §9.4, §15.3.10":       "MPI-5.0:9.4",
		"MPI-5.0 §15.3.7.1 (Table 23)": "MPI-5.0:15.3.7.1",
		"seed 001":                     "seed-001",
	} {
		if got := SourceLabel(src); got != want {
			t.Errorf("SourceLabel(%q) = %q, want %q", src, got, want)
		}
	}
}

// A suite rule judges a checklist rule by its id, or by its id and one
// lowercase letter for a part of it.
func TestCoversChecklist(t *testing.T) {
	for _, c := range []struct {
		rule, item string
		want       bool
	}{{"STR-3", "STR-3", true}, {"STR-2a", "STR-2", true}, {"STR-31", "STR-3", false}, {"PVAR-14a", "PVAR-14a", true}, {"CAT-X1", "CAT-1", false}} {
		if got := CoversChecklist(c.rule, c.item); got != c.want {
			t.Errorf("CoversChecklist(%s, %s) = %v", c.rule, c.item, got)
		}
	}
}
