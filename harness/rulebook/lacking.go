package rulebook

import (
	"fmt"
	"strings"

	"github.com/mpits/mpits/harness/verdict"
)

// Lacking ends a judge whose fixture was refused for names the
// implementation lacks. It is judged by the rule being judged (Rule.Lacks),
// not by the first rule to meet it: a job several rules share replays it to
// each of them.
type Lacking struct {
	Fixture  string
	Names    []string
	Evidence string // the compiler's or linker's output
}

// EndsJudgement: a lacking name ends the rule as meant (mpi.StopOf).
func (Lacking) EndsJudgement() {}

func (l Lacking) String() string {
	return fmt.Sprintf("fixture %s: the implementation lacks %s", l.Fixture, strings.Join(l.Names, ", "))
}

// lackingVerdict judges l for the rule x is judging.
func (x *X) lackingVerdict(l Lacking) verdict.Verdict {
	if x.rule != nil && x.rule.Lacks != nil {
		if v := x.rule.Lacks(x, l.Names); v.Status != "" {
			if v.Evidence == "" {
				v.Evidence = l.Evidence
			}
			return v
		}
	}
	return verdict.Verdict{Status: verdict.Unsupported, Evidence: l.Evidence,
		Reason: fmt.Sprintf("not judged here: %s lacks %s, which fixture %s uses (%s)", x.Impl.ID, strings.Join(l.Names, ", "), l.Fixture, verdict.FirstLine(l.Evidence))}
}
