package spell

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Nearest returns the candidate closest to x by edit distance, ignoring
// case, or "" when none is close enough. The distance must be at most a
// third of the longer name (and at least 1) and less than the length of
// x. So "recreat" finds "recreate" but "x" finds nothing. Ties go to the
// candidate that sorts first.
func Nearest(x string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range sorted(candidates) {
		if c == x {
			continue
		}
		d := distance(strings.ToLower(x), strings.ToLower(c))
		limit := max(1, max(utf8.RuneCountInString(x), utf8.RuneCountInString(c))/3)
		if d <= limit && d < utf8.RuneCountInString(x) && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// Hint returns `did you mean "NAME"?` for the nearest candidate, or "".
func Hint(x string, candidates []string) string {
	if n := Nearest(x, candidates); n != "" {
		return `did you mean "` + n + `"?`
	}
	return ""
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// distance is the optimal string alignment distance between a and b, in
// runes: Levenshtein's insertions, deletions and substitutions, plus
// swapping two adjacent runes ("biuld" is one edit from "build").
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
