package mpi

import "testing"

type rankedRec struct {
	N int `json:"n"`
	FromRank
}

// DecodeRanked tells each record its rank; DecodeRank keeps one rank's;
// a job with no records has none.
func TestDecodeRanked(t *testing.T) {
	rs, err := RecordsOf("f", 2, [][]string{{`{"kind":"a","n":1}`, `{"kind":"b","n":9}`}, {`{"kind":"a","n":2}`}})
	if err != nil {
		t.Fatal(err)
	}
	got := DecodeRanked[rankedRec](rs, "a")
	if len(got) != 2 || got[0].N != 1 || got[0].Rank != 0 || got[1].N != 2 || got[1].Rank != 1 {
		t.Errorf("DecodeRanked gave %+v", got)
	}
	if one := DecodeRank[rankedRec](rs, "a", 1); len(one) != 1 || one[0].N != 2 {
		t.Errorf("DecodeRank gave %+v", one)
	}
	if none := DecodeRanked[rankedRec](nil, "a"); none != nil {
		t.Errorf("no records gave %+v", none)
	}
}
