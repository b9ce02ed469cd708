package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mpits/mpits/harness/verdict"
)

// Baseline is reports/baseline.json: the verdicts this project expects on
// each implementation version. Every fail points to its finding.
type Baseline struct {
	Entries []BaselineEntry `json:"entries"`
	// Injectors maps each fault-injector spec to its expected state: passed
	// means the injector was shown to make its check fail.
	Injectors map[string]string `json:"injectors"`
}

// BaselineEntry is one expected verdict.
type BaselineEntry struct {
	Impl    string         `json:"impl"`
	Version string         `json:"version"`
	Rule    string         `json:"rule"`
	Status  verdict.Status `json:"status"`
	Finding string         `json:"finding,omitempty"` // reports/findings/<page>.md, for fail
}

// CheckoutOf is the folder holding the reports/ folder a baseline is in,
// against which its finding links (reports/findings/...) resolve.
func CheckoutOf(path string) string {
	dir := filepath.Dir(path)
	for filepath.Base(dir) != "reports" && dir != "." && dir != "/" {
		dir = filepath.Dir(dir)
	}
	return filepath.Dir(dir)
}

type key struct{ impl, version, rule string }

// Difference is one way a run differs from the baseline; Rule and Impl are
// set when it is one rule's verdict on one implementation, whose evidence
// the run's reports hold (EvidenceOf).
type Difference struct {
	Rule, Impl string
	Text       string
}

func (d Difference) String() string { return d.Text }

// Compare lists differences between a run and the baseline. Verdicts of an
// implementation version the baseline does not know are noted, not failed.
// Injector specs must all show their check failing.
func Compare(base Baseline, v Verdicts, root string) (diffs []Difference, notes []string) {
	differs := func(rule, impl, format string, args ...any) {
		diffs = append(diffs, Difference{Rule: rule, Impl: impl, Text: fmt.Sprintf(format, args...)})
	}
	want := map[key]BaselineEntry{}
	known := map[[2]string]bool{}
	for _, e := range base.Entries {
		want[key{e.Impl, e.Version, e.Rule}] = e
		known[[2]string{e.Impl, e.Version}] = true
		if e.Status == verdict.Fail {
			if e.Finding == "" {
				differs("", "", "%s on %s is a fail in the baseline with no finding", e.Rule, e.Impl)
			} else if _, err := os.Stat(filepath.Join(root, e.Finding)); err != nil {
				differs("", "", "%s on %s: finding %s does not exist", e.Rule, e.Impl, e.Finding)
			}
		}
	}
	seen := map[key]bool{}
	unknown := map[string]bool{}
	for _, r := range v.Rows {
		k := key{r.Impl, r.Version, r.ID}
		seen[k] = true
		if !known[[2]string{r.Impl, r.Version}] {
			unknown[fmt.Sprintf("%s %q", r.Impl, r.Version)] = true
			continue
		}
		e, ok := want[k]
		switch {
		case !ok:
			differs(r.ID, r.Impl, "%s on %s: %s (%s), not in the baseline", r.ID, r.Impl, r.Status, r.Reason)
		case e.Status != r.Status:
			differs(r.ID, r.Impl, "%s on %s: %s (%s), baseline says %s", r.ID, r.Impl, r.Status, r.Reason, e.Status)
		}
	}
	for k, e := range want {
		if !seen[k] && knownInRun(v, k.impl, k.version) {
			differs("", "", "%s on %s: in the baseline (%s) but not run", e.Rule, e.Impl, e.Status)
		}
	}
	for u := range unknown {
		notes = append(notes, "implementation version not in the baseline, verdicts reported only: "+u)
	}
	for _, in := range v.Injections {
		if want, ok := base.Injectors[in.Spec]; !ok || want != in.State {
			differs("", "", "fault injector spec %q: %s (%s), baseline says %q", in.Spec, in.State, in.Detail, want)
		}
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].Text < diffs[j].Text })
	sort.Strings(notes)
	return diffs, notes
}

func knownInRun(v Verdicts, impl, version string) bool {
	for _, r := range v.Rows {
		if r.Impl == impl && r.Version == version {
			return true
		}
	}
	return false
}

// Updated is the run's verdicts as a baseline; entries of implementation
// versions not in this run are kept.
func Updated(old Baseline, v Verdicts) Baseline {
	rows := v.Rows
	findings := map[[2]string]string{}
	inRun := map[[2]string]bool{}
	for _, e := range old.Entries {
		if e.Finding != "" {
			findings[[2]string{e.Impl, e.Rule}] = e.Finding
		}
	}
	nb := Baseline{Injectors: map[string]string{}}
	for _, in := range v.Injections {
		nb.Injectors[in.Spec] = in.State
	}
	for _, r := range rows {
		inRun[[2]string{r.Impl, r.Version}] = true
		e := BaselineEntry{Impl: r.Impl, Version: r.Version, Rule: r.ID, Status: r.Status}
		if r.Status == verdict.Fail {
			e.Finding = findings[[2]string{r.Impl, r.ID}]
			if e.Finding == "" {
				e.Finding = fmt.Sprintf("reports/findings/%s.md", r.ID)
			}
		}
		nb.Entries = append(nb.Entries, e)
	}
	for _, e := range old.Entries {
		if !inRun[[2]string{e.Impl, e.Version}] {
			nb.Entries = append(nb.Entries, e)
		}
	}
	sort.Slice(nb.Entries, func(i, j int) bool {
		a, b := nb.Entries[i], nb.Entries[j]
		return strings.Join([]string{a.Impl, a.Version, a.Rule}, "\x00") < strings.Join([]string{b.Impl, b.Version, b.Rule}, "\x00")
	})
	return nb
}

// ReadJSON decodes the file at path into v; a bad file is named.
func ReadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
