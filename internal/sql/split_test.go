package sql

import (
	"reflect"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		in         string
		want       []string
		unfinished bool
	}{
		{"", nil, false},
		{"   \n", nil, false},
		{"SELECT 1", nil, true},
		{"SELECT 1;", []string{"SELECT 1"}, false},
		{"SELECT 1; SELECT 2;\n", []string{"SELECT 1", "SELECT 2"}, false},
		{"SELECT 1; SELECT", []string{"SELECT 1"}, true},
		{";;  ; SELECT 1 ;;", []string{"SELECT 1"}, false},
		{"SELECT ';'; SELECT 2;", []string{"SELECT ';'", "SELECT 2"}, false},
		{"SELECT 'it''s;'; x", []string{"SELECT 'it''s;'"}, true},
		{`SELECT 'a\';b';`, []string{`SELECT 'a\';b'`}, false},
		{"SELECT `a;b`, \"c;d\";", []string{"SELECT `a;b`, \"c;d\""}, false},
		{"SELECT 'open;", nil, true},
		{"SELECT `open;", nil, true},
		{"SELECT 1; -- done;\n", []string{"SELECT 1"}, false},
		{"SELECT 1 -- not yet;\n", nil, true},
		{"SELECT 1; /* a; b */", []string{"SELECT 1"}, false},
		{"SELECT /* a; b */ 1;", []string{"SELECT /* a; b */ 1"}, false},
		{"SELECT 1; /* open", []string{"SELECT 1"}, true},
		{"SELECT 1 - -1;", []string{"SELECT 1 - -1"}, false},
		{"SELECT a/b;", []string{"SELECT a/b"}, false},
	}
	for _, tc := range tests {
		got, unfinished := SplitStatements(tc.in)
		if !reflect.DeepEqual(got, tc.want) || unfinished != tc.unfinished {
			t.Errorf("SplitStatements(%q) = %q, %v; want %q, %v", tc.in, got, unfinished, tc.want, tc.unfinished)
		}
	}
}
