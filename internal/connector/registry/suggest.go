package registry

import (
	"fmt"
	"sort"
	"strings"
)

// CheckKeys answers the first unknown key of opts (in sorted order) with
// an error naming the closest known key, or listing them all when none is
// close: `unknown option "compresion" for a json table; did you mean
// "compression"?`. where completes the sentence after the key. Option
// values never appear in the message: they may be secrets.
func CheckKeys(opts map[string]string, where string, known ...[]string) error {
	set := map[string]bool{}
	var all []string
	for _, group := range known {
		for _, k := range group {
			if !set[k] {
				set[k] = true
				all = append(all, k)
			}
		}
	}
	sort.Strings(all)
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if set[k] {
			continue
		}
		if s := closest(k, all); s != "" {
			return fmt.Errorf("unknown option %q %s; did you mean %q?", k, where, s)
		}
		if len(all) == 0 {
			return fmt.Errorf("unknown option %q %s (it takes no options)", k, where)
		}
		return fmt.Errorf("unknown option %q %s (known: %s)", k, where, strings.Join(all, ", "))
	}
	return nil
}

// closest is the known word nearest to w by edit distance, when it is
// near enough to be a typo (at most 2 edits, and at most a third of the
// word); "" otherwise.
func closest(w string, known []string) string {
	best, bestD := "", 1<<30
	for _, k := range known {
		if d := editDistance(strings.ToLower(w), k); d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= 2 && bestD*3 <= len(w) {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, with an
// adjacent swap counting as one edit.
func editDistance(a, b string) int {
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
