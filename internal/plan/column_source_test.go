package plan

import (
	"context"
	"fmt"
	"testing"

	"sluice/internal/sql"
)

// TestColumnSources: a column passed on unchanged or renamed keeps its
// table column; computed ones have none.
func TestColumnSources(t *testing.T) {
	cases := []struct{ q, want string }{
		{"SELECT path AS p, status + 1, CAST(status AS BIGINT), geo.city FROM logs", "[{logs path } {  } {  } {  }]"},
		{"SELECT u.name, l.status FROM logs l JOIN users u ON l.user_id = u.user_id", "[{users name } {logs status }]"},
		{"SELECT status, count(*) FROM logs GROUP BY status", "[{logs status } {  }]"},
		{"SELECT s FROM (SELECT status AS s FROM logs WHERE size > 1 ORDER BY s LIMIT 3) q", "[{logs status }]"},
		{"SELECT name FROM users UNION ALL SELECT path FROM logs", "[{users name }]"},
		{"SELECT status, row_number() OVER (ORDER BY ts) FROM logs", "[{logs status } {  }]"},
	}
	for _, c := range cases {
		st, err := sql.ParseOne(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		n, err := NewBinder(context.Background(), testTables{}).BindQuery(st.(*sql.SelectStmt).Query)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if got := fmt.Sprint(ColumnSources(n)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.q, got, c.want)
		}
	}
}
