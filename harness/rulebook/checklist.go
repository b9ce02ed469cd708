package rulebook

import (
	"strings"
	"unicode"
)

// ChecklistEntry is one rule of the project's checklist (checklist_gen.go).
type ChecklistEntry struct {
	ID, Area, Source, Basis string
}

// CoversChecklist tells whether a suite rule id judges a checklist id: the
// same id, or the id with a lowercase letter (STR-2a, CAT-4b) for a part of
// it.
func CoversChecklist(ruleID, checklistID string) bool {
	if ruleID == checklistID {
		return true
	}
	rest, ok := strings.CutPrefix(ruleID, checklistID)
	return ok && len(rest) == 1 && unicode.IsLower(rune(rest[0]))
}
