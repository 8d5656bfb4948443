package conformance

import (
	"fmt"
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

// The search checks, for connectors that declare Search (the OpenSearch
// connector on a real node, the embedded local index): they were the
// search sinks' own suite. Server-only checks (date-pattern indices,
// dead letters, outages) stay beside the OpenSearch connector.

// SearchSchema is the search checks' table (the OpenSearch server tests
// use it too).
var SearchSchema = arrow.NewSchema([]arrow.Field{
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

// SearchBase is the first row's timestamp; rows are a minute and 7 ms apart
// (plus a few micros, to test millisecond widening).
var SearchBase = time.Date(2026, 11, 28, 22, 0, 0, 0, time.UTC)

var msgs = []string{
	"user login failed for admin", "user login succeeded", "request timeout upstream",
	"the login page was served", "failed the user login", "cache miss", "",
}

// SearchBatch makes rows [from, from+n) of the suite's deterministic data.
func SearchBatch(from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, SearchSchema)
	defer b.Release()
	for i := from; i < from+n; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		ts := SearchBase.Add(time.Duration(i)*(time.Minute+7*time.Millisecond) + time.Duration(i%3)*time.Microsecond)
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

// searchUpdated is rows [from, from+n) with msg "updated" and host NULL.
func searchUpdated(from, n int) arrow.RecordBatch {
	b := SearchBatch(from, n)
	defer b.Release()
	hb := array.NewStringBuilder(memory.DefaultAllocator)
	mb := array.NewStringBuilder(memory.DefaultAllocator)
	for i := 0; i < n; i++ {
		hb.AppendNull()
		mb.Append("updated")
	}
	cols := append([]arrow.Array(nil), b.Columns()...)
	cols[2], cols[7] = hb.NewArray(), mb.NewArray()
	return array.NewRecordBatch(SearchSchema, cols, int64(n))
}

func searchCol(name string) expr.Expr {
	i := SearchSchema.FieldIndices(name)[0]
	return expr.Col(i, name, SearchSchema.Field(i).Type)
}

// searchPredicates are the search check's filters over SearchSchema:
// full-text ones among them.
func searchPredicates(t *testing.T) map[string]expr.Expr {
	t.Helper()
	call := func(name string, args ...expr.Expr) expr.Expr {
		e, err := expr.Call(name, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return e
	}
	lit := func(v any, ty arrow.DataType) expr.Expr { return expr.MustLit(v, ty) }
	in, err := expr.In(searchCol("host"), []expr.Expr{lit("web-1", types.String), lit("web-3", types.String)}, false)
	if err != nil {
		t.Fatal(err)
	}
	country, err := expr.Field(searchCol("geo"), "country")
	if err != nil {
		t.Fatal(err)
	}
	mid := SearchBase.Add(100 * (time.Minute + 7*time.Millisecond)).Add(time.Microsecond).UnixMicro()
	return map[string]expr.Expr{
		"status = 500":           call("=", searchCol("status"), lit(int32(500), types.Int)),
		"status >= 400 and host": call("and", call(">=", searchCol("status"), lit(int32(400), types.Int)), call("=", searchCol("host"), lit("web-2", types.String))),
		"host in":                in,
		"latency or ok":          call("or", call("<", searchCol("latency"), lit(0.5, types.Double)), call("=", searchCol("ok"), lit(false, types.Boolean))),
		"not status = 200":       call("not", call("=", searchCol("status"), lit(int32(200), types.Int))),
		"status <> 200":          call("<>", searchCol("status"), lit(int32(200), types.Int)),
		"ts >= mid":              call(">=", searchCol("ts"), lit(mid, types.Timestamp)),
		"ts < mid":               call("<", searchCol("ts"), lit(mid, types.Timestamp)),
		"ts = mid":               call("=", searchCol("ts"), lit(mid, types.Timestamp)),
		"match login":            call("match", searchCol("msg"), lit("login", types.String)),
		"match the login":        call("match", searchCol("msg"), lit("the LOGIN", types.String)),
		"match_phrase":           call("match_phrase", searchCol("msg"), lit("user login failed", types.String)),
		"match_phrase stop":      call("match_phrase", searchCol("msg"), lit("failed a user login", types.String)),
		"host is null":           call("is_null", searchCol("host")),
		"host is not null":       call("is_not_null", searchCol("host")),
		"bytes and match":        call("and", call(">", searchCol("bytes"), lit(int64(1000), types.BigInt)), call("match", searchCol("msg"), lit("timeout", types.String))),
		"geo.country":            call("=", country, lit("DE", types.String)),
		"host < web-2":           call("<", searchCol("host"), lit("web-2", types.String)),
		"lit on left":            call(">", lit(int64(2500), types.BigInt), searchCol("bytes")),
		"unpushable upper":       call("=", call("upper", searchCol("host")), lit("WEB-1", types.String)),
	}
}

// searchSpec is a fresh table of SearchSchema with msg a text field.
func (c *target) searchSpec(t *testing.T, name string, extra map[string]string) connector.TableSpec {
	opts := map[string]string{"text_fields": "msg"}
	for k, v := range extra {
		opts[k] = v
	}
	return c.table(t, name, SearchSchema, opts)
}

// search runs the search checks.
func (c *target) search(t *testing.T) {
	const rows = 600
	data := []arrow.RecordBatch{SearchBatch(0, 250), SearchBatch(250, 250), SearchBatch(500, rows-500)}
	want := Rows(t, data, nil)
	spec := c.searchSpec(t, "search_rw", map[string]string{"id": "id"})
	c.write(t, spec, 0, data...)

	c.runCheck(t, "insert and read back", func(t *testing.T) {
		diff(t, Rows(t, c.read(t, spec), nil), want)
	})

	c.runCheck(t, "pushdown equals no pushdown", func(t *testing.T) {
		full := c.source(t, spec)
		all := ReadAll(t, full)
		preds := searchPredicates(t)
		names := make([]string, 0, len(preds))
		for n := range preds {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			pred := preds[name]
			c.runCheck(t, name, func(t *testing.T) {
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
				n := count(pb)
				// These two must be pushed exactly: a search sink that
				// reads everything for them is not one.
				if (name == "status = 500" || name == "match login") && n != int64(len(exp)) {
					t.Errorf("%s read %d rows for %d matches: not pushed down", name, n, len(exp))
				}
				t.Logf("%s: %d rows read, %d match; %s", name, n, len(exp), describe(pushed))
			})
		}
	})

	c.runCheck(t, "projection then filter", func(t *testing.T) {
		src := c.source(t, spec)
		pp, ok := src.(connector.ProjectionPusher)
		if !ok {
			t.Fatal("source does not push projections")
		}
		p, err := pp.PushProjection([]string{"status", "host"})
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

	c.runCheck(t, "replay in another order", func(t *testing.T) {
		// Default ids: writing the same epoch twice, in another order,
		// leaves one copy of each row.
		spec := c.searchSpec(t, "search_replay", nil)
		c.write(t, spec, 3, data...)
		c.write(t, spec, 3, data[2], data[0], data[1])
		diff(t, Rows(t, c.read(t, spec), nil), want)
	})

	c.runCheck(t, "upsert", func(t *testing.T) {
		// Upserts by id: the second write updates, never duplicates.
		up := c.searchSpec(t, "search_upsert", map[string]string{"id": "id", "action": "upsert"})
		c.write(t, up, 0, data...)
		// The update sets msg and leaves host NULL: as with OpenSearch's
		// doc_as_upsert, NULL (absent) fields keep their old values.
		c.write(t, up, 1, searchUpdated(0, 100))
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
		diff(t, Rows(t, c.read(t, up), nil), exp)
	})
}

func describe(s connector.Source) string {
	if d, ok := s.(connector.Describer); ok {
		return d.Describe()
	}
	return ""
}
