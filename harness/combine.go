package harness

import (
	"slices"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
)

// Combine makes one suite of several, for a run of them all in one process
// (mpits run): one setup probes each implementation and builds every
// fixture once, one Ginkgo run judges every rule, one summary and one JUnit
// file end it. Each rule keeps its own suite's name in every report, and
// each suite keeps its own expectations file.
func Combine(name string, parts ...*Suite) *Suite {
	s := &Suite{Name: name, parts: parts, owner: map[string]string{}}
	for _, p := range parts {
		for _, c := range p.Checks {
			s.owner[c.ID] = p.Name
		}
		s.Checks = append(s.Checks, p.Checks...)
		s.Fixtures = appendNew(s.Fixtures, p.Fixtures)
		s.Injectors = appendNew(s.Injectors, p.Injectors)
	}
	return s
}

// appendNew adds the fixtures of more whose name list does not hold yet
// (two suites may build the same program).
func appendNew(list, more []mpi.Fixture) []mpi.Fixture {
	for _, f := range more {
		if !slices.ContainsFunc(list, func(g mpi.Fixture) bool { return g.Name == f.Name }) {
			list = append(list, f)
		}
	}
	return list
}

// Parts are the suites s runs: its parts when combined, else s alone.
func (s *Suite) Parts() []*Suite {
	if len(s.parts) == 0 {
		return []*Suite{s}
	}
	return s.parts
}

// suiteOf is the name of the suite check c belongs to.
func (s *Suite) suiteOf(c rulebook.Check) string {
	if n, ok := s.owner[c.ID]; ok {
		return n
	}
	return s.Name
}

// partNames are the names of the suites s runs.
func (s *Suite) partNames() []string {
	var out []string
	for _, p := range s.Parts() {
		out = append(out, p.Name)
	}
	return out
}
