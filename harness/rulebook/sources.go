package rulebook

import (
	"fmt"
	"regexp"
	"strings"
)

// A rule's source is an edition and printed sections of the MPI standard,
// "MPI-5.0 §15.3.7.1", "MPI-5.0 §15.3.6-15.3.9 (Table 23)", "MPI-5.0 §9.4,
// §15.3.10", "MPI-5.0 §20.3, Annex A", or a seed document, "seed 000".
// Sections use the printed numbering (the HTML edition numbers chapters one
// higher); every one must be a heading of the standard (sections_gen.go,
// generated from ../shared/reference/standard by mpits sections).
var (
	sourceRE = regexp.MustCompile(`^(MPI-(?:4\.1|5\.0)) (.+?)(?: \(([^()]+)\))?$`)
	seedRE   = regexp.MustCompile(`^seed (00[0-4])$`)
)

// Seeds are the documents of ../shared/seeds a seed source may name.
var Seeds = map[string]string{
	"000": "QMPI API", "001": "QMPI design", "002": "MPI_T events callback requirements",
	"003": "wi4mpi developer guide", "004": "MPICH's MPI_T design",
}

// CheckSource says what is wrong with a source, or nil.
func CheckSource(src string) error {
	if seedRE.MatchString(src) {
		return nil
	}
	m := sourceRE.FindStringSubmatch(src)
	if m == nil {
		return fmt.Errorf("source %q is neither \"MPI-5.0 §15.3.3\" (edition, printed section) nor \"seed 000\"", src)
	}
	edition, list := m[1], m[2]
	known := Sections[edition]
	for _, item := range strings.Split(list, ", ") {
		item = strings.TrimPrefix(item, "§")
		if item == "Annex A" || item == "Annex B" {
			continue
		}
		lo, hi, isRange := strings.Cut(item, "-")
		ends := []string{lo}
		if isRange {
			// "15.3.9.1-2" is 15.3.9.1 to 15.3.9.2
			if !strings.Contains(hi, ".") {
				hi = lo[:strings.LastIndex(lo, ".")+1] + hi
			}
			ends = append(ends, hi)
		}
		for _, e := range ends {
			if !known[e] {
				return fmt.Errorf("source %q: %s has no section %s (printed numbering: Tool Support is Chapter 15, the ABI Chapter 20)", src, edition, e)
			}
		}
	}
	return nil
}

// SourceLabel is a source as a Ginkgo label value (no '/', ',', spaces or
// parentheses): its edition and first section, "MPI-5.0:15.3.3", or
// "seed-000".
func SourceLabel(src string) string {
	if m := seedRE.FindStringSubmatch(src); m != nil {
		return "seed-" + m[1]
	}
	m := sourceRE.FindStringSubmatch(src)
	if m == nil {
		return "unknown"
	}
	first := strings.Split(m[2], ", ")[0]
	first, _, _ = strings.Cut(strings.TrimPrefix(first, "§"), "-")
	return m[1] + ":" + strings.ReplaceAll(first, " ", "-")
}
