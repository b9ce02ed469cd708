package main

import (
	"fmt"
	"runtime/debug"

	"github.com/mpits/mpits/harness"
)

// cmdVersion names the suite a binary holds: its module version or commit
// (what go build or go install recorded) and the rules it judges.
func cmdVersion([]string) error {
	fmt.Printf("mpits %s, %d rules in %d suites\n", buildVersion(), len(harness.RuleInfos(suites...)), len(suites))
	return nil
}

// buildVersion is the module's version (go install module@version) or the
// commit the binary was built from, with "+changes" when its tree had
// uncommitted changes.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown build)"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+changes"
			}
		}
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	if rev != "" {
		return "commit " + rev + dirty
	}
	return "(devel, no commit recorded)"
}
