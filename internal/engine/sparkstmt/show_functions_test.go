package sparkstmt

import (
	"strings"
	"testing"

	"sluice/internal/expr/functions"
	"sluice/internal/sql"
)

// TestShowFunctionsDescribable: every function SHOW FUNCTIONS lists is
// one DESCRIBE FUNCTION describes, and no operator is listed.
func TestShowFunctionsDescribable(t *testing.T) {
	eng := &Runner{} // neither statement asks the Host anything
	rows := resultRows(eng.ShowFunctions(&sql.ShowFunctions{}))
	if len(rows) < 100 {
		t.Fatalf("SHOW FUNCTIONS listed %d functions", len(rows))
	}
	for _, n := range rows {
		if d, ok := functions.Lookup(n); !ok || d.Operator {
			t.Errorf("SHOW FUNCTIONS lists %q, not a function", n)
			continue
		}
		if _, err := eng.DescribeFunction(t.Context(), &sql.DescribeFunction{Name: n}); err != nil {
			t.Errorf("DESCRIBE FUNCTION %s: %v", n, err)
		}
	}
	if rows := resultRows(eng.ShowFunctions(&sql.ShowFunctions{Scope: "USER"})); len(rows) != 0 {
		t.Errorf("SHOW USER FUNCTIONS = %v, want none", rows)
	}
}

// resultRows are r's rows, cells joined by "|".
func resultRows(r *Result) []string {
	var out []string
	for _, row := range r.Rows {
		out = append(out, strings.Join(row, "|"))
	}
	return out
}
