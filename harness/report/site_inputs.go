package report

// What the HTML site (harness/report/site) reads of the matrix's own
// bookkeeping, so that it counts turns and histories as matrix.md does.

// Turned tells, for rule on impl, whether a fault injector of the rule ran
// on a pass there (known) and whether one turned it to fail (turned).
func Turned(injs []Injection) func(rule, impl string) (turned, known bool) {
	m := passesTurned(injs)
	return func(rule, impl string) (bool, bool) {
		t, ok := m[rule+"\x00"+impl]
		return t, ok
	}
}

// Families is rule id's history: one line per family, each version's
// verdicts and what the sequence says (the lines finding pages show).
func (h *history) Families(id string) []string { return h.families(id) }
