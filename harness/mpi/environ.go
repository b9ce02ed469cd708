package mpi

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// The environment of an implementation's processes: this process's, then
// the implementation's Env (what its library needs to load: a module's
// variables, a translation layer's, MPITS_ENV), then the job's own; a
// later value wins. Its compiler wrappers, its probes and its jobs all
// get it.

// environ is the environment of a process of im: first (what the
// implementation may override), then im.Env, then extra.
func (im *Impl) environ(first []string, extra map[string]string) []string {
	env := append(os.Environ(), first...)
	env = append(env, SortedAssignments(im.Env)...)
	return append(env, SortedAssignments(extra)...)
}

// askDeadline bounds a question to an implementation's tool (a compiler
// wrapper's -show): it answers at once or not at all.
const askDeadline = 30 * time.Second

// ask runs one of im's tools (through its command prefix, with its
// environment) and returns what it printed on stdout.
func (im *Impl) ask(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), askDeadline)
	defer cancel()
	argv := im.Command(name, args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = im.environ(nil, nil)
	out, err := cmd.Output()
	return string(out), err
}

// isCompiler tells whether a direct run of program is one of im's
// compilers (its C and Fortran wrappers, its ABI compiler): the fixtures'
// builds and the suites' header probes.
func (im *Impl) isCompiler(program string) bool {
	if program == "" {
		return false
	}
	cc := []string{im.CC, im.FC}
	if im.ABI != nil {
		cc = append(cc, im.ABI.CC)
	}
	return slices.Contains(cc, program)
}

// compilerLocale makes a compiler speak English with ASCII quotes: what it
// says is read (MissingNames) and quoted (a build's cause line), and under
// another locale a name mpi.h lacks was no longer recognised (gcc quotes
// it ‘so’ under C.UTF-8, and «so» in French). LANGUAGE is dropped too:
// gettext reads it before LC_ALL's messages, except under C.
func compilerLocale(env []string) []string {
	env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "LANGUAGE=") })
	return append(env, "LC_ALL=C")
}
