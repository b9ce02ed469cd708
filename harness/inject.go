package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// The injectors MPITS_INJECT names that this suite has.
var (
	injectNames []string
	injectWarn  sync.Map // impl+injector that did not build, and lines said, warned once
)

// readInject reads MPITS_INJECT for suite s: a name no suite has an
// injector of (no fixtures/c/inject/<name>.c) is refused; one that is
// another suite's is said on stderr (go test ./suites/... runs every suite
// with the same setting).
func readInject(s *Suite) error {
	injectNames = nil
	names := settings.Setting(settings.InjectEnv).List()
	if len(names) == 0 {
		return nil
	}
	have := map[string]bool{}
	for _, f := range s.Injectors {
		have[f.Name] = true
	}
	var missing []string
	for _, n := range names {
		if have[n] {
			injectNames = append(injectNames, n)
			continue
		}
		if err := injectorSource(n); err != nil {
			return fmt.Errorf("%s=%q: %v: name fault injectors (mpits injectors lists them)", settings.InjectEnv, settings.Setting(settings.InjectEnv).String(), err)
		}
		missing = append(missing, n)
	}
	if len(injectNames) > 0 {
		sayOnce(fmt.Sprintf("mpits %s (%s): every job preloads %s (a test setting: the verdicts are not the implementation's own)", s.Name, settings.InjectEnv, strings.Join(injectNames, ", ")))
	}
	if len(missing) > 0 {
		sayOnce(fmt.Sprintf("mpits %s (%s): %s is not an injector of this suite; its jobs run without it", s.Name, settings.InjectEnv, strings.Join(missing, ", ")))
	}
	return nil
}

// sayOnce writes line to stderr the first time a process says it (a run's
// preflight and its start read the same settings).
func sayOnce(line string) {
	if _, said := injectWarn.LoadOrStore("said\x00"+line, true); !said {
		fmt.Fprintln(os.Stderr, line)
	}
}

// injectorSource says why name is no fault injector of any suite: it has
// no source among the fixtures' injectors.
func injectorSource(name string) error {
	if !settings.ImplIDPattern.MatchString(name) {
		return fmt.Errorf("%q is not a name", name)
	}
	dir, err := mpi.FixturesDir()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "inject", name+".c")); err != nil {
		return fmt.Errorf("%s is no fault injector (%s has no %s.c)", name, filepath.Join(dir, "inject"), name)
	}
	return nil
}

// injected is what MPITS_INJECT preloads into the jobs of e's rules.
func injected(e *rulebook.Env) []string {
	var out []string
	for _, n := range injectNames {
		b := e.Fixtures[n]
		if b.Path == "" || b.Error != "" {
			if _, warned := injectWarn.LoadOrStore(e.Impl.ID+"\x00"+n, true); !warned {
				fmt.Fprintf(os.Stderr, "mpits: %s: %s did not build for %s (%s); its jobs run without it\n", settings.InjectEnv, n, e.Impl.ID, verdict.FirstLine(b.Error))
			}
			continue
		}
		out = append(out, b.Path)
	}
	return out
}
