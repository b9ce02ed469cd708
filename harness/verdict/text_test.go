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

// Evidence keeps its lines and tabs; every other control byte is written.
func TestPrintable(t *testing.T) {
	in := "rank 0:\tok\n\x1b[1mbold\x1b[0m\r\n"
	if got, want := Printable(in), "rank 0:\tok\n\\x1b[1mbold\\x1b[0m\\x0d\n"; got != want {
		t.Errorf("Printable(%q) = %q, want %q", in, got, want)
	}
}
