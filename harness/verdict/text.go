package verdict

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// FirstLine is s as a one-line reason: its first non-blank line, at most
// 300 characters.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never split a character
		}
		s = s[:cut] + "…"
	}
	return s
}

// Plural is n and noun, with an s when n is not 1 ("3 rules").
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// causeCap bounds a cause's line: its command (commandCap) and the end of
// what the command said both fit.
const causeCap = 600

// CauseLine is the first line of s, at most causeCap bytes.
func CauseLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > causeCap {
		cut := causeCap
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
