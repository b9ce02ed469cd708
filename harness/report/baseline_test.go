package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/rulebook"
	"github.com/mpits/mpits/harness/verdict"
)

func TestCompare(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "reports", "findings"), 0o755)
	os.WriteFile(filepath.Join(root, "reports", "findings", "C2-a.md"), []byte("x"), 0o644)
	base := Baseline{
		Entries: []BaselineEntry{
			{Impl: "a", Version: "1", Rule: "C1", Status: verdict.Pass},
			{Impl: "a", Version: "1", Rule: "C2", Status: verdict.Fail, Finding: "reports/findings/C2-a.md"},
			{Impl: "b", Version: "1", Rule: "C1", Status: verdict.Fail},
		},
		Injectors: map[string]string{"C1 fails under i": "passed"},
	}
	run := Verdicts{
		Rows: []Row{
			{Impl: "a", Version: "1", RuleInfo: rulebook.RuleInfo{ID: "C1"}, Status: verdict.Pass},
			{Impl: "a", Version: "1", RuleInfo: rulebook.RuleInfo{ID: "C2"}, Status: verdict.Pass},
			{Impl: "a", Version: "1", RuleInfo: rulebook.RuleInfo{ID: "C3"}, Status: verdict.Unsupported},
			{Impl: "c", Version: "9", RuleInfo: rulebook.RuleInfo{ID: "C1"}, Status: verdict.Error},
		},
		Injections: []Injection{{Spec: "C1 fails under i", State: "failed"}},
	}
	diffs, notes := Compare(base, run, root)
	joined := fmt.Sprint(diffs)
	for _, want := range []string{
		"C2 on a: pass", // differs from the baseline's fail
		"C3 on a: unsupported (), not in the baseline",
		"C1 on b is a fail in the baseline with no finding",
		`fault injector spec "C1 fails under i": failed`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("differences lack %q:\n%s", want, joined)
		}
	}
	if len(diffs) != 4 {
		t.Errorf("want 4 differences, got %d:\n%s", len(diffs), joined)
	}
	for _, d := range diffs {
		// a rule's verdict names it, so that its evidence can be found
		if wantRule := strings.HasPrefix(d.Text, "C2 on a:") || strings.HasPrefix(d.Text, "C3 on a:"); wantRule != (d.Rule != "" && d.Impl == "a") {
			t.Errorf("difference %q names rule %q on %q", d.Text, d.Rule, d.Impl)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `c "9"`) {
		t.Errorf("an unknown implementation version must be a note, not a difference: %v", notes)
	}
}

func TestCompareMissingFindingFile(t *testing.T) {
	base := Baseline{Entries: []BaselineEntry{{Impl: "a", Version: "1", Rule: "C", Status: verdict.Fail, Finding: "reports/findings/nope.md"}}}
	run := Verdicts{Rows: []Row{{Impl: "a", Version: "1", RuleInfo: rulebook.RuleInfo{ID: "C"}, Status: verdict.Fail}}}
	diffs, _ := Compare(base, run, t.TempDir())
	if len(diffs) != 1 || !strings.Contains(diffs[0].Text, "does not exist") {
		t.Errorf("a fail whose finding page is missing must differ: %v", diffs)
	}
}

func TestUpdatedKeepsFindingsAndOtherVersions(t *testing.T) {
	old := Baseline{Entries: []BaselineEntry{
		{Impl: "a", Version: "1", Rule: "C", Status: verdict.Fail, Finding: "reports/findings/custom.md"},
		{Impl: "a", Version: "0", Rule: "C", Status: verdict.Pass},
	}}
	nb := Updated(old, Verdicts{
		Rows:       []Row{{Impl: "a", Version: "1", RuleInfo: rulebook.RuleInfo{ID: "C"}, Status: verdict.Fail}, {Impl: "b", Version: "2", RuleInfo: rulebook.RuleInfo{ID: "C"}, Status: verdict.Fail}},
		Injections: []Injection{{Spec: "C fails under i", State: "passed"}},
	})
	if len(nb.Entries) != 3 {
		t.Fatalf("want 3 entries (two run, one kept), got %+v", nb.Entries)
	}
	for _, e := range nb.Entries {
		switch {
		case e.Impl == "a" && e.Version == "1" && e.Finding != "reports/findings/custom.md":
			t.Errorf("finding link lost: %+v", e)
		case e.Impl == "b" && e.Finding != "reports/findings/C.md":
			t.Errorf("new fail needs the default finding path: %+v", e)
		}
	}
	if nb.Injectors["C fails under i"] != "passed" {
		t.Errorf("injector states not recorded: %v", nb.Injectors)
	}
}

func TestCheckoutOfResolvesFindingLinks(t *testing.T) {
	for path, want := range map[string]string{
		"reports/baseline.json":                 ".",
		"reports/slurm/baseline-srun.json":      ".",
		"/x/clone/reports/slurm/srun/base.json": "/x/clone",
		"/tmp/elsewhere/baseline.json":          "/",
	} {
		if got := CheckoutOf(path); got != want {
			t.Errorf("checkoutOf(%q) = %q, want %q", path, got, want)
		}
	}
}
