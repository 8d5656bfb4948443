package file

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/types"
)

func must(e expr.Expr, err error) expr.Expr {
	if err != nil {
		panic(err)
	}
	return e
}

func call(name string, args ...expr.Expr) expr.Expr { return must(expr.Call(name, args...)) }
func lit(v any, t arrow.DataType) expr.Expr         { return must(expr.Lit(v, t)) }
func in(x expr.Expr, not bool, list ...expr.Expr) expr.Expr {
	return must(expr.In(x, list, not))
}

func TestPartitionPruning(t *testing.T) {
	dir := logsTree(t)
	year := expr.Col(3, "year", types.Int)
	month := expr.Col(4, "month", types.Int)
	status := expr.Col(0, "status", types.Int)
	cases := []struct {
		name       string
		pred       expr.Expr
		wantFiles  int
		wantPruned int
		wantRows   int
	}{
		{"year = 2026", call("=", year, lit(int32(2026), types.Int)), 2, 2, 2},
		{"month > 5 and status = 200", call("and", call(">", month, lit(int32(5), types.Int)), call("=", status, lit(int32(200), types.Int))), 2, 2, 3},
		{"year is null", call("is_null", year), 1, 3, 1},
		{"year = 2026 or month = 12", call("or", call("=", year, lit(int32(2026), types.Int)), call("=", month, lit(int32(12), types.Int))), 3, 1, 4},
		{"status = 500 only", call("=", status, lit(int32(500), types.Int)), 4, 0, 5},
		{"year + month > 2030", call(">", call("+", year, month), lit(int32(2030), types.Int)), 2, 2, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := NewSource(context.Background(), logsSpec(dir))
			if err != nil {
				t.Fatal(err)
			}
			p, err := src.PushFilter(c.pred)
			if err != nil {
				t.Fatal(err)
			}
			rows := readAll(t, p)
			ps := p.(*Source)
			if got := ps.stats.files.Load(); got != int64(c.wantFiles) {
				t.Errorf("files = %d, want %d", got, c.wantFiles)
			}
			if got := ps.stats.pruned.Load(); got != int64(c.wantPruned) {
				t.Errorf("pruned = %d, want %d", got, c.wantPruned)
			}
			if got := ps.OpenedFiles(); got != int64(c.wantFiles) {
				t.Errorf("opened %d files, want %d", got, c.wantFiles)
			}
			if len(rows) != c.wantRows {
				t.Errorf("%d rows, want %d: %v", len(rows), c.wantRows, rows)
			}
		})
	}
}

func TestPushFilterAfterProjection(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), logsSpec(dir))
	if err != nil {
		t.Fatal(err)
	}
	p, err := src.PushProjection([]string{"month", "_file", "status"})
	if err != nil {
		t.Fatal(err)
	}
	// Over the projected schema: month is column 0, _file column 1.
	pred := call("and", call("=", expr.Col(0, "month", types.Int), lit(int32(11), types.Int)),
		call("is_not_null", expr.Col(1, "_file", types.String)))
	f, err := p.(connector.FilterPusher).PushFilter(pred)
	if err != nil {
		t.Fatal(err)
	}
	rows := readAll(t, f)
	if len(rows) != 1 || f.(*Source).stats.pruned.Load() != 3 {
		t.Errorf("rows %v, pruned %d", rows, f.(*Source).stats.pruned.Load())
	}
}

func TestListingPrefixPruning(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"t/region=eu/day=2026-11-01/a.json":    `{"n": 1}`,
		"t/region=eu/day=2026-11-02/b.json":    `{"n": 2}`,
		"t/region=us/day=2026-11-01/c.json":    `{"n": 3}`,
		"t/region=a%2Fb/day=2026-11-01/d.json": `{"n": 4}`,
	})
	spec := connector.TableSpec{Name: "t", Using: "json", Location: dir + "/t",
		Schema:      schema(field("n", types.BigInt), field("region", types.String), field("day", types.Date)),
		PartitionBy: []string{"region", "day"}}
	src, err := NewSource(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	region := expr.Col(1, "region", types.String)
	day := expr.Col(2, "day", types.Date)
	d1, _ := types.ParseDate("2026-11-01")
	in, err := expr.In(region, []expr.Expr{lit("us", types.String), lit("a/b", types.String)}, false)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		pred     expr.Expr
		prefixes []string
		rows     []string
	}{
		{"region = eu", call("=", region, lit("eu", types.String)), []string{"region=eu/"}, []string{"1|eu|2026-11-01", "2|eu|2026-11-02"}},
		{"eu and day", call("and", call("=", lit("eu", types.String), region), call("=", day, lit(d1, types.Date))), []string{"region=eu/day=2026-11-01/"}, []string{"1|eu|2026-11-01"}},
		// a/b is a%2Fb in every writer's folders, but not all values are:
		// such a value lists everything and prunes file by file.
		{"region in", in, nil, []string{"3|us|2026-11-01", "4|a/b|2026-11-01"}},
		{"day only", call("=", day, lit(d1, types.Date)), nil, []string{"1|eu|2026-11-01", "3|us|2026-11-01", "4|a/b|2026-11-01"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := src.PushFilter(c.pred)
			if err != nil {
				t.Fatal(err)
			}
			ps := p.(*Source)
			prefixes, err := ps.partitionPrefixes(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var rel []string
			for _, x := range prefixes {
				rel = append(rel, x[len(ps.loc.base):])
			}
			if !reflect.DeepEqual(rel, c.prefixes) {
				t.Errorf("prefixes %q, want %q", rel, c.prefixes)
			}
			if got := readAll(t, p); !reflect.DeepEqual(sorted(got), sorted(c.rows)) {
				t.Errorf("rows %v, want %v", got, c.rows)
			}
		})
	}
}

func TestStatPredMayMatch(t *testing.T) {
	cases := []struct {
		p        statPred
		min, max any
		nulls    int64
		want     bool
	}{
		{statPred{op: "=", vals: []any{int64(5)}}, int64(1), int64(10), 0, true},
		{statPred{op: "=", vals: []any{int64(50)}}, int64(1), int64(10), 0, false},
		{statPred{op: "=", vals: []any{int64(0)}}, int64(1), int64(10), 0, false},
		{statPred{op: "<", vals: []any{int64(1)}}, int64(1), int64(10), 0, false},
		{statPred{op: "<=", vals: []any{int64(1)}}, int64(1), int64(10), 0, true},
		{statPred{op: ">", vals: []any{int64(10)}}, int64(1), int64(10), 0, false},
		{statPred{op: ">=", vals: []any{int64(10)}}, int64(1), int64(10), 0, true},
		{statPred{op: ">=", vals: []any{9.5}}, int64(1), int64(10), 0, true},
		{statPred{op: ">", vals: []any{10.5}}, int64(1), int64(10), 0, false},
		{statPred{op: "between", vals: []any{int64(11), int64(20)}}, int64(1), int64(10), 0, false},
		{statPred{op: "between", vals: []any{int64(5), int64(20)}}, int64(1), int64(10), 0, true},
		{statPred{op: "in", vals: []any{int64(0), int64(11)}}, int64(1), int64(10), 0, false},
		{statPred{op: "in", vals: []any{int64(0), int64(7)}}, int64(1), int64(10), 0, true},
		{statPred{op: "is_null"}, int64(1), int64(10), 0, false},
		{statPred{op: "is_null"}, int64(1), int64(10), 3, true},
		{statPred{op: "=", vals: []any{"m"}}, "a", "k", 0, false},
		{statPred{op: "=", vals: []any{"b"}}, "a", "k", 0, true},
		{statPred{op: "=", vals: []any{"b"}}, int64(1), int64(2), 0, true}, // mismatched kinds: keep
		{statPred{op: "=", vals: []any{int64(5)}}, nil, nil, 0, true},
		{statPred{op: "=", vals: []any{true}}, false, false, 0, false},
	}
	for i, c := range cases {
		if got := c.p.mayMatch(c.min, c.max, c.nulls); got != c.want {
			t.Errorf("case %d %+v on [%v, %v] = %v, want %v", i, c.p, c.min, c.max, got, c.want)
		}
	}
}

func TestToStatPred(t *testing.T) {
	geoType := types.Struct(arrow.Field{Name: "zip", Type: types.Int})
	table := schema(field("n", types.Int), field("s", types.String), field("p", types.Int), field("ok", types.Boolean),
		field("ts", types.Timestamp), field("d", types.Double), field("dec", types.Decimal(10, 2)), field("day", types.Date),
		field("geo", geoType))
	isPart := []bool{false, false, true, false, false, false, false, false, false}
	n := expr.Col(0, "n", types.Int)
	s := expr.Col(1, "s", types.String)
	ok := expr.Col(3, "ok", types.Boolean)
	ts := expr.Col(4, "ts", types.Timestamp)
	d := expr.Col(5, "d", types.Double)
	dec := expr.Col(6, "dec", types.Decimal(10, 2))
	day := expr.Col(7, "day", types.Date)
	geo := expr.Col(8, "geo", geoType)
	cases := []struct {
		pred expr.Expr
		want *statPred
	}{
		{call("<", n, lit(int32(5), types.Int)), &statPred{col: "n", op: "<", vals: []any{int64(5)}}},
		{call("<", lit(int32(5), types.Int), n), &statPred{col: "n", op: ">", vals: []any{int64(5)}}},
		{call(">=", n, lit(int64(7), types.BigInt)), &statPred{col: "n", op: ">=", vals: []any{int64(7)}}},
		{call("between", n, lit(int32(1), types.Int), lit(int32(3), types.Int)), &statPred{col: "n", op: "between", vals: []any{int64(1), int64(3)}}},
		{call("is_null", expr.Col(1, "s", types.String)), &statPred{col: "s", op: "is_null"}},
		{call("=", expr.Col(1, "s", types.String), lit("x", types.String)), &statPred{col: "s", op: "=", vals: []any{"x"}}},
		{call("<>", n, lit(int32(5), types.Int)), nil},
		{call("=", expr.Col(2, "p", types.Int), lit(int32(5), types.Int)), nil},
		{call("<=", lit(int32(5), types.Int), n), &statPred{col: "n", op: ">=", vals: []any{int64(5)}}},
		{call(">", lit(int32(5), types.Int), n), &statPred{col: "n", op: "<", vals: []any{int64(5)}}},
		{call(">=", lit(int32(5), types.Int), n), &statPred{col: "n", op: "<=", vals: []any{int64(5)}}},
		{call("=", lit(int32(5), types.Int), n), &statPred{col: "n", op: "=", vals: []any{int64(5)}}},
		{call("<", n, lit(2.5, types.Double)), &statPred{col: "n", op: "<", vals: []any{2.5}}},
		// Truncating: not seen through, or 5.1..5.9 row groups would be skipped.
		{call("=", must(expr.Cast(d, types.Int)), lit(int32(5), types.Int)), nil},
		{call("=", must(expr.Cast(s, types.Int)), lit(int32(5), types.Int)), nil},
		{call("=", dec, lit(int32(5), types.Int)), nil},
		{call("=", ok, lit(true, types.Boolean)), &statPred{col: "ok", op: "=", vals: []any{true}}},
		{call("<", ts, lit(int64(1_700_000_000_000_000), types.Timestamp)), &statPred{col: "ts", op: "<", vals: []any{int64(1_700_000_000_000_000)}}},
		{call(">", day, lit(int32(19000), types.Date)), &statPred{col: "day", op: ">", vals: []any{int64(19000)}}},
		{call("=", day, lit(int64(1_700_000_000_000_000), types.Timestamp)), nil},
		{call("=", n, lit(nil, types.Int)), nil},
		{call("=", n, expr.Col(5, "d", types.Double)), nil},
		{call("=", call("+", n, lit(int32(1), types.Int)), lit(int32(2), types.Int)), nil},
		{call("=", must(expr.Field(geo, "zip")), lit(int32(5), types.Int)), nil},
		{call("between", lit(int32(1), types.Int), n, lit(int32(3), types.Int)), nil},
		{call("between", n, lit(int32(1), types.Int), expr.Col(5, "d", types.Double)), nil},
		{call("is_not_null", n), nil},
		{call("is_null", must(expr.Cast(n, types.BigInt))), &statPred{col: "n", op: "is_null"}},
		{call("is_null", expr.Col(2, "p", types.Int)), nil},
		{call("not", call("=", n, lit(int32(5), types.Int))), nil},
		{call("or", call("=", n, lit(int32(5), types.Int)), call("=", n, lit(int32(6), types.Int))), nil},
		{call("like", s, lit("a%", types.String)), nil},
		{in(n, false, lit(int32(1), types.Int), lit(int32(2), types.Int)), &statPred{col: "n", op: "in", vals: []any{int64(1), int64(2)}}},
		{in(n, false, lit(int64(1), types.BigInt)), &statPred{col: "n", op: "in", vals: []any{int64(1)}}},
		{in(n, true, lit(int32(1), types.Int)), nil},
		{in(n, false, lit(int32(1), types.Int), lit(nil, types.Int)), nil},
		{in(lit(int32(1), types.Int), false, n), nil},
		{in(expr.Col(2, "p", types.Int), false, lit(int32(1), types.Int), n), nil},
	}
	for _, c := range cases {
		_, stats := splitFilter(c.pred, table, isPart)
		var got *statPred
		if len(stats) == 1 {
			got = &stats[0]
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.pred, got, c.want)
		}
	}
}

// writeParquet writes ids 0..n-1 (BIGINT id, STRING tag = "t<id/10>")
// into a Parquet file with row groups of groupRows rows.
func writeParquet(t *testing.T, p string, n, groupRows int) {
	t.Helper()
	sch := schema(field("id", types.BigInt), field("tag", types.String))
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := pqarrow.NewFileWriter(sch, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(groupRows))), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < n; start += groupRows {
		var rows [][]any
		for i := start; i < min(n, start+groupRows); i++ {
			rows = append(rows, []any{i, fmt.Sprintf("t%d", i/10)})
		}
		b := makeBatch(t, sch, rows)
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParquetRowGroupPruning(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/t", 0o755); err != nil {
		t.Fatal(err)
	}
	writeParquet(t, dir+"/t/a.parquet", 30, 10)
	spec := connector.TableSpec{Name: "t", Using: "parquet", Location: dir + "/t",
		Schema: schema(field("id", types.BigInt), field("tag", types.String))}
	id := expr.Col(0, "id", types.BigInt)
	tag := expr.Col(1, "tag", types.String)
	in, err := expr.In(id, []expr.Expr{lit(int64(3), types.BigInt), lit(int64(27), types.BigInt)}, false)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		pred        expr.Expr
		wantRows    int
		wantSkipped int64
	}{
		{"id >= 25", call(">=", id, lit(int64(25), types.BigInt)), 10, 2},
		{"id = 15", call("=", id, lit(int64(15), types.BigInt)), 10, 2},
		{"15 > id", call(">", lit(int64(15), types.BigInt), id), 20, 1},
		{"between", call("between", id, lit(int64(9), types.BigInt), lit(int64(10), types.BigInt)), 20, 1},
		{"in", in, 20, 1},
		{"id > 100", call(">", id, lit(int64(100), types.BigInt)), 0, 3},
		{"tag = t2", call("=", tag, lit("t2", types.String)), 10, 2},
		{"id is null", call("is_null", id), 0, 3},
		{"id <> 5 keeps all", call("<>", id, lit(int64(5), types.BigInt)), 30, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := NewSource(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			p, err := src.PushFilter(c.pred)
			if err != nil {
				t.Fatal(err)
			}
			rows := readAll(t, p)
			if len(rows) != c.wantRows {
				t.Errorf("%d rows, want %d", len(rows), c.wantRows)
			}
			if got := p.(*Source).RowGroupsSkipped(); got != c.wantSkipped {
				t.Errorf("skipped %d row groups, want %d", got, c.wantSkipped)
			}
		})
	}
}

func TestPushFilterTwice(t *testing.T) {
	dir := logsTree(t)
	src, err := NewSource(context.Background(), logsSpec(dir))
	if err != nil {
		t.Fatal(err)
	}
	p1, err := src.PushFilter(call("=", expr.Col(3, "year", types.Int), lit(int32(2026), types.Int)))
	if err != nil {
		t.Fatal(err)
	}
	p2, err := p1.(connector.FilterPusher).PushFilter(call("=", expr.Col(4, "month", types.Int), lit(int32(11), types.Int)))
	if err != nil {
		t.Fatal(err)
	}
	if rows := readAll(t, p2); len(rows) != 1 || p2.(*Source).stats.pruned.Load() != 3 {
		t.Errorf("rows %v pruned %d: both filters should prune", rows, p2.(*Source).stats.pruned.Load())
	}
}

func TestPinnedValues(t *testing.T) {
	table := schema(field("region", types.String), field("day", types.Date), field("n", types.Int), field("other", types.String))
	region := expr.Col(0, "region", types.String)
	day := expr.Col(1, "day", types.Date)
	n := expr.Col(2, "n", types.Int)
	str := func(s string) expr.Expr { return lit(s, types.String) }
	d1, _ := types.ParseDate("2026-11-01")
	cases := []struct {
		preds []expr.Expr
		col   int
		want  []string
	}{
		{[]expr.Expr{call("=", region, str("eu"))}, 0, []string{"eu"}},
		{[]expr.Expr{call("=", str("eu"), region)}, 0, []string{"eu"}},
		{[]expr.Expr{in(region, false, str("a/b"), str("x"))}, 0, nil},
		{[]expr.Expr{in(region, false, str("New York"))}, 0, nil},
		{[]expr.Expr{in(region, false, str("a-b_c.d~e"), str("x"))}, 0, []string{"a-b_c.d~e", "x"}},
		{[]expr.Expr{in(region, true, str("a"))}, 0, nil},
		{[]expr.Expr{in(region, false, str("a"), lit(nil, types.String))}, 0, nil},
		{[]expr.Expr{in(region, false, str("a"), lit(nil, types.String)), call("=", region, str("b"))}, 0, []string{"b"}},
		{[]expr.Expr{call("=", region, lit(nil, types.String))}, 0, nil},
		{[]expr.Expr{call("<>", region, str("eu"))}, 0, nil},
		{[]expr.Expr{call("=", region, expr.Col(3, "other", types.String))}, 0, nil},
		{[]expr.Expr{call("=", region, str("eu"))}, 1, nil},
		{[]expr.Expr{call("=", day, lit(d1, types.Date))}, 1, []string{"2026-11-01"}},
		{[]expr.Expr{call("=", day, str("2026-11-01"))}, 1, []string{"2026-11-01"}},
		{[]expr.Expr{in(day, false, lit(d1, types.Date), lit(d1+1, types.Date))}, 1, []string{"2026-11-01", "2026-11-02"}},
		{[]expr.Expr{call("=", day, lit(int64(d1)*86_400_000_000, types.Timestamp))}, 1, nil},
		{[]expr.Expr{call("=", n, lit(int32(1), types.Int))}, 2, nil},
	}
	for i, c := range cases {
		if got := pinnedValues(c.preds, table, c.col); !reflect.DeepEqual(got, c.want) {
			t.Errorf("case %d %v on column %d: got %q, want %q", i, c.preds, c.col, got, c.want)
		}
	}
}
