package verdict

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FirstLine is s as a one-line reason: its first non-blank line, at most
// 300 characters, its control bytes (a wrapper's or a library's escape
// codes, a carriage return) written as \xNN: a reason reaches terminals,
// JUnit and HTML as text. A tab stays.
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
	return escapeControls(s)
}

// escapeControls writes each control character of s but a tab as \xNN.
func escapeControls(s string) string {
	if strings.IndexFunc(s, isEscaped) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isEscaped(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isEscaped(r rune) bool { return r != '\t' && unicode.IsControl(r) }

// Printable is text of several lines (evidence: a job's output, a
// compiler's) with its control bytes but tabs and line breaks written as
// \xNN: what a library or a wrapper printed reaches the console as text.
func Printable(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		body, nl := strings.CutSuffix(line, "\n")
		b.WriteString(escapeControls(body))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
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
	return escapeControls(s)
}
