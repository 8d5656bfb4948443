// Package suite is the conformance suite both search sinks pass: the
// OpenSearch connector against a real node and the embedded local index.
// Each connector's tests call Run with a Target that opens its tables;
// server-only checks (date-pattern indices, dead letters, outages) live
// beside the OpenSearch connector.
//
//	suite.Run(t, suite.Target{
//		Options: func(table string) map[string]string { return map[string]string{"path": dir + "/" + table} },
//		NewSink: ..., NewSource: ..., Refresh: ...,
//	})
package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/types"
)

// Target opens tables of one connector.
type Target struct {
	Using string
	// Options returns the connector options for a fresh table (text_fields
	// and id are added by the suite).
	Options   func(table string) map[string]string
	NewSink   func(ctx context.Context, spec connector.TableSpec) (connector.Sink, error)
	NewSource func(ctx context.Context, spec connector.TableSpec) (connector.Source, error)
	// Refresh makes what was flushed visible to readers (nil: it is).
	Refresh func(t *testing.T, spec connector.TableSpec)
}

// Schema is the suite's table.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: types.BigInt, Nullable: true},
	{Name: "ts", Type: types.Timestamp, Nullable: true},
	{Name: "host", Type: types.String, Nullable: true},
	{Name: "status", Type: types.Int, Nullable: true},
	{Name: "bytes", Type: types.BigInt, Nullable: true},
	{Name: "latency", Type: types.Double, Nullable: true},
	{Name: "ok", Type: types.Boolean, Nullable: true},
	{Name: "msg", Type: types.String, Nullable: true},
	{Name: "geo", Type: types.Struct(arrow.Field{Name: "country", Type: types.String, Nullable: true}, arrow.Field{Name: "city", Type: types.String, Nullable: true}), Nullable: true},
	{Name: "tags", Type: types.Array(types.String), Nullable: true},
}, nil)

// Base is the first row's timestamp; rows are a minute and 7 ms apart
// (plus a few micros, to test millisecond widening).
var Base = time.Date(2026, 11, 28, 22, 0, 0, 0, time.UTC)

var msgs = []string{
	"user login failed for admin", "user login succeeded", "request timeout upstream",
	"the login page was served", "failed the user login", "cache miss", "",
}

// Batch makes rows [from, from+n) of the suite's deterministic data.
func Batch(from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, Schema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		ts := Base.Add(time.Duration(i)*(time.Minute+7*time.Millisecond) + time.Duration(i%3)*time.Microsecond)
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMicro()))
		if i%17 == 5 {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("web-%d", i%4))
		}
		b.Field(3).(*array.Int32Builder).Append([]int32{200, 200, 404, 500, 200, 301}[i%6])
		b.Field(4).(*array.Int64Builder).Append(int64((i * 7919) % 5000))
		if i%11 == 0 {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.Float64Builder).Append(float64(i%100) / 50)
		}
		b.Field(6).(*array.BooleanBuilder).Append(i%5 != 0)
		b.Field(7).(*array.StringBuilder).Append(msgs[i%len(msgs)])
		sb := b.Field(8).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.StringBuilder).Append([]string{"DE", "FR", "US"}[i%3])
		sb.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprintf("c%d", i%5))
		lb := b.Field(9).(*array.ListBuilder)
		lb.Append(true)
		for k := 0; k < i%3; k++ {
			lb.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("t%d", (i+k)%4))
		}
	}
	return b.NewRecordBatch()
}

// Updated is rows [from, from+n) with msg "updated" and host NULL.
func Updated(from, n int) arrow.RecordBatch {
	b := Batch(from, n)
	defer b.Release()
	hb := array.NewStringBuilder(memory.DefaultAllocator)
	mb := array.NewStringBuilder(memory.DefaultAllocator)
	for i := 0; i < n; i++ {
		hb.AppendNull()
		mb.Append("updated")
	}
	cols := append([]arrow.Array(nil), b.Columns()...)
	cols[2], cols[7] = hb.NewArray(), mb.NewArray()
	return array.NewRecordBatch(Schema, cols, int64(n))
}

// Spec is a table of the suite's schema.
func (tg Target) Spec(name string, extra map[string]string) connector.TableSpec {
	opts := tg.Options(name)
	opts["text_fields"] = "msg"
	for k, v := range extra {
		opts[k] = v
	}
	return connector.TableSpec{Name: name, Using: tg.Using, Options: opts, Schema: Schema}
}

// Write writes batches as one epoch and closes the sink.
func (tg Target) Write(t *testing.T, spec connector.TableSpec, epoch int64, batches ...arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	s, err := tg.NewSink(ctx, spec)
	if err != nil {
		t.Fatalf("NewSink: %v", err)
	}
	if b, ok := s.(connector.EpochBeginner); ok {
		if err := b.BeginEpoch(ctx, epoch); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range batches {
		if err := s.Write(ctx, b); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := s.Flush(ctx, epoch); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if tg.Refresh != nil {
		tg.Refresh(t, spec)
	}
}

// ReadAll reads every batch of src.
func ReadAll(t *testing.T, src connector.Source) []arrow.RecordBatch {
	t.Helper()
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	splits, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatal(err)
	}
	var out []arrow.RecordBatch
	for _, sp := range splits {
		r, err := src.Open(ctx, sp)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		for {
			b, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			out = append(out, b)
		}
		r.Close()
	}
	return out
}

// Rows prints the rows of batches that pred keeps (all when nil), sorted.
func Rows(t *testing.T, batches []arrow.RecordBatch, pred expr.Expr) []string {
	t.Helper()
	var rows []string
	for _, b := range batches {
		var mask *array.Boolean
		if pred != nil {
			m, err := pred.Eval(context.Background(), b)
			if err != nil {
				t.Fatalf("evaluating %s: %v", pred, err)
			}
			mask = m.(*array.Boolean)
		}
		for i := 0; i < int(b.NumRows()); i++ {
			if mask != nil && (mask.IsNull(i) || !mask.Value(i)) {
				continue
			}
			parts := make([]string, b.NumCols())
			for c := range parts {
				parts[c] = types.FormatValue(b.Column(c), i)
			}
			rows = append(rows, strings.Join(parts, "|"))
		}
	}
	sort.Strings(rows)
	return rows
}

func col(name string) expr.Expr {
	i := Schema.FieldIndices(name)[0]
	return expr.Col(i, name, Schema.Field(i).Type)
}

// Predicates are the filters the pushdown check runs, over Schema.
func Predicates(t *testing.T) map[string]expr.Expr {
	t.Helper()
	call := func(name string, args ...expr.Expr) expr.Expr {
		e, err := expr.Call(name, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return e
	}
	lit := func(v any, ty arrow.DataType) expr.Expr { return expr.MustLit(v, ty) }
	in, err := expr.In(col("host"), []expr.Expr{lit("web-1", types.String), lit("web-3", types.String)}, false)
	if err != nil {
		t.Fatal(err)
	}
	country, err := expr.Field(col("geo"), "country")
	if err != nil {
		t.Fatal(err)
	}
	mid := Base.Add(100 * (time.Minute + 7*time.Millisecond)).Add(time.Microsecond).UnixMicro()
	return map[string]expr.Expr{
		"status = 500":           call("=", col("status"), lit(int32(500), types.Int)),
		"status >= 400 and host": call("and", call(">=", col("status"), lit(int32(400), types.Int)), call("=", col("host"), lit("web-2", types.String))),
		"host in":                in,
		"latency or ok":          call("or", call("<", col("latency"), lit(0.5, types.Double)), call("=", col("ok"), lit(false, types.Boolean))),
		"not status = 200":       call("not", call("=", col("status"), lit(int32(200), types.Int))),
		"status <> 200":          call("<>", col("status"), lit(int32(200), types.Int)),
		"ts >= mid":              call(">=", col("ts"), lit(mid, types.Timestamp)),
		"ts < mid":               call("<", col("ts"), lit(mid, types.Timestamp)),
		"ts = mid":               call("=", col("ts"), lit(mid, types.Timestamp)),
		"match login":            call("match", col("msg"), lit("login", types.String)),
		"match the login":        call("match", col("msg"), lit("the LOGIN", types.String)),
		"match_phrase":           call("match_phrase", col("msg"), lit("user login failed", types.String)),
		"match_phrase stop":      call("match_phrase", col("msg"), lit("failed a user login", types.String)),
		"host is null":           call("is_null", col("host")),
		"host is not null":       call("is_not_null", col("host")),
		"bytes and match":        call("and", call(">", col("bytes"), lit(int64(1000), types.BigInt)), call("match", col("msg"), lit("timeout", types.String))),
		"geo.country":            call("=", country, lit("DE", types.String)),
		"host < web-2":           call("<", col("host"), lit("web-2", types.String)),
		"lit on left":            call(">", lit(int64(2500), types.BigInt), col("bytes")),
		"unpushable upper":       call("=", call("upper", col("host")), lit("WEB-1", types.String)),
	}
}

// Run runs the suite against tg.
func Run(t *testing.T, tg Target) {
	const rows = 600
	ctx := context.Background()
	data := []arrow.RecordBatch{Batch(0, 250), Batch(250, 250), Batch(500, rows-500)}
	want := Rows(t, data, nil)

	t.Run("insert and read back", func(t *testing.T) {
		spec := tg.Spec("suite_rw", map[string]string{"id": "id"})
		tg.Write(t, spec, 0, data...)
		src, err := tg.NewSource(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		got := Rows(t, ReadAll(t, src), nil)
		diff(t, got, want)
	})

	t.Run("pushdown equals no pushdown", func(t *testing.T) {
		spec := tg.Spec("suite_rw", map[string]string{"id": "id"})
		full, err := tg.NewSource(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		all := ReadAll(t, full)
		names := make([]string, 0)
		preds := Predicates(t)
		for n := range preds {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			pred := preds[name]
			t.Run(name, func(t *testing.T) {
				fp, ok := full.(connector.FilterPusher)
				if !ok {
					t.Fatal("source does not push filters")
				}
				pushed, err := fp.PushFilter(pred)
				if err != nil {
					t.Fatal(err)
				}
				pb := ReadAll(t, pushed)
				got, exp := Rows(t, pb, pred), Rows(t, all, pred)
				diff(t, got, exp)
				var n int64
				for _, b := range pb {
					n += b.NumRows()
				}
				if name == "status = 500" && n != int64(len(exp)) {
					t.Errorf("status = 500 read %d rows for %d matches: not pushed down", n, len(exp))
				}
				if name == "match login" && n != int64(len(exp)) {
					t.Errorf("match login read %d rows for %d matches: not pushed down", n, len(exp))
				}
				t.Logf("%s: %d rows read, %d match; %s", name, n, len(exp), describe(pushed))
			})
		}
	})

	t.Run("projection then filter", func(t *testing.T) {
		spec := tg.Spec("suite_rw", map[string]string{"id": "id"})
		src, err := tg.NewSource(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := src.(connector.ProjectionPusher).PushProjection([]string{"status", "host"})
		if err != nil {
			t.Fatal(err)
		}
		pred, err := expr.Call("=", expr.Col(1, "host", types.String), expr.MustLit("web-1", types.String))
		if err != nil {
			t.Fatal(err)
		}
		f, err := p.(connector.FilterPusher).PushFilter(pred)
		if err != nil {
			t.Fatal(err)
		}
		got := Rows(t, ReadAll(t, f), pred)
		var exp []string
		for _, b := range data {
			for i := 0; i < int(b.NumRows()); i++ {
				if !b.Column(2).IsNull(i) && types.FormatValue(b.Column(2), i) == "web-1" {
					exp = append(exp, types.FormatValue(b.Column(3), i)+"|web-1")
				}
			}
		}
		sort.Strings(exp)
		diff(t, got, exp)
		if f.Schema().NumFields() != 2 {
			t.Errorf("projected schema has %d fields", f.Schema().NumFields())
		}
	})

	t.Run("replay and upsert", func(t *testing.T) {
		// Default ids: writing the same epoch twice leaves one copy of each row.
		spec := tg.Spec("suite_replay", nil)
		tg.Write(t, spec, 3, data...)
		tg.Write(t, spec, 3, data[2], data[0], data[1]) // a replay, in another order
		src, err := tg.NewSource(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, Rows(t, ReadAll(t, src), nil), want)

		// Upserts by id: the second write updates, never duplicates.
		up := tg.Spec("suite_upsert", map[string]string{"id": "id", "action": "upsert"})
		tg.Write(t, up, 0, data...)
		// The update sets msg and leaves host NULL: as with OpenSearch's
		// doc_as_upsert, NULL (absent) fields keep their old values.
		tg.Write(t, up, 1, Updated(0, 100))
		src, err = tg.NewSource(ctx, up)
		if err != nil {
			t.Fatal(err)
		}
		var exp []string
		for _, r := range want {
			f := strings.Split(r, "|")
			var id int
			fmt.Sscan(f[0], &id)
			if id < 100 {
				f[7] = "updated"
			}
			exp = append(exp, strings.Join(f, "|"))
		}
		sort.Strings(exp)
		diff(t, Rows(t, ReadAll(t, src), nil), exp)
	})
}

func describe(s connector.Source) string {
	if d, ok := s.(connector.Describer); ok {
		return d.Describe()
	}
	return ""
}

// diff fails with the first differences between two sorted row lists.
func diff(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) == len(want) {
		same := true
		for i := range got {
			if got[i] != want[i] {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	t.Errorf("got %d rows, want %d", len(got), len(want))
	g, w := map[string]int{}, map[string]int{}
	for _, r := range got {
		g[r]++
	}
	for _, r := range want {
		w[r]++
	}
	shown := 0
	for _, r := range want {
		if g[r] < w[r] && shown < 5 {
			t.Errorf("missing: %s", r)
			shown++
		}
	}
	for _, r := range got {
		if w[r] < g[r] && shown < 10 {
			t.Errorf("extra:   %s", r)
			shown++
		}
	}
}
