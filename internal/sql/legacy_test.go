package sql

import "testing"

// TestUpgradeLegacyText: text a binary before Spark's escaping stored
// keeps its meaning: ” was a quote, an unknown escape kept its
// backslash; names, comments and other tokens are left as they were.
func TestUpgradeLegacyText(t *testing.T) {
	for _, tc := range []struct{ old, want string }{
		{`SELECT 'it''s' AS "x"`, `SELECT 'it\'s' AS "x"`},
		{`SELECT a FROM t WHERE s LIKE '100\\%' -- it's`, `SELECT a FROM t WHERE s LIKE '100\\%' -- it's`},
		{`SELECT regexp_extract(s, '\d+', 0), 'a\nb', '\u00e9', ''`, `SELECT regexp_extract(s, '\\d+', 0), 'a\nb', '\u00e9', ''`},
		{"SELECT `it''s` FROM t", "SELECT `it''s` FROM t"},
		{`SELECT 'a' 'b', X'0A', "q""uote", "it's"`, `SELECT 'a' 'b', X'0A', 'q"uote', "it's"`},
		{`SELECT 'unterminated`, `SELECT 'unterminated`},
	} {
		got, _ := UpgradeLegacyText(tc.old)
		if got != tc.want {
			t.Errorf("UpgradeLegacyText(%s) = %s, want %s", tc.old, got, tc.want)
		}
	}
}
