package skipindex

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// memSink keeps what it is given.
type memSink struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	flushed []int64
}

func (m *memSink) Schema() *arrow.Schema { return m.schema }
func (m *memSink) Write(_ context.Context, b arrow.RecordBatch) error {
	b.Retain()
	m.batches = append(m.batches, b)
	return nil
}
func (m *memSink) Flush(_ context.Context, e int64) error {
	m.flushed = append(m.flushed, e)
	return nil
}
func (m *memSink) Close() error { return nil }

func TestSinkFoldsPerFileAndDecodes(t *testing.T) {
	var cols []Column
	for _, c := range []struct {
		name, kind string
		params     []string
		t          arrow.DataType
	}{{"a", MinMax, nil, types.Int}, {"s", ValueSet, []string{"2"}, types.String}, {"b", BloomFilter, nil, types.String}} {
		col, err := NewColumn(c.name, c.kind, c.params, c.t)
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, col)
	}
	in := InputSchema(cols, []arrow.DataType{types.Int, types.String, types.String})
	inner := &memSink{schema: Schema(cols)}
	s := NewSink(cols, in, inner, func(_ context.Context, uri string) (string, error) { return "v-" + uri, nil })
	b := array.NewRecordBuilder(memory.DefaultAllocator, in)
	rows := []struct {
		f    string
		a    int32
		s, b string
	}{{"f1", 5, "x", "ip1"}, {"f1", 9, "y", "ip2"}, {"f2", 100, "x", "ip3"}, {"f2", 50, "y", "ip4"}, {"f2", 70, "z", "ip5"}}
	for _, r := range rows {
		b.Field(0).(*array.StringBuilder).Append(r.f)
		b.Field(1).(*array.Int32Builder).Append(r.a)
		b.Field(2).(*array.StringBuilder).Append(r.s)
		b.Field(3).(*array.StringBuilder).Append(r.b)
	}
	rec := b.NewRecordBatch()
	ctx := context.Background()
	if err := s.BeginEpoch(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if len(inner.batches) != 1 || inner.batches[0].NumRows() != 2 || len(inner.flushed) != 1 {
		t.Fatalf("want one batch of 2 file rows flushed once, got %d batches, %v", len(inner.batches), inner.flushed)
	}
	var fs connector.FileSkipping
	if err := Decode(cols, inner.batches, &fs); err != nil {
		t.Fatal(err)
	}
	f1, f2 := fs.Files["f1"], fs.Files["f2"]
	if f1 == nil || f2 == nil {
		t.Fatalf("files: %v", fs.Files)
	}
	if f1.Version != "v-f1" || f2.Version != "v-f2" {
		t.Errorf("versions %q, %q", f1.Version, f2.Version)
	}
	if got := f1.MinMax["a"]; got != [2]any{int64(5), int64(9)} {
		t.Errorf("f1 a min/max = %v", got)
	}
	if got := f2.MinMax["a"]; got != [2]any{int64(50), int64(100)} {
		t.Errorf("f2 a min/max = %v", got)
	}
	if vs, ok := f1.ValueSets["s"]; !ok || len(vs) != 2 {
		t.Errorf("f1 value set = %v, %v", vs, ok)
	}
	if _, ok := f2.ValueSets["s"]; ok {
		t.Errorf("f2 has 3 values over the limit of 2, yet kept a set")
	}
	for _, ip := range []string{"ip3", "ip4", "ip5"} {
		if !f2.Blooms["b"].MightContain(ip) {
			t.Errorf("bloom of f2 misses %s", ip)
		}
	}
	misses := 0
	for i := range 1000 {
		if !f1.Blooms["b"].MightContain(string(rune('A'+i%26)) + "q" + string(rune(i))) {
			misses++
		}
	}
	if misses < 900 {
		t.Errorf("bloom of 2 values says yes to %d of 1000 others", 1000-misses)
	}
}

func TestNewColumnParams(t *testing.T) {
	for _, bad := range [][]string{{"VALUE_SET", "0"}, {"VALUE_SET", "x"}, {"MIN_MAX", "1"}, {"BLOOM_FILTER", "false", "x"}, {"BLOOM_FILTER", "10", "2"}, {"NOPE"}} {
		if _, err := NewColumn("c", bad[0], bad[1:], types.String); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	c, err := NewColumn("c", "BLOOM_FILTER", []string{"false", "1000000", "0.01"}, types.String)
	if err != nil || c.Adaptive || c.Items != 1000000 || c.FPP != 0.01 {
		t.Errorf("BLOOM_FILTER(false, 1000000, 0.01) = %+v, %v", c, err)
	}
}

// TestBloomFalsePositives: absent values pass about fpp of the time, for
// every value (no value may hash onto a few bits only).
func TestBloomFalsePositives(t *testing.T) {
	yes, probes := 0, 0
	for f := range 200 {
		b := NewBloom(25, 0.03)
		for r := range 25 {
			b.addHash(hashValue(fmt.Sprintf("h%d", f*25+r)))
		}
		for _, v := range []string{"h1", "h2", "h999", "x", "10.0.0.1"} {
			probes++
			if b.MightContain(v) && f != 0 && f != 39 {
				yes++
			}
		}
	}
	if rate := float64(yes) / float64(probes); rate > 0.08 {
		t.Errorf("false positive rate %.3f, want about 0.03", rate)
	}
}

// TestNaNMakesTheColumnUnknown: NaN orders above every number, so a file
// holding one keeps no MIN_MAX for the column (it is never skipped by it).
func TestNaNMakesTheColumnUnknown(t *testing.T) {
	col, _ := NewColumn("x", MinMax, nil, types.Double)
	cols := []Column{col}
	in := InputSchema(cols, []arrow.DataType{types.Double})
	inner := &memSink{schema: Schema(cols)}
	s := NewSink(cols, in, inner, func(context.Context, string) (string, error) { return "v", nil })
	b := array.NewRecordBuilder(memory.DefaultAllocator, in)
	for _, v := range []float64{1, math.NaN(), 3} {
		b.Field(0).(*array.StringBuilder).Append("f")
		b.Field(1).(*array.Float64Builder).Append(v)
	}
	ctx := context.Background()
	if err := s.Write(ctx, b.NewRecordBatch()); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx, 0); err != nil {
		t.Fatal(err)
	}
	var fs connector.FileSkipping
	if err := Decode(cols, inner.batches, &fs); err != nil {
		t.Fatal(err)
	}
	if mm, ok := fs.Files["f"].MinMax["x"]; ok {
		t.Errorf("a file with NaN kept MIN_MAX %v", mm)
	}
}
