package sql

import "testing"

// TestIndexNameTail: FROM takes the plugin's unquoted index names and
// patterns written without spaces; with spaces, and outside FROM, - and
// * keep their meaning.
func TestIndexNameTail(t *testing.T) {
	for _, c := range []struct{ q, table string }{
		{"SELECT * FROM logs-*", "logs-*"},
		{"SELECT * FROM acc*", "acc*"},
		{"SELECT * FROM logs-2026-01", "logs-2026-01"},
		{"SELECT * FROM db.logs-* AS l", "db.logs-*"},
		{"SELECT * FROM `logs-01,metrics`", "logs-01,metrics"},
		{"SELECT * FROM logs l", "logs"},
	} {
		st, err := ParseOne(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		tn, ok := st.(*SelectStmt).Query.Body.(*Select).From.(*TableName)
		if !ok || tn.Name != c.table {
			t.Errorf("%s: FROM %+v, want %s", c.q, st.(*SelectStmt).Query.Body.(*Select).From, c.table)
		}
	}
	for _, q := range []string{"SELECT * FROM logs - 1", "SELECT * FROM logs *"} {
		if _, err := ParseOne(q); err == nil {
			t.Errorf("%s parsed", q)
		}
	}
}
