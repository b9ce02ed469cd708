package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compare fails on a difference, on nothing compared, and with -no-errors
// on an error verdict in the first run; a bad file is named.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.json", `{"verdicts":[{"id":"R1","impl":"x","status":"pass"},{"id":"R2","impl":"x","status":"error"}]}`)
	b := write("b.json", `{"verdicts":[{"id":"R1","impl":"x","status":"pass"},{"id":"R2","impl":"x","status":"error"}]}`)
	c := write("c.json", `{"verdicts":[{"id":"R1","impl":"x","status":"fail"},{"id":"R2","impl":"x","status":"error"}]}`)
	for _, tc := range []struct {
		args    []string
		wantErr string
		wantOut string
	}{
		{[]string{a, b}, "", "2 verdicts compared, 0 differ\n"},
		{[]string{"-no-errors", a, b}, "holds 1 error verdicts", "1 error verdicts"},
		{[]string{a, c}, "1 of 2 verdicts differ", "  R1 x: pass vs fail\n"},
		{[]string{"-impl-a", "y", a, b}, "no verdict on y", ""},
		{[]string{a, filepath.Join(dir, "none.json")}, "none.json cannot be read", ""},
		{[]string{a}, "needs two verdicts files", ""},
	} {
		var out strings.Builder
		err := compare(tc.args, &out)
		if (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("compare %q: error %v, want %q", tc.args, err, tc.wantErr)
		}
		if !strings.Contains(out.String(), tc.wantOut) {
			t.Errorf("compare %q said %q, want %q in it", tc.args, out.String(), tc.wantOut)
		}
	}
}
