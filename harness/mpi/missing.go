package mpi

import (
	"regexp"
	"slices"
	"strings"
)

// A fixture the compiler or linker refused only because the implementation
// lacks a name it uses (a function of its library, a declaration of its
// mpi.h, a header, a Fortran module) is a fact about the implementation,
// judged by the rule that uses it; a refusal for any other reason is the
// suite's own defect, an error.

var (
	// The names an implementation provides: MPI's, its profiling and
	// tools' names, its headers and modules.
	implName = regexp.MustCompile(`^(?:P?MPIX?_\w+|QMPI_\w+|mpi\w*\.h|mpi\w*)$`)
	lacking  = []*regexp.Regexp{
		quoted(`undefined reference to «(\w+)»`),
		quoted(`error: «(\w+)» undeclared`),
		quoted(`error: unknown type name «(\w+)»`),
		quoted(`error: implicit declaration of function «(\w+)»`),
		regexp.MustCompile(`fatal error: ([\w./-]+\.h): No such file or directory`),
		quoted(`Cannot open module file «(\w+)\.mod»`),
	}
	// Lines that only follow from the ones above.
	consequences = []string{"ld returned 1 exit status", "in function `", "in function ‘", "undeclared identifier is reported only once",
		"compilation terminated", "for each function it appears in"}
)

// quoted compiles a pattern whose «name» is quoted as the compilers quote
// it: 'name' (gcc under LC_ALL=C), ‘name’ (gcc under a UTF-8 locale),
// `name' (ld). Builds run the compiler under LC_ALL=C (compilerLocale);
// a wrapper that sets its own locale, or output kept from before, may
// still have the others.
func quoted(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.NewReplacer("«", "[`'‘]", "»", "['’]").Replace(pattern))
}

// MissingNames are the implementation's names a refused build's output
// says are missing, sorted; ok is false unless every complaint in it is of
// a missing name of the implementation.
func MissingNames(out string) (names []string, ok bool) {
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		found := false
		for _, re := range lacking {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				if !implName.MatchString(m[1]) {
					return nil, false // the fixture's own name: the suite's defect
				}
				found = true
				if !seen[m[1]] {
					seen[m[1]] = true
					names = append(names, m[1])
				}
			}
		}
		if !found && isComplaint(line) {
			return nil, false
		}
	}
	slices.Sort(names)
	return names, len(names) > 0
}

// isComplaint tells a line that reports an error, not a note, a warning or
// one of the consequences of a missing name.
func isComplaint(line string) bool {
	for _, c := range consequences {
		if strings.Contains(line, c) {
			return false
		}
	}
	return isErrorLine(line)
}
