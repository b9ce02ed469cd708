package harness

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/settings"
	"github.com/mpits/mpits/harness/verdict"
)

// The injectors MPITS_INJECT names that this suite has.
var (
	injectNames []string
	injectWarn  sync.Map // impl+injector that did not build, warned once
)

// readInject reads MPITS_INJECT for suite s: a name that is not one of its
// injectors is said on stderr (go test ./suites/... runs every suite with
// the same setting), not refused.
func readInject(s *Suite) {
	injectNames = nil
	names := settings.Setting(settings.InjectEnv).List()
	if len(names) == 0 {
		return
	}
	have := map[string]bool{}
	for _, f := range s.Injectors {
		have[f.Name] = true
	}
	var missing []string
	for _, n := range names {
		if have[n] {
			injectNames = append(injectNames, n)
		} else {
			missing = append(missing, n)
		}
	}
	if len(injectNames) > 0 {
		fmt.Fprintf(os.Stderr, "mpits %s (%s): every job preloads %s (a test setting: the verdicts are not the implementation's own)\n", s.Name, settings.InjectEnv, strings.Join(injectNames, ", "))
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "mpits %s (%s): %s is not an injector of this suite; its jobs run without it\n", s.Name, settings.InjectEnv, strings.Join(missing, ", "))
	}
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
