package harness

import (
	"github.com/mpits/mpits/harness/rulebook"
)

// RuleInfos lists every rule of the suites in declaration order.
func RuleInfos(suites ...*Suite) []rulebook.RuleInfo {
	var out []rulebook.RuleInfo
	for _, s := range suites {
		for _, c := range s.Checks {
			for _, r := range c.AllRules() {
				out = append(out, s.Info(c, r))
			}
		}
	}
	return out
}

// ValidateAll validates suites together (rule ids are unique across them).
func ValidateAll(suites ...*Suite) error {
	seen := map[string]string{}
	for _, s := range suites {
		if err := s.Validate(seen); err != nil {
			return err
		}
	}
	return nil
}
