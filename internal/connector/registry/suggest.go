package registry

import (
	"sort"
	"strings"

	"sluice/internal/suggest"
	"sluice/internal/usererr"
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
			return usererr.Errorf(usererr.Invalid, "unknown option %q %s; did you mean %q?", k, where, s)
		}
		if len(all) == 0 {
			return usererr.Errorf(usererr.Invalid, "unknown option %q %s (it takes no options)", k, where)
		}
		return usererr.Errorf(usererr.Invalid, "unknown option %q %s (known: %s)", k, where, strings.Join(all, ", "))
	}
	return nil
}

// closest is suggest.Closest: the known word a typo was meant to be.
func closest(w string, known []string) string { return suggest.Closest(w, known) }

// editDistance is suggest.EditDistance.
func editDistance(a, b string) int { return suggest.EditDistance(a, b) }
