package mpi

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mpits/mpits/harness/mpitest"
)

// recordDir writes rank-<r>.jsonl files with the given contents.
func recordDir(t *testing.T, ranks ...string) string {
	t.Helper()
	dir := t.TempDir()
	for r, content := range ranks {
		mpitest.WriteFile(t, filepath.Join(dir, "rank-"+strconv.Itoa(r)+".jsonl"), content, 0o644)
	}
	return dir
}

func TestReadRecordsTwoRanks(t *testing.T) {
	dir := recordDir(t,
		`{"kind":"hello","rank":0,"name":"a"}`+"\n"+`{"kind":"bye"}`+"\n",
		`{"kind":"hello","rank":1,"name":"b"}`+"\r\n"+`{"kind":"other","n":[1,2]}`+"\n"+`{"kind":"bye"}`) // no final newline
	rs, err := ReadRecords(dir, "fx", 2)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Fixture != "fx" || len(rs.All) != 5 {
		t.Fatalf("fixture %q, %d records, want fx and 5", rs.Fixture, len(rs.All))
	}
	want := []struct {
		rank, line int
		kind       string
	}{{0, 1, "hello"}, {0, 2, "bye"}, {1, 1, "hello"}, {1, 2, "other"}, {1, 3, "bye"}}
	for i, w := range want {
		if r := rs.All[i]; r.Rank != w.rank || r.Line != w.line || r.Kind != w.kind {
			t.Errorf("record %d: rank %d line %d kind %q, want %d %d %q", i, r.Rank, r.Line, r.Kind, w.rank, w.line, w.kind)
		}
	}
	if got := string(rs.All[2].Raw); got != `{"kind":"hello","rank":1,"name":"b"}` {
		t.Errorf("raw record %q keeps a \\r or lost text", got)
	}

	if got := rs.Kind("hello", -1); len(got) != 2 || got[0].Rank != 0 || got[1].Rank != 1 {
		t.Errorf("Kind(hello, all) = %+v", got)
	}
	if got := rs.Kind("hello", 1); len(got) != 1 || got[0].Rank != 1 {
		t.Errorf("Kind(hello, 1) = %+v", got)
	}
	if got := rs.Kind("bye", 0); len(got) != 1 || got[0].Rank != 0 || got[0].Line != 2 {
		t.Errorf("Kind(bye, 0) = %+v", got)
	}
	if got := rs.Kind("other", 0); len(got) != 0 {
		t.Errorf("Kind(other, 0) = %+v, want none", got)
	}
	if got := rs.Kind("nothing", -1); len(got) != 0 {
		t.Errorf("Kind(nothing, all) = %+v, want none", got)
	}

	type hello struct {
		Rank int    `json:"rank"`
		Name string `json:"name"`
	}
	hs, err := DecodeKind[hello](rs, "hello")
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 || hs[0] != (hello{0, "a"}) || hs[1] != (hello{1, "b"}) {
		t.Errorf("DecodeKind(hello) = %+v", hs)
	}
	var o struct{ N []int }
	if err := rs.Kind("other", 1)[0].Decode(&o); err != nil || len(o.N) != 2 || o.N[1] != 2 {
		t.Errorf("Decode(other) = %+v, %v", o, err)
	}
	if none, err := DecodeKind[hello](rs, "nothing"); err != nil || len(none) != 0 {
		t.Errorf("DecodeKind(nothing) = %v, %v; want none, no error", none, err)
	}
}

func TestReadRecordsErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		ranks []string
		n     int
		want  []string
	}{
		{"missing rank", []string{`{"kind":"a"}` + "\n"}, 2,
			[]string{"fixture fx rank 1 wrote no records", "rank-1.jsonl missing"}},
		{"no rank at all", nil, 0, []string{"fixture fx rank 0 wrote no records", "rank-0.jsonl missing"}},
		{"malformed line", []string{`{"kind":"a"}` + "\n", `{"kind":"a"}` + "\n" + `{"kind":"b",` + "\n" + `{"kind":"c"}` + "\n"}, 2,
			[]string{"fixture fx rank 1 line 2: malformed record", `{\"kind\":\"b\",`}},
		{"no kind", []string{`{"kind":"a"}` + "\n" + `{"rank":0}` + "\n"}, 1,
			[]string{"fixture fx rank 0 line 2: malformed record", `{\"rank\":0}`}},
		{"null kind", []string{`{"kind":null}` + "\n"}, 1, []string{"fixture fx rank 0 line 1: malformed record"}},
		{"number kind", []string{`{"kind":3}` + "\n"}, 1, []string{"fixture fx rank 0 line 1: malformed record"}},
		{"blank line", []string{`{"kind":"a"}` + "\n\n"}, 1, []string{"fixture fx rank 0 line 2: malformed record"}},
		{"truncated by the C helper", []string{`{"kind":"big","s":"` + strings.Repeat("x", 3000) + "\x00}\n"}, 1,
			[]string{"fixture fx rank 0 line 1: malformed record", `{\"kind\":\"big\"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs, err := ReadRecords(recordDir(t, c.ranks...), "fx", c.n)
			if rs != nil {
				t.Errorf("want no records with an error, got %+v", rs)
			}
			mpitest.WantOneLineErr(t, err, c.want...)
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("error is %d bytes long: a malformed record should be cut short", len(err.Error()))
			}
		})
	}
}

func TestDecodeKindError(t *testing.T) {
	rs, err := ReadRecords(recordDir(t, `{"kind":"hello","rank":0}`+"\n", `{"kind":"hello","rank":"one"}`+"\n"), "fx", 2)
	if err != nil {
		t.Fatal(err)
	}
	type hello struct {
		Rank int `json:"rank"`
	}
	got, err := DecodeKind[hello](rs, "hello")
	if got != nil {
		t.Errorf("want nothing decoded with an error, got %+v", got)
	}
	mpitest.WantOneLineErr(t, err, "fixture fx", "rank 1 line 1", `{"kind":"hello","rank":"one"}`, "does not decode")
}

// TestRecordsFromCHelper builds fixtures/c/harness/records.c, runs it with
// two ranks and decodes what fixtures/c/lib/mpits_record.c wrote, under each
// installed implementation (the rank comes from PMI_RANK under MPICH and
// OMPI_COMM_WORLD_RANK under Open MPI).
func TestRecordsFromCHelper(t *testing.T) {
	t.Setenv("MPITS_CACHE", t.TempDir())
	for _, id := range []string{"mpich", "openmpi"} {
		t.Run(id, func(t *testing.T) {
			im := hostImpl(t, id)
			prog := buildFixture(t, im, "records")
			res, err := Run(Job{Impl: im, Name: "records", Ranks: 2, Program: prog, Deadline: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer res.Cleanup()
			if !res.OK() {
				t.Fatalf("%s\n%s", res.Problem(), res.Evidence())
			}
			rs, err := ReadRecords(res.Dir, "records", 2)
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Evidence())
			}
			type hello struct {
				Rank int    `json:"rank"`
				Size int    `json:"size"`
				Name string `json:"name"`
			}
			hs, err := DecodeKind[hello](rs, "hello")
			if err != nil {
				t.Fatal(err)
			}
			if len(hs) != 2 {
				t.Fatalf("want 2 hello records, got %+v", hs)
			}
			for r, h := range hs {
				if h.Rank != r || h.Size != 2 || h.Name != `quote" and \ back` {
					t.Errorf("rank %d wrote %+v (raw %s), want rank %d size 2 name %q", r, h, rs.Kind("hello", r)[0].Raw, r, `quote" and \ back`)
				}
				if bye := rs.Kind("bye", r); len(bye) != 1 || string(bye[0].Raw) != `{"kind":"bye"}` || bye[0].Line != 2 {
					t.Errorf("rank %d: bye records %+v, want one {\"kind\":\"bye\"} on line 2", r, bye)
				}
			}
		})
	}
}
