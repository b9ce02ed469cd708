package settings

import (
	"maps"
	"slices"
	"strings"
)

// Closest is the known label nearest to l by edit distance (ignoring case,
// as Ginkgo matches labels); on a tie one that l begins (l cut short:
// check:EVENTS-META for check:EVENTS-META-001), then the first in order;
// "" when none is known. known maps lower-case labels to their spelling.
func Closest(l string, known map[string]string) string {
	l = strings.ToLower(l)
	best, bestD, bestPrefix := "", -1, false
	for _, k := range slices.Sorted(maps.Keys(known)) {
		d, prefix := EditDistance(l, k), strings.HasPrefix(k, l)
		if bestD < 0 || d < bestD || d == bestD && prefix && !bestPrefix {
			best, bestD, bestPrefix = known[k], d, prefix
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
