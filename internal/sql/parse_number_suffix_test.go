package sql

import "testing"

// TestNumberSuffixes: Spark's suffixed numbers print back as written, so
// a stored statement keeps its types; apart, the letter is an alias.
func TestNumberSuffixes(t *testing.T) {
	checkRoundTrips(t, []struct{ in, want string }{
		{"SELECT 1L, 2s, 3Y, 0.5D, 1.5f, 2.5BD, 1e2D", "SELECT 1L, 2S, 3Y, 0.5D, 1.5F, 2.5BD, 1e2D"},
		{"SELECT 1 L", "SELECT 1 AS L"},
		{"SELECT 1 AS x FROM t LIMIT 2L", ""},
	})
}
