package report

import (
	"os"
	"testing"
)

// TestCommittedMatrixIsASummary keeps reports/matrix.md a page one reads:
// at most 200 KB (issue 33; with every reason inline it was 780 KB).
func TestCommittedMatrixIsASummary(t *testing.T) {
	st, err := os.Stat("../../reports/matrix.md")
	if err != nil {
		t.Skipf("no committed matrix: %v", err)
	}
	if st.Size() > 200<<10 {
		t.Errorf("reports/matrix.md is %d KB, over 200 KB: its reasons belong in verdicts.json and the HTML report, not in the summary", st.Size()>>10)
	}
}
