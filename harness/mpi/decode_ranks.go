package mpi

// FromRank, embedded in a record type, keeps which rank wrote a record (a
// field the JSON does not fill): DecodeRanked sets it.
type FromRank struct {
	Rank int `json:"-"`
}

// SetRank is how DecodeRanked tells a record which rank wrote it.
func (f *FromRank) SetRank(rank int) { f.Rank = rank }

// DecodeRanked is Decode that also tells each record which rank wrote it,
// where T has a SetRank(int) method (FromRank embedded). A job that left
// no records (rs nil: a rank wrote none) has none of any kind.
func DecodeRanked[T any](rs *Records, kind string) []T {
	if rs == nil {
		return nil
	}
	out := Decode[T](rs, kind)
	for i, r := range rs.Kind(kind, -1) {
		if s, ok := any(&out[i]).(interface{ SetRank(int) }); ok {
			s.SetRank(r.Rank)
		}
	}
	return out
}

// DecodeRank is Decode of the records one rank wrote.
func DecodeRank[T any](rs *Records, kind string, rank int) []T {
	all := Decode[T](rs, kind)
	var out []T
	for i, r := range rs.Kind(kind, -1) {
		if r.Rank == rank {
			out = append(out, all[i])
		}
	}
	return out
}
