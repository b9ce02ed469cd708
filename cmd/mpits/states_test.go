package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness"
	"github.com/mpits/mpits/harness/report"
)

// standardDir is the standard's text as `mpits sections` finds it from the
// repository root (../shared/reference/standard), seen from this package.
const standardDir = "../../../shared/reference/standard"

// chapterSections splits the chapter's text into its printed sections (a
// heading is followed by its HTML-edition note, as sectionsGo reads them),
// each section's text with whitespace normalized.
func chapterSections(t *testing.T, path string) map[string]string {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var lines []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	cur := ""
	var body []string
	flush := func() {
		if cur != "" {
			out[cur] = strings.Join(strings.Fields(strings.Join(body, " ")), " ")
		}
	}
	for i, l := range lines {
		if h := headingRE.FindStringSubmatch(l); h != nil {
			// a heading: its HTML-edition note within the next 2 lines
			for k := i + 1; k <= i+2 && k < len(lines); k++ {
				if htmlRE.MatchString(lines[k]) {
					flush()
					cur, body = h[1], nil
					break
				}
			}
		}
		body = append(body, l)
	}
	flush()
	return out
}

// TestStateQuotes finds every quote of the state tables verbatim (whitespace
// normalized) in the section it names.
func TestStateQuotes(t *testing.T) {
	path := filepath.Join(standardDir, "mpi50-15-tool-support.txt")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("the standard's text is not here (%s): the quotes cannot be checked", path)
	}
	secs := chapterSections(t, path)
	if len(secs) < 30 {
		t.Fatalf("only %d sections found in %s", len(secs), path)
	}
	n := 0
	for _, o := range report.StateObjects {
		for _, c := range o.Cells {
			for _, qt := range c.Quotes {
				n++
				text, ok := secs[qt.Sec]
				if !ok {
					t.Errorf("%s: %s × %s: no section %s in the text", o.Name, c.State, c.Op, qt.Sec)
					continue
				}
				want := strings.Join(strings.Fields(qt.Text), " ")
				if !strings.Contains(text, want) {
					t.Errorf("%s: %s × %s: not found verbatim in §%s: %q", o.Name, c.State, c.Op, qt.Sec, qt.Text)
				}
			}
		}
	}
	t.Logf("%d quotes found in their sections", n)
}

// TestStateRules checks that every rule a cell names is a rule of the
// suites, and that each table has exactly one cell per state and operation,
// the spoken ones quoting the text.
func TestStateRules(t *testing.T) {
	if err := harness.ValidateAll(suites...); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, r := range harness.RuleInfos(suites...) {
		known[r.ID] = true
	}
	for _, o := range report.StateObjects {
		states, ops := map[string]bool{}, map[string]bool{}
		for _, s := range o.States {
			states[s] = true
		}
		for _, op := range o.Ops {
			ops[op] = true
		}
		seen := map[string]bool{}
		for _, c := range o.Cells {
			where := o.Name + ": " + c.State + " × " + c.Op
			if !states[c.State] || !ops[c.Op] {
				t.Errorf("%s: a state or operation the table does not list", where)
			}
			if seen[c.State+"\x00"+c.Op] {
				t.Errorf("%s: two cells", where)
			}
			seen[c.State+"\x00"+c.Op] = true
			for _, id := range c.Rules {
				if !known[id] {
					t.Errorf("%s: rule %s is no rule of the suites", where, id)
				}
			}
			switch {
			case c.Silent && (len(c.Rules) > 0 || len(c.Quotes) > 0 || c.NotJudged != "" || c.NoRule != ""):
				t.Errorf("%s: a cell the text does not speak of names rules, quotes or outcomes", where)
			case !c.Silent && len(c.Quotes) == 0:
				t.Errorf("%s: a cell the text speaks of quotes nothing", where)
			case !c.Silent && !c.Judged() && c.NotJudged == "" && c.NoRule == "":
				t.Errorf("%s: neither judged, nor not judged with a reason, nor no rule yet", where)
			case c.Judged() && c.NotJudged != "":
				t.Errorf("%s: judged and not judged", where)
			}
		}
		for _, s := range o.States {
			for _, op := range o.Ops {
				if !seen[s+"\x00"+op] {
					t.Errorf("%s: no cell for %s × %s", o.Name, s, op)
				}
			}
		}
	}
	for _, u := range report.UncoveredCells() {
		t.Logf("no rule yet: %s", u)
	}
}
