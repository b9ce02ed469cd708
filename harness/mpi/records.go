package mpi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/mpits/mpits/harness/verdict"
)

// Record is one JSON object a fixture wrote (fixtures/c/lib/mpits_record.h).
type Record struct {
	Rank int
	Line int
	Kind string
	Raw  json.RawMessage
}

// Decode fills v (a struct with json tags) from the record.
func (r Record) Decode(v any) error {
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return fmt.Errorf("rank %d line %d: record %s does not decode: %v", r.Rank, r.Line, r.Raw, err)
	}
	return nil
}

// Records are the records of every rank of one job.
type Records struct {
	Fixture string
	All     []Record // rank by rank, in the order written
	// decoded keeps what DecodeKind made of a kind, per type: the rules
	// that judge one job (LaunchOnce) share its records and decode the
	// same kinds.
	decoded sync.Map // decodedKey → decodedKind[T]
}

type decodedKey struct {
	kind string
	typ  reflect.Type
}

type decodedKind[T any] struct {
	v   []T
	err error
}

// ReadRecords reads rank-0 … rank-(ranks-1) of a job's record folder. A
// missing file or a malformed line is an error naming fixture and rank.
func ReadRecords(dir, fixture string, ranks int) (*Records, error) {
	return RecordsOf(fixture, ranks, RecordLines(dir, ranks))
}

// maxRecordLine bounds one record: a longer line is a fixture gone wrong.
const maxRecordLine = 1 << 20

// RecordLines are the lines each rank's file holds, nil for a rank that
// wrote no file.
func RecordLines(dir string, ranks int) [][]string {
	lines := make([][]string, max(ranks, 1))
	for rank := range lines {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("rank-%d.jsonl", rank)))
		if err != nil {
			continue
		}
		lines[rank] = []string{}
		if len(data) == 0 {
			continue
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			lines[rank] = append(lines[rank], strings.TrimSuffix(l, "\r"))
		}
	}
	return lines
}

// MissingRecords is the error of a job some rank of which wrote no
// records file; Partial holds what the other ranks wrote (where a job died,
// say), for the judge that can use it.
type MissingRecords struct {
	Partial *Records
	msg     string
}

func (m *MissingRecords) Error() string { return m.msg }

// RecordsOf parses the lines of each rank (recordLines, or a tape's).
func RecordsOf(fixture string, ranks int, lines [][]string) (*Records, error) {
	rs := &Records{Fixture: fixture}
	var missing *MissingRecords
	for rank := 0; rank < max(ranks, 1); rank++ {
		if rank >= len(lines) || lines[rank] == nil {
			if missing == nil {
				missing = &MissingRecords{Partial: rs, msg: fmt.Sprintf("fixture %s rank %d wrote no records (rank-%d.jsonl missing)", fixture, rank, rank)}
			}
			continue
		}
		for i, l := range lines[rank] {
			line := i + 1
			if len(l) > maxRecordLine {
				return nil, fmt.Errorf("fixture %s rank %d line %d: a record of %d bytes, more than %d", fixture, rank, line, len(l), maxRecordLine)
			}
			var head struct {
				Kind *string `json:"kind"`
			}
			raw := []byte(l)
			if err := json.Unmarshal(raw, &head); err != nil || head.Kind == nil {
				return nil, fmt.Errorf("fixture %s rank %d line %d: malformed record %.200q", fixture, rank, line, raw)
			}
			rs.All = append(rs.All, Record{Rank: rank, Line: line, Kind: *head.Kind, Raw: raw})
		}
	}
	if missing != nil {
		return nil, missing
	}
	return rs, nil
}

// Kind returns the records of one kind, optionally of one rank (rank < 0: all).
func (rs *Records) Kind(kind string, rank int) []Record {
	var out []Record
	for _, r := range rs.All {
		if r.Kind == kind && (rank < 0 || r.Rank == rank) {
			out = append(out, r)
		}
	}
	return out
}

// DecodeKind decodes every record of one kind (all ranks) into T.
func DecodeKind[T any](rs *Records, kind string) ([]T, error) {
	key := decodedKey{kind, reflect.TypeFor[T]()}
	d, ok := rs.decoded.Load(key)
	if !ok {
		d, _ = rs.decoded.LoadOrStore(key, decodeKind[T](rs, kind))
	}
	dk := d.(decodedKind[T])
	// each caller gets its own slice: judges sort and filter them
	return slices.Clone(dk.v), dk.err
}

func decodeKind[T any](rs *Records, kind string) decodedKind[T] {
	var out []T
	for _, r := range rs.Kind(kind, -1) {
		var v T
		if err := r.Decode(&v); err != nil {
			return decodedKind[T]{err: fmt.Errorf("fixture %s %v", rs.Fixture, err)}
		}
		out = append(out, v)
	}
	return decodedKind[T]{v: out}
}

// Decode is DecodeKind for a judge: a record that does not decode ends the
// rule with Error.
func Decode[T any](rs *Records, kind string) []T {
	v, err := DecodeKind[T](rs, kind)
	if err != nil {
		panic(verdict.Verdict{Status: verdict.Error, Reason: err.Error()})
	}
	return v
}
