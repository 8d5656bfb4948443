package plan

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// testTables serves two in-memory tables: logs and users.
type testTables struct{}

func (testTables) ResolveTable(ctx context.Context, name string) (*Table, error) {
	var fs []arrow.Field
	switch strings.ToLower(name) {
	case "logs":
		fs = []arrow.Field{
			{Name: "ts", Type: types.Timestamp, Nullable: true},
			{Name: "status", Type: types.Int, Nullable: true},
			{Name: "path", Type: types.String, Nullable: true},
			{Name: "size", Type: types.BigInt, Nullable: true},
			{Name: "user_id", Type: types.BigInt, Nullable: true},
			{Name: "geo", Type: types.Struct(arrow.Field{Name: "city", Type: types.String}), Nullable: true},
			{Name: "tags", Type: types.Array(types.String), Nullable: true},
		}
	case "users":
		fs = []arrow.Field{
			{Name: "user_id", Type: types.BigInt, Nullable: true},
			{Name: "name", Type: types.String, Nullable: true},
		}
	default:
		return nil, fmt.Errorf("table %q not found", name)
	}
	return &Table{Name: name, Source: memtable.Named(name, arrow.NewSchema(fs, nil), nil)}, nil
}

func bindSQL(t *testing.T, q string) (Node, error) {
	t.Helper()
	st, err := sql.ParseOne(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	n, err := NewBinder(context.Background(), testTables{}).BindQuery(st.(*sql.SelectStmt).Query)
	if err != nil {
		return nil, err
	}
	return Optimize(n)
}

func TestBindErrors(t *testing.T) {
	cases := []struct{ q, want string }{
		{"SELECT nope FROM logs", `column "nope" not found (available: ts, status, path, size, user_id, geo, tags) (at line 1:8)`},
		{"SELECT status FROM nope", `table "nope" not found`},
		{"SELECT user_id FROM logs JOIN users ON logs.user_id = users.user_id", `ambiguous`},
		{"SELECT path, count(*) FROM logs GROUP BY status", `column "path" must appear in GROUP BY`},
		{"SELECT status FROM logs WHERE count(*) > 1", `aggregate function count is not allowed here`},
		{"SELECT status FROM logs WHERE path", `WHERE condition must be BOOLEAN, got STRING`},
		{"SELECT sum(count(*)) FROM logs", `cannot be nested`},
		{"SELECT status FROM logs ORDER BY 3", `ORDER BY position 3 is not in the select list`},
		{"SELECT status FROM logs GROUP BY 2", `GROUP BY position 2 is not in the select list`},
		{"SELECT DISTINCT status FROM logs ORDER BY size", `must appear in the SELECT list when DISTINCT`},
		{"SELECT status FROM logs UNION ALL SELECT status, path FROM logs", `different numbers of columns`},
		{"SELECT nofunc(status) FROM logs", `unknown function nofunc`},
		{"SELECT x.* FROM logs", `x.* names no table`},
		{"SELECT status FROM logs LIMIT -1", `LIMIT`},
		{"SELECT explode(tags), explode(tags) FROM logs", `only one generator`},
		{"SELECT explode(status) FROM logs", `expects an ARRAY or MAP`},
	}
	for _, c := range cases {
		_, err := bindSQL(t, c.q)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.q, err, c.want)
		}
	}
}

func TestOptimizedPlans(t *testing.T) {
	cases := []struct{ q, want string }{
		{"SELECT path FROM logs WHERE status >= 500", `
Project [path]
  Filter (status >= 500)
    Scan logs columns=[status, path] filter=(status >= 500)`},
		{"SELECT status, count(*) AS n FROM logs GROUP BY status ORDER BY n DESC LIMIT 3", `
TopN 3 [n DESC]
  Project [status, BQcount(*)BQ AS n]
    Aggregate keys=[status] aggs=[count(*)]
      Scan logs columns=[status]`},
		{"SELECT u.name, count(*) FROM logs l JOIN users u ON l.user_id = u.user_id WHERE l.status = 500 AND u.name <> 'bot' GROUP BY u.name", `
Project [name, BQcount(*)BQ AS BQcount(1)BQ]
  Aggregate keys=[name] aggs=[count(*)]
    HashJoin Inner on=[user_id = user_id]
      Filter (status = 500)
        Scan logs columns=[status, user_id] filter=(status = 500)
      Filter (name <> 'bot')
        Scan users columns=[user_id, name] filter=(name <> 'bot')`},
		{"SELECT * FROM (SELECT path, size FROM logs) t WHERE size > 10", `
Project [path, size]
  Project [path, size]
    Filter (size > 10)
      Scan logs columns=[path, size] filter=(size > 10)`},
		{"SELECT geo.city, explode(tags) AS tag FROM logs", `
Project [geo.city AS city, tag]
  Explode tags
    Scan logs columns=[geo, tags]`},
	}
	for _, c := range cases {
		n, err := bindSQL(t, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		got := strings.TrimRight(Format(n), "\n")
		want := strings.ReplaceAll(strings.TrimPrefix(c.want, "\n"), "BQ", "`")
		if got != want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", c.q, got, want)
		}
	}
}
