package physical

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// ioCounter counts every call that touches data. With fail set, each
// fails: a plan that compiles over it read nothing.
type ioCounter struct {
	connector.Source
	calls atomic.Int64
	fail  bool
}

var errIO = errors.New("I/O while compiling")

func (c *ioCounter) Latest(ctx context.Context) (connector.Offset, error) {
	c.calls.Add(1)
	if c.fail {
		return nil, errIO
	}
	return c.Source.Latest(ctx)
}

func (c *ioCounter) Plan(ctx context.Context, from, to connector.Offset) ([]connector.Split, error) {
	c.calls.Add(1)
	if c.fail {
		return nil, errIO
	}
	return c.Source.Plan(ctx, from, to)
}

func (c *ioCounter) Open(ctx context.Context, s connector.Split) (connector.RecordReader, error) {
	c.calls.Add(1)
	if c.fail {
		return nil, errIO
	}
	return c.Source.Open(ctx, s)
}

// tables serves logs(uid, path), users(uid, name) and tags(uid, tag), each
// one batch over an ioCounter; logs has a watermark on ts.
type tables map[string]*ioCounter

func newTables(t *testing.T, fail bool) tables {
	i64, str := types.BigInt, types.String
	mk := func(names []string, typs []arrow.DataType, rows ...[]any) *ioCounter {
		fs := make([]arrow.Field, len(names))
		for i := range names {
			fs[i] = arrow.Field{Name: names[i], Type: typs[i], Nullable: true}
		}
		schema := arrow.NewSchema(fs, nil)
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		for _, r := range rows {
			for i, v := range r {
				switch fb := b.Field(i).(type) {
				case *array.Int64Builder:
					fb.Append(v.(int64))
				case *array.StringBuilder:
					fb.Append(v.(string))
				case *array.TimestampBuilder:
					fb.Append(arrow.Timestamp(v.(int64)))
				}
			}
		}
		return &ioCounter{Source: exec.NewBatchSource(names[0], schema, []arrow.RecordBatch{b.NewRecordBatch()}), fail: fail}
	}
	return tables{
		"logs": mk([]string{"uid", "path", "ts"}, []arrow.DataType{i64, str, types.Timestamp},
			[]any{int64(1), "/a", int64(1)}, []any{int64(2), "/b", int64(2)}, []any{int64(3), "/c", int64(3)}),
		"users": mk([]string{"uid", "name"}, []arrow.DataType{i64, str},
			[]any{int64(1), "ann"}, []any{int64(2), "bob"}),
		"tags": mk([]string{"uid", "tag"}, []arrow.DataType{i64, str},
			[]any{int64(1), "admin"}),
	}
}

func (ts tables) ResolveTable(ctx context.Context, name string) (*plan.Table, error) {
	src, ok := ts[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("no table %s", name)
	}
	tb := &plan.Table{Name: strings.ToLower(name), Source: src}
	if tb.Name == "logs" {
		tb.EventTimeColumn, tb.WatermarkDelay = "ts", 5
	}
	return tb, nil
}

func (ts tables) calls() int64 {
	var n int64
	for _, c := range ts {
		n += c.calls.Load()
	}
	return n
}

func optimized(t *testing.T, ts tables, q string, streaming bool) plan.Node {
	t.Helper()
	st, err := sql.ParseOne(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	b := plan.NewBinder(context.Background(), ts)
	b.Streaming = streaming
	n, err := b.BindQuery(st.(*sql.SelectStmt).Query)
	if err != nil {
		t.Fatalf("bind %q: %v", q, err)
	}
	if n, err = plan.Optimize(n); err != nil {
		t.Fatalf("optimize %q: %v", q, err)
	}
	return n
}

// nested joins logs with a join of users and tags: two build sides, one
// inside the other.
const nested = `SELECT l.path, x.name, x.tag FROM logs l
	LEFT JOIN (SELECT u.uid, u.name, t.tag FROM users u LEFT JOIN tags t ON u.uid = t.uid) x ON l.uid = x.uid
	WHERE l.path <> '/z'`

func TestCompileDoesNoIO(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		t.Run(fmt.Sprintf("streaming=%v", streaming), func(t *testing.T) {
			ts := newTables(t, true)
			p, err := Compile(optimized(t, ts, nested, streaming), Options{Streaming: streaming})
			if err != nil {
				t.Fatalf("Compile over sources that fail every read: %v", err)
			}
			if n := ts.calls(); n != 0 {
				t.Errorf("Compile made %d source calls, want none", n)
			}
			if got := exec.Explain(p.Root); !strings.Contains(got, "HashJoin Left") || strings.Count(got, "Scan") != 3 {
				t.Errorf("EXPLAIN of the compiled plan:\n%s", got)
			}
			if n := ts.calls(); n != 0 {
				t.Errorf("EXPLAIN made %d source calls, want none", n)
			}
		})
	}
}

// scanNames lists the tables a stage reads, its inputs included.
func scanNames(st *exec.Stage) []string {
	var out []string
	if st.Scan != nil {
		out = append(out, st.Scan.Name)
	}
	for _, in := range st.Inputs {
		out = append(out, scanNames(in)...)
	}
	return out
}

func TestCompileRunsAfterListingAndLoading(t *testing.T) {
	ctx := context.Background()
	ts := newTables(t, false)
	p, err := Compile(optimized(t, ts, nested, false), Options{Parallelism: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p.StreamScan != nil || p.EventTime != nil {
		t.Errorf("a batch plan has stream fields: %+v", p)
	}
	// Inner build sides first: tags (inside users' side), then users.
	var order []string
	for _, l := range p.Lookups {
		order = append(order, strings.Join(scanNames(l.Build), ","))
		if l.Join.SideInputs()[0] != l.Build {
			t.Errorf("lookup's Build is not its join's build plan")
		}
	}
	if strings.Join(order, " ") != "tags users" {
		t.Fatalf("lookups %v, want [tags users]", order)
	}
	listed, err := exec.ListScans(ctx, p.Root, p.StreamScan)
	if err != nil {
		t.Fatal(err)
	}
	if listed.Splits != 1 || listed.Bytes <= 0 {
		t.Errorf("listed %+v, want the probe side's one split", listed)
	}
	for _, l := range p.Lookups {
		if err := exec.LoadBuildSide(ctx, l.Join); err != nil {
			t.Fatal(err)
		}
	}
	out := exec.NewCollect()
	if err := exec.Run(ctx, p.Root, exec.WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, b := range out.Batches() {
		for i := 0; i < int(b.NumRows()); i++ {
			var vs []string
			for c := 0; c < int(b.NumCols()); c++ {
				vs = append(vs, types.FormatValue(b.Column(c), i))
			}
			rows = append(rows, strings.Join(vs, " "))
		}
	}
	sort.Strings(rows)
	if got, want := strings.Join(rows, "; "), "/a ann admin; /b bob NULL; /c NULL NULL"; got != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestCompileStreaming(t *testing.T) {
	ts := newTables(t, true)
	q := "SELECT u.name, count(*) FROM logs l JOIN users u ON l.uid = u.uid GROUP BY u.name"
	n := optimized(t, ts, q, true)
	if _, err := Compile(n, Options{Streaming: true}); err == nil || !strings.Contains(err.Error(), "append output mode is not supported") {
		t.Errorf("append mode over a windowless aggregate: %v", err)
	}
	p, err := Compile(n, Options{Streaming: true, OutputMode: exec.Complete})
	if err != nil {
		t.Fatal(err)
	}
	if p.StreamScan == nil || p.StreamTable != "logs" || p.StreamScan.Name != "logs" {
		t.Errorf("stream scan %+v of %q, want logs", p.StreamScan, p.StreamTable)
	}
	if p.EventTime == nil || p.EventDelay != 5 {
		t.Errorf("event time %v delay %d, want logs' watermark with delay 5", p.EventTime, p.EventDelay)
	}
	if len(p.Lookups) != 1 || strings.Join(scanNames(p.Lookups[0].Build), ",") != "users" {
		t.Errorf("lookups %+v, want users", p.Lookups)
	}
	if got := exec.Explain(p.Root); !strings.Contains(got, "StreamAggregate") {
		t.Errorf("not a streaming aggregate:\n%s", got)
	}
	// Listing skips the stream's input: its runner feeds it.
	ts["users"].fail = false
	if _, err := exec.ListScans(context.Background(), p.Root, p.StreamScan); err != nil {
		t.Errorf("listing touched the stream's input: %v", err)
	}
	if p.StreamScan.Splits != nil {
		t.Errorf("the stream's input was listed")
	}
}

func TestCompileValuesUsesNow(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	n := optimized(t, newTables(t, true), "SELECT col1 FROM (VALUES (now())) AS v", false)
	p, err := Compile(n, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	out := exec.NewCollect()
	if err := exec.Run(context.Background(), p.Root, exec.WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	b := out.Batches()
	if len(b) != 1 || types.FormatValue(b[0].Column(0), 0) != "2026-03-01 12:00:00" {
		t.Errorf("now() in VALUES: %v", b)
	}
}
