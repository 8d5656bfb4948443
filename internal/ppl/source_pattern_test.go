package ppl

import "testing"

// TestSourcePatterns: source= takes the plugin's index patterns and
// lists (identifiers.md, Multiple Indices): a * in the name, indices
// separated by commas (bare, with spaces) or one back-quoted list.
func TestSourcePatterns(t *testing.T) {
	for q, want := range map[string]string{
		"source=acc* | stats count()":                "acc*",
		"source=logs-* | fields a":                   "logs-*",
		"source=logs-2020.1*":                        "logs-2020.1*",
		"source=accounts, account2 | stats count()":  "accounts,account2",
		"source=`accounts,account2` | stats count()": "accounts,account2",
		"search source=logs-* error":                 "logs-*",
		"source=a,b,c":                               "a,b,c",
	} {
		p, err := Parse(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if p.Source.Table != want {
			t.Errorf("%s: table %q, want %q", q, p.Source.Table, want)
		}
	}
}
