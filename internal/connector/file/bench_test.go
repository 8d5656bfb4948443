package file

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/storage"
	"sluice/internal/types"
)

// benchStore fills a memory store with n empty JSON files spread over
// day=YYYY-MM-DD/hour=HH folders.
func benchStore(b *testing.B, name string, n int) string {
	b.Helper()
	ctx := context.Background()
	storage.DropMemStore(name)
	st := storage.NamedMemStore(name)
	// In key order: the memory store inserts into a sorted slice.
	per := n / (30 * 24)
	for d := 1; d <= 30; d++ {
		for h := range 24 {
			for i := range per {
				key := fmt.Sprintf("t/day=2026-11-%02d/hour=%02d/part-%06d.json", d, h, i)
				if err := st.Put(ctx, key, strings.NewReader(""), false); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return "mem://" + name + "/t/"
}

func benchSource(b *testing.B, loc string) *Source {
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "t", Using: "json", Location: loc,
		Schema:      schema(field("n", types.BigInt), field("day", types.Date), field("hour", types.Int)),
		PartitionBy: []string{"day", "hour"}})
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkListAndPlan lists 100k keys and plans them (no filter).
func BenchmarkListAndPlan(b *testing.B) {
	src := benchSource(b, benchStore(b, "bench-list", 100_000))
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		off, err := src.Latest(ctx)
		if err != nil {
			b.Fatal(err)
		}
		splits, err := src.Plan(ctx, nil, off)
		if err != nil || len(splits) != 30*24*(100_000/(30*24)) {
			b.Fatal(err, len(splits))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/file")
}

// BenchmarkPartitionPruning plans 100k files with hour = 7 (an INT
// column: no listing-time narrowing, every file judged by its values).
func BenchmarkPartitionPruning(b *testing.B) {
	src := benchSource(b, benchStore(b, "bench-prune", 100_000))
	pred, err := expr.Call("=", expr.Col(2, "hour", types.Int), must(expr.Lit(int32(7), types.Int)))
	if err != nil {
		b.Fatal(err)
	}
	p, err := src.PushFilter(pred)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		off, err := p.Latest(ctx)
		if err != nil {
			b.Fatal(err)
		}
		splits, err := p.Plan(ctx, nil, off)
		if err != nil || len(splits) == 0 || len(splits) > 100_000/20 {
			b.Fatal(err, len(splits))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/file")
}
