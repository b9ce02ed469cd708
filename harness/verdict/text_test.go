package verdict

import "testing"

// A reason never carries a control byte to a terminal: an escape code, a
// carriage return or a bell is written as \xNN; a tab stays.
func TestFirstLineEscapesControls(t *testing.T) {
	for in, want := range map[string]string{
		"mpicc: \x1b[31merror\x1b[0m\nmore": `mpicc: \x1b[31merror\x1b[0m`,
		"a\rb\x07c":                         `a\x0db\x07c`,
		"MPICH Version:\t4.0.2":             "MPICH Version:\t4.0.2",
	} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
