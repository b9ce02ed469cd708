package report

import (
	"path/filepath"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
	"github.com/mpits/mpits/harness/settings"
)

// Write writes a suite's own report, name (a Markdown file), into
// MPITS_REPORT_DIR; a run without that setting keeps no reports.
func Write(name, text string) error {
	dir := settings.Setting("MPITS_REPORT_DIR").String()
	if dir == "" {
		return nil
	}
	return mpi.WriteAtomic(filepath.Join(dir, name), []byte(text), 0o644)
}

// Cell makes text safe inside a Markdown table cell.
func Cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
