package rulebook

import (
	"strings"

	"github.com/mpits/mpits/harness/verdict"
)

// Also notes evidence that is no one problem's (a table, the command that
// ran, the job's output), kept once after the problems' own; like theirs,
// it shows only in a Fail.
func (p *Problems) Also(evidence string) {
	if evidence == "" || p.seen[evidence] {
		return
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[evidence] = true
	p.evidence = append(p.evidence, evidence)
}

// FailAbout is FailOn whose reason first says what the problems are of:
// "what: first (and n more)".
func (p *Problems) FailAbout(x *X, what string) {
	if len(p.list) == 0 {
		return
	}
	ev := strings.Join(p.list, "\n")
	if len(p.evidence) > 0 {
		ev += "\n\n" + strings.Join(p.evidence, "\n")
	}
	x.Failf(ev, "%s: %s", what, verdict.FirstAndMore(p.list))
}
