package mpit

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mpits/mpits/harness/rulebook"
)

// tally groups the examples of each broken rule, each example once.
type tally map[string][]string

func (t tally) note(rule, example string) {
	for _, e := range t[rule] {
		if e == example {
			return
		}
	}
	t[rule] = append(t[rule], example)
}

// into adds one problem a rule: its first three examples and how many.
func (t tally) into(p *rulebook.Problems, sep string) {
	for _, rule := range slices.Sorted(maps.Keys(t)) {
		ex, more := t[rule], ""
		if len(ex) > 3 {
			more = fmt.Sprintf(", … (%d in all)", len(ex))
			ex = ex[:3]
		}
		p.Add("", "%s: %s%s", rule, strings.Join(ex, sep), more)
	}
}

// vals is a record's array of numbers, kept exact (integers beyond 2^53).
type vals []json.Number

func (v vals) float(i int) float64 {
	if i >= len(v) {
		return 0
	}
	f, _ := v[i].Float64()
	return f
}

// same compares element by element: exactly for integers, within a
// rounding tolerance for doubles.
func (v vals) same(w vals, double bool) bool {
	if len(v) != len(w) {
		return false
	}
	for i := range v {
		if double {
			a, b := v.float(i), w.float(i)
			if d := a - b; d > tol(a, b) || -d > tol(a, b) {
				return false
			}
		} else if v[i] != w[i] {
			return false
		}
	}
	return true
}

func tol(a, b float64) float64 {
	m := a
	if m < 0 {
		m = -m
	}
	if b > m {
		m = b
	} else if -b > m {
		m = -b
	}
	return 1e-9 + 1e-12*m
}

// sum returns v + w element-wise as exact strings for integers.
func (v vals) plus(w vals, double bool) vals {
	out := make(vals, len(v))
	for i := range v {
		if double {
			out[i] = json.Number(strconv.FormatFloat(v.float(i)+w.float(i), 'g', 17, 64))
			continue
		}
		a, _ := strconv.ParseUint(string(v[i]), 10, 64)
		b, _ := strconv.ParseUint(string(w[i]), 10, 64)
		out[i] = json.Number(strconv.FormatUint(a+b, 10))
	}
	return out
}

func (v vals) zero() bool {
	for i := range v {
		if v.float(i) != 0 {
			return false
		}
	}
	return true
}

func (v vals) String() string {
	s := make([]string, len(v))
	for i := range v {
		s[i] = string(v[i])
	}
	return "[" + strings.Join(s, ",") + "]"
}

// anyOf reports whether rc is one of the '|'-separated names in want.
func anyOf(rc, want string) bool {
	for _, w := range strings.Split(want, "|") {
		if rc == w {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// examples lists up to three examples and how many there are.
func examples(ex []string) string {
	if len(ex) > 3 {
		return fmt.Sprintf("%s, … (%d in all)", strings.Join(ex[:3], ", "), len(ex))
	}
	return strings.Join(ex, ", ")
}

// recordedExamples lists up to three of the examples a fixture recorded,
// and how many it recorded (fewer than the calls its summary counts).
func recordedExamples(ex []string) string {
	if len(ex) > 3 {
		return fmt.Sprintf("%s, … (%d recorded)", strings.Join(ex[:3], ", "), len(ex))
	}
	return strings.Join(ex, ", ")
}

// countedItem is one item a fixture gives only as part of a count (its summary
// says how many, no record says which): an exposure of every item judged
// needs no more of it.
type countedItem struct{}

// countedItems is n items known by their count alone.
func countedItems(n int) []countedItem { return make([]countedItem, max(n, 0)) }
