package qmpi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mpits/mpits/harness/mpi"
)

// records writes one rank file per entry (its sections, then "done" when
// the rank finished) and reads them back as a job's records.
func records(t *testing.T, ranks ...[]string) *mpi.Records {
	t.Helper()
	dir := t.TempDir()
	for rank, sections := range ranks {
		var lines []string
		for _, s := range sections {
			if s == "done" {
				lines = append(lines, `{"kind":"cover_app_done","rank":0,"handler_calls":0}`)
				continue
			}
			lines = append(lines, `{"kind":"section","name":"`+s+`"}`)
		}
		text := ""
		if len(lines) > 0 {
			text = strings.Join(lines, "\n") + "\n"
		}
		name := filepath.Join(dir, fmt.Sprintf("rank-%d.jsonl", rank))
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := mpi.ReadRecords(dir, "qmpi_cover_app", len(ranks))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The rank the launcher killed while it was behind is not where the
// application died (mpich-fast-single: rank 1 died in "errors" while rank 0
// was still in "init", and "init" was left out).
func TestDiedInFurthestRank(t *testing.T) {
	for _, c := range []struct {
		name   string
		ranks  [][]string
		expect string
	}{
		{"behind rank killed", [][]string{{"before MPI_Init", "init"}, {"before MPI_Init", "init", "environment", "errors"}}, "errors"},
		{"rank 0 died", [][]string{{"before MPI_Init", "init", "errors"}, {"before MPI_Init", "init"}}, "errors"},
		{"one finished", [][]string{{"before MPI_Init", "init", "finalize", "done"}, {"before MPI_Init", "init", "errors"}}, "errors"},
		{"both finished", [][]string{{"init", "done"}, {"init", "done"}}, ""},
		{"no section", [][]string{{}, {}}, ""},
	} {
		if got := diedIn(records(t, c.ranks...)); got != c.expect {
			t.Errorf("%s: diedIn = %q, want %q", c.name, got, c.expect)
		}
	}
}
