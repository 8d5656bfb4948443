package plan

import (
	"fmt"
	"testing"

	"sluice/internal/sql"
)

// TestExpandGroupBy checks the grouping sets each GROUP BY form yields
// and Spark's grouping ids (first key highest, 1 = rolled up).
func TestExpandGroupBy(t *testing.T) {
	tests := []struct{ groupBy, keys, sets, ids string }{
		{"a, b", "[a b]", "[]", "[]"},
		{"ROLLUP (a, b)", "[a b]", "[[0 1] [0] []]", "[0 1 3]"},
		{"CUBE (a, b)", "[a b]", "[[0 1] [0] [1] []]", "[0 1 2 3]"},
		{"GROUPING SETS ((a, b), b, ())", "[a b]", "[[0 1] [1] []]", "[0 2 3]"},
		{"a, ROLLUP (b, c)", "[a b c]", "[[0 1 2] [0 1] [0]]", "[0 1 3]"},
		{"ROLLUP ((a, b), c)", "[a b c]", "[[0 1 2] [0 1] []]", "[0 1 7]"},
		{"ROLLUP (a), CUBE (b)", "[a b]", "[[0 1] [0] [1] []]", "[0 1 2 3]"},
	}
	for _, tt := range tests {
		st, err := sql.ParseOne("SELECT 1 FROM t GROUP BY " + tt.groupBy)
		if err != nil {
			t.Fatal(err)
		}
		sel := st.(*sql.SelectStmt).Query.Body.(*sql.Select)
		g := expandGroupBy(sel.GroupBy)
		keys := make([]string, len(g.keys))
		for i, k := range g.keys {
			keys[i] = k.String()
		}
		ids := make([]int64, len(g.sets))
		for i, s := range g.sets {
			ids[i] = groupingID(s, len(g.keys))
		}
		sets := fmt.Sprint(g.sets)
		if g.sets == nil {
			sets = "[]"
		}
		if got := fmt.Sprint(keys); got != tt.keys {
			t.Errorf("%s: keys %s, want %s", tt.groupBy, got, tt.keys)
		}
		if sets != tt.sets {
			t.Errorf("%s: sets %s, want %s", tt.groupBy, sets, tt.sets)
		}
		if got := fmt.Sprint(ids); got != tt.ids {
			t.Errorf("%s: ids %s, want %s", tt.groupBy, got, tt.ids)
		}
	}
}

// TestSetIDsRepeat checks that a repeated set gets its own hidden key.
func TestSetIDsRepeat(t *testing.T) {
	got := fmt.Sprint(setIDs([][]int{{0}, {0}, {}, {0}}, 1))
	if got != "[0 2 1 4]" {
		t.Fatalf("setIDs = %s, want [0 2 1 4]", got)
	}
}
