package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/mpi"
)

// TwinsMarkdown compares, for every implementation built as the twin of
// another but for one configure flag (mpich-noqmpi: QMPI compiled out), the
// verdicts of the rules that do not need what the flag changes: seed 001
// asks that QMPI compiled in and unused change nothing (issue 3, check 13).
func TwinsMarkdown(rows []Row, probed []mpi.Probed) string {
	byImpl := map[string]map[string]Row{}
	for _, r := range rows {
		if byImpl[r.Impl] == nil {
			byImpl[r.Impl] = map[string]Row{}
		}
		byImpl[r.Impl][r.ID] = r
	}
	var b strings.Builder
	for _, p := range probed {
		twin, of := p.Impl.ID, p.Impl.TwinOf
		if of == "" || byImpl[twin] == nil || byImpl[of] == nil {
			continue
		}
		var same []string
		var differ []string
		for check, r := range byImpl[of] {
			if r.Suite == "QMPI" {
				continue // the flag is QMPI's: its own suite tells the two apart
			}
			t, ok := byImpl[twin][check]
			switch {
			case !ok:
				differ = append(differ, fmt.Sprintf("%s: %s on %s, not run on %s", check, r.Status, of, twin))
			case t.Status != r.Status:
				differ = append(differ, fmt.Sprintf("%s: %s on %s (%s), %s on %s (%s)", check, r.Status, of, r.Reason, t.Status, twin, t.Reason))
			default:
				same = append(same, check)
			}
		}
		sort.Strings(differ)
		fmt.Fprintf(&b, "\n## %s against its twin %s\n\n%s is %s built without one configure flag (see implementations.md). ", of, twin, twin, of)
		fmt.Fprintf(&b, "Of the %d rules outside the QMPI suite, %d give the same verdict on both", len(same)+len(differ), len(same))
		if len(differ) == 0 {
			b.WriteString(": compiled in and unused, QMPI changes no verdict of the other suites.\n")
			continue
		}
		b.WriteString("; these differ:\n\n")
		for _, d := range differ {
			fmt.Fprintf(&b, "- %s\n", d)
		}
	}
	return b.String()
}
