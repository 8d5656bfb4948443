// Package suggest finds the known word a mistyped one was meant to be,
// for "did you mean" in errors about options, tables, columns and
// functions. It imports nothing of ours, so every layer may use it.
package suggest

import "strings"

// Closest is the known word nearest to w by edit distance (compared
// case-insensitively), when it is near enough to be a typo: at most 2
// edits, and at most a third of the word. "" otherwise.
func Closest(w string, known []string) string {
	best, bestD := "", 1<<30
	lw := strings.ToLower(w)
	for _, k := range known {
		if d := EditDistance(lw, strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= 2 && bestD*3 <= len(w) {
		return best
	}
	return ""
}

// DidYouMean is "; did you mean "x"?" for the closest known word, or "".
func DidYouMean(w string, known []string) string {
	if s := Closest(w, known); s != "" && !strings.EqualFold(s, w) {
		return "; did you mean \"" + s + "\"?"
	}
	return ""
}

// EditDistance is the Levenshtein distance between a and b, with an
// adjacent swap counting as one edit.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
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
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
