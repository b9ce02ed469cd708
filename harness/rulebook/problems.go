package rulebook

import (
	"fmt"
	"strings"
)

// Problems collects what broke a rule, each with its evidence, so that a
// judge reports every problem it finds, not only the first.
type Problems struct {
	list     []string
	evidence []string
	seen     map[string]bool
}

// Add notes one problem; evidence shared by several problems is kept once.
func (p *Problems) Add(evidence, format string, args ...any) {
	p.list = append(p.list, fmt.Sprintf(format, args...))
	p.Also(evidence)
}

// Len is how many problems were noted.
func (p *Problems) Len() int { return len(p.list) }

// FailOn ends the rule with Fail when any problem was noted: the reason
// names the first and how many more, the evidence lists them all.
func (p *Problems) FailOn(x *X) {
	x.FailOn(p.list, strings.Join(p.evidence, "\n"))
}
