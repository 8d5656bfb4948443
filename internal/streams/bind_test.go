package streams

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// srcTables resolves the one table the tests read, src (id BIGINT,
// status INT, host STRING, ts TIMESTAMP), to an empty in-memory table.
type srcTables struct{}

func (srcTables) ResolveTable(_ context.Context, name string) (*plan.Table, error) {
	if !strings.EqualFold(name, "src") {
		return nil, fmt.Errorf("no table %s", name)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: types.BigInt, Nullable: true},
		{Name: "status", Type: types.Int, Nullable: true},
		{Name: "host", Type: types.String, Nullable: true},
		{Name: "ts", Type: types.Timestamp, Nullable: true},
	}, nil)
	return &plan.Table{Name: "default.src", Source: memtable.New(schema, nil)}, nil
}

// bind binds query (a SELECT over src) as the engine's batch binder does.
func bind(t *testing.T, query string) plan.Node {
	t.Helper()
	st, err := sql.ParseOne(query)
	if err != nil {
		t.Fatal(err)
	}
	n, err := plan.NewBinder(t.Context(), srcTables{}).BindQuery(st.(*sql.SelectStmt).Query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
