package main

import "testing"

// TestRunErrors covers the argument errors main reports before any SQL
// runs; each must be one clear line.
func TestRunErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no command given (see 'sluice help')"},
		{[]string{"frob"}, `unknown command "frob" (see 'sluice help')`},
		{[]string{"sql", "--bogus"}, "flag provided but not defined: -bogus (see 'sluice help')"},
		{[]string{"sql", "-e", "SELECT 1", "extra"}, `unexpected argument "extra" (quote SQL and pass it with -e)`},
		{[]string{"sql", "--format", "xml", "-e", "SELECT 1"}, `unknown format "xml" (want one of csv, json, jsonl, table)`},
		{[]string{"sql", "-e", "SELECT 1", "-f", "x.sql"}, "give either -e or -f, not both"},
	}
	for _, tt := range tests {
		err := run(tt.args)
		if err == nil || err.Error() != tt.want {
			t.Errorf("run(%q) = %v, want %q", tt.args, err, tt.want)
		}
	}
}
