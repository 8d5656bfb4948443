package plan

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// pushySource takes projections, filters (exactly, unless the predicate
// mentions path) and aggregations, and records the aggregation it took.
// It refuses any I/O: planning must not read.
type pushySource struct {
	schema  *arrow.Schema
	inexact bool
	took    *pushedAgg
}

type pushedAgg struct {
	groups []connector.GroupKey
	aggs   []connector.AggCall
}

var (
	_ connector.ProjectionPusher = (*pushySource)(nil)
	_ connector.FilterPusher     = (*pushySource)(nil)
	_ connector.AggregatePusher  = (*pushySource)(nil)
)

func (s *pushySource) Schema() *arrow.Schema { return s.schema }
func (s *pushySource) Latest(context.Context) (connector.Offset, error) {
	return nil, errors.New("no I/O while planning")
}
func (s *pushySource) Plan(context.Context, connector.Offset, connector.Offset) ([]connector.Split, error) {
	return nil, errors.New("no I/O while planning")
}
func (s *pushySource) Open(context.Context, connector.Split) (connector.RecordReader, error) {
	return nil, errors.New("no I/O while planning")
}

func (s *pushySource) PushProjection(cols []string) (connector.Source, error) {
	var fs []arrow.Field
	for _, c := range cols {
		i := s.schema.FieldIndices(c)
		if len(i) == 0 {
			return nil, fmt.Errorf("no column %s", c)
		}
		fs = append(fs, s.schema.Field(i[0]))
	}
	c := *s
	c.schema = arrow.NewSchema(fs, nil)
	return &c, nil
}

func (s *pushySource) PushFilter(pred expr.Expr) (connector.Source, error) {
	c := *s
	c.inexact = c.inexact || strings.Contains(pred.String(), "path")
	return &c, nil
}

// PushAggregate answers counts as INT (narrower than the engine's BIGINT)
// so the rule has a cast to add.
func (s *pushySource) PushAggregate(groups []connector.GroupKey, aggs []connector.AggCall) (connector.Source, bool, error) {
	if s.inexact {
		return nil, false, nil
	}
	*s.took = pushedAgg{groups, aggs}
	var fs []arrow.Field
	for i, g := range groups {
		f := s.schema.Field(s.schema.FieldIndices(g.Column)[0])
		fs = append(fs, arrow.Field{Name: fmt.Sprintf("k%d", i), Type: f.Type, Nullable: true})
	}
	for i := range aggs {
		fs = append(fs, arrow.Field{Name: fmt.Sprintf("a%d", i), Type: types.Int, Nullable: true})
	}
	return &pushySource{schema: arrow.NewSchema(fs, nil), took: s.took}, true, nil
}

type pushyTables struct{ took *pushedAgg }

func (p pushyTables) ResolveTable(ctx context.Context, name string) (*Table, error) {
	if !strings.EqualFold(name, "es") {
		return testTables{}.ResolveTable(ctx, name)
	}
	fs := []arrow.Field{
		{Name: "ts", Type: types.Timestamp, Nullable: true},
		{Name: "status", Type: types.Int, Nullable: true},
		{Name: "path", Type: types.String, Nullable: true},
		{Name: "size", Type: types.BigInt, Nullable: true},
	}
	return &Table{Name: "es", Source: &pushySource{schema: arrow.NewSchema(fs, nil), took: p.took}}, nil
}

func optimizePushy(t *testing.T, q string, streaming bool) (Node, *pushedAgg) {
	t.Helper()
	st, err := sql.ParseOne(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	took := &pushedAgg{}
	b := NewBinder(context.Background(), pushyTables{took: took})
	b.Streaming = streaming
	n, err := b.BindQuery(st.(*sql.SelectStmt).Query)
	if err != nil {
		t.Fatalf("bind %q: %v", q, err)
	}
	if n, err = Optimize(n); err != nil {
		t.Fatalf("optimize %q: %v", q, err)
	}
	return n, took
}

func TestPushAggregateIntoScan(t *testing.T) {
	n, took := optimizePushy(t, "SELECT status, count(*), sum(size) FROM es WHERE status >= 400 GROUP BY status", false)
	plan := Format(n)
	if strings.Contains(plan, "Aggregate keys") || strings.Contains(plan, "Filter") || !strings.Contains(plan, "pushed=(keys=[status]") {
		t.Fatalf("aggregate not pushed:\n%s", plan)
	}
	want := pushedAgg{[]connector.GroupKey{{Column: "status"}}, []connector.AggCall{{Func: "count"}, {Func: "sum", Column: "size"}}}
	if fmt.Sprint(*took) != fmt.Sprint(want) {
		t.Errorf("pushed %v, want %v", *took, want)
	}
	// The output keeps the Aggregate's names and types: the source's INT
	// counts are cast back to BIGINT.
	got := n.Schema()
	if got.NumFields() != 3 || got.Field(0).Name != "status" || got.Field(1).Type.ID() != arrow.INT64 || got.Field(2).Type.ID() != arrow.INT64 {
		t.Errorf("schema %s", got)
	}

	n, took = optimizePushy(t, "SELECT date_trunc('hour', ts), max(status) FROM es GROUP BY date_trunc('hour', ts)", false)
	if len(took.groups) != 1 || took.groups[0] != (connector.GroupKey{Column: "ts", Interval: time.Hour}) {
		t.Errorf("date_trunc hour: pushed %v\n%s", *took, Format(n))
	}
}

func TestPushAggregateIntoScanKeepsPlan(t *testing.T) {
	cases := []struct {
		name, q   string
		streaming bool
	}{
		{"filter pushed inexactly", "SELECT status, count(*) FROM es WHERE path = '/a' GROUP BY status", false},
		{"distinct", "SELECT status, count(DISTINCT size) FROM es GROUP BY status", false},
		{"expression argument", "SELECT status, sum(size + 1) FROM es GROUP BY status", false},
		{"month is not a fixed width", "SELECT date_trunc('month', ts), count(*) FROM es GROUP BY date_trunc('month', ts)", false},
		{"unsupported function", "SELECT status, stddev(size) FROM es GROUP BY status", false},
		{"source cannot aggregate", "SELECT status, count(*) FROM logs GROUP BY status", false},
		{"streaming input", "SELECT status, count(*) FROM es GROUP BY status", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, took := optimizePushy(t, c.q, c.streaming)
			if plan := Format(n); !strings.Contains(plan, "Aggregate keys") || took.aggs != nil {
				t.Errorf("pushed %v:\n%s", *took, plan)
			}
		})
	}
}
