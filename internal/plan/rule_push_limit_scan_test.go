package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// limitySource records the limit pushed into it.
type limitySource struct {
	*pushySource
	limit *int64
}

var _ connector.LimitPusher = (*limitySource)(nil)

func (s *limitySource) PushProjection(cols []string) (connector.Source, error) {
	p, err := s.pushySource.PushProjection(cols)
	if err != nil {
		return nil, err
	}
	return &limitySource{pushySource: p.(*pushySource), limit: s.limit}, nil
}

func (s *limitySource) PushLimit(n int64) (connector.Source, error) {
	*s.limit = n
	return s, nil
}

type limityTables struct{ limit *int64 }

func (l limityTables) ResolveTable(ctx context.Context, name string) (*Table, error) {
	fs := []arrow.Field{{Name: "status", Type: types.Int, Nullable: true}, {Name: "path", Type: types.String, Nullable: true}}
	return &Table{Name: name, Source: &limitySource{pushySource: &pushySource{schema: arrow.NewSchema(fs, nil), took: &pushedAgg{}}, limit: l.limit}}, nil
}

func TestPushLimitIntoScan(t *testing.T) {
	for _, tc := range []struct {
		q         string
		streaming bool
		want      int64 // -1: not pushed
	}{
		{"SELECT * FROM t LIMIT 5", false, 5},
		{"SELECT status + 1 AS s FROM t LIMIT 5 OFFSET 3", false, 8},
		{"SELECT * FROM t WHERE status = 1 LIMIT 5", false, -1},
		{"SELECT * FROM t ORDER BY status LIMIT 5", false, -1},
		{"SELECT DISTINCT status FROM t LIMIT 5", false, -1},
		{"SELECT status, count(*) FROM t GROUP BY status LIMIT 5", false, -1},
		{"SELECT * FROM t OFFSET 5", false, -1},
		{"SELECT * FROM t LIMIT 5", true, -1},
	} {
		limit := int64(-1)
		st, err := sql.ParseOne(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		b := NewBinder(context.Background(), limityTables{limit: &limit})
		b.Streaming = tc.streaming
		n, err := b.BindQuery(st.(*sql.SelectStmt).Query)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if n, err = Optimize(n); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if limit != tc.want {
			t.Errorf("%s (streaming=%v): pushed %d, want %d\n%s", tc.q, tc.streaming, limit, tc.want, Format(n))
		}
		if plan := Format(n); tc.want >= 0 && (!strings.Contains(plan, "pushed=(limit=") || !strings.Contains(plan, "Limit ")) {
			t.Errorf("%s: plan lacks the Limit or the pushed limit:\n%s", tc.q, plan)
		}
	}
}
