package report

import (
	"reflect"
	"testing"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func rows(impl string, kv ...string) []Row {
	var out []Row
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Row{RuleInfo: rulebook.RuleInfo{ID: kv[i]}, Impl: impl, Status: verdict.Status(kv[i+1])})
	}
	return out
}

// Every cell of both runs by default; with an implementation each, the
// rules the first run judged on its one against the second's on the other.
func TestCompareStatuses(t *testing.T) {
	a := Verdicts{Rows: append(rows("x", "R1", "pass", "R2", "fail"), rows("y", "R1", "error")...)}
	b := Verdicts{Rows: append(rows("x", "R1", "pass", "R2", "pass", "R3", "unsupported"), rows("y", "R1", "error")...)}
	diffs, n := CompareStatuses(a, b, "", "")
	if want := []string{"R2 x: fail vs pass", "R3 x: missing vs unsupported"}; n != 4 || !reflect.DeepEqual(diffs, want) {
		t.Errorf("all cells: %d compared, %q; want 4, %q", n, diffs, want)
	}
	swapped := Verdicts{Rows: rows("swapped", "R1", "pass", "R2", "pass")}
	diffs, n = CompareStatuses(swapped, b, "swapped", "x")
	if n != 2 || len(diffs) != 0 {
		t.Errorf("a slice against its implementation: %d compared, %q; want 2, none", n, diffs)
	}
	if diffs, _ = CompareStatuses(swapped, b, "swapped", "y"); !reflect.DeepEqual(diffs, []string{"R1 swapped/y: pass vs error", "R2 swapped/y: pass vs missing"}) {
		t.Errorf("against another implementation: %q", diffs)
	}
	if n := ErrorCount(a); n != 1 {
		t.Errorf("ErrorCount = %d, want 1", n)
	}
	// a rule left not judged by a named cause is not the suite's error
	crashed := rows("z", "R1", "error")
	crashed[0].Cause = "z: the library crashed (SIGSEGV) in MPI_T_event_read"
	a.Rows = append(a.Rows, crashed...)
	if n := ErrorCount(a); n != 1 {
		t.Errorf("ErrorCount with a rule not judged = %d, want 1", n)
	}
}
