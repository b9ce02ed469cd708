package settings

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// EnvEnv is the environment of the implementation MPITS_MPI or MPITS_MPICC
// describe: NAME=VALUE lines, given to its compiler wrapper, every probe
// and every job (an implementations file gives each entry its "env").
const EnvEnv = "MPITS_ENV"

// envName is what a variable's name may be: a shell's names.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Assignments reads NAME=VALUE lines, one variable a line (a value may
// hold spaces, ':' and '='; blank lines are skipped). The error names the
// line and what is wrong with it, in a few words.
func Assignments(v string) (map[string]string, error) {
	out := map[string]string{}
	for i, line := range strings.Split(v, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		switch {
		case !ok:
			return nil, fmt.Errorf("line %d, %q, has no '=': give NAME=VALUE", i+1, line)
		case name == "":
			return nil, fmt.Errorf("line %d, %q, has no name before '='", i+1, line)
		case !envName.MatchString(name):
			return nil, fmt.Errorf("line %d: %q is not a variable name (letters, digits and '_', not first a digit)", i+1, name)
		case strings.IndexFunc(value, unicode.IsControl) >= 0:
			return nil, fmt.Errorf("line %d: the value of %s holds a control character (%q): a value is one line of text", i+1, name, value)
		}
		out[name] = value
	}
	return out, nil
}

// Assignments is the value as NAME=VALUE lines (Assignments); nil when
// unset or refused (a value its check refuses was refused at start).
func (v Value) Assignments() map[string]string {
	m, err := Assignments(v.raw)
	if err != nil || len(m) == 0 {
		return nil
	}
	return m
}

func checkAssignments(v string) error {
	_, err := Assignments(v)
	return err
}
