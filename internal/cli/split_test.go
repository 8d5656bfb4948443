package cli

import (
	"reflect"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		in       string
		want     []string
		complete bool
	}{
		{"", nil, true},
		{"SELECT 1", []string{"SELECT 1"}, false},
		{"SELECT 1;", []string{"SELECT 1"}, true},
		{"SELECT 1; SELECT 2;\n-- done\n", []string{"SELECT 1", "SELECT 2"}, true},
		{"SELECT ';' AS x;", []string{"SELECT ';' AS x"}, true},
		{"SELECT 'it''s'; ", []string{"SELECT 'it''s'"}, true},
		{"SELECT 'open;", []string{"SELECT 'open;"}, false},
		{"SELECT `a;b` FROM t;", []string{"SELECT `a;b` FROM t"}, true},
		{"SELECT 1 /* ; */;", []string{"SELECT 1 /* ; */"}, true},
		{"SELECT 1 /* open", []string{"SELECT 1 /* open"}, false},
		{"-- just a comment;\n", nil, true},
		{";;", nil, true},
		{"SELECT 1 -- trailing ;\n", []string{"SELECT 1 -- trailing ;"}, false},
	}
	for _, tt := range tests {
		got, complete := splitStatements(tt.in)
		if !reflect.DeepEqual(got, tt.want) || complete != tt.complete {
			t.Errorf("splitStatements(%q) = %q, %v; want %q, %v", tt.in, got, complete, tt.want, tt.complete)
		}
	}
}
