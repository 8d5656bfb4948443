package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSkippingIndex times selective queries over 500 JSON files
// (200 rows each), without and with a skipping index (MIN_MAX on id,
// BLOOM_FILTER on host, VALUE_SET on code):
//
//	go test ./internal/engine -run XXX -bench SkippingIndex -benchtime 20x
func BenchmarkSkippingIndex(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		b.Fatal(err)
	}
	const files, rows = 500, 200
	for f := range files {
		var sb strings.Builder
		for r := range rows {
			id := f*rows + r
			fmt.Fprintf(&sb, "{\"id\": %d, \"code\": \"c%d\", \"host\": \"host-%d.example\", \"bytes\": %d}\n", id, f%50, id*7919%100003, id%1500)
		}
		if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("part-%04d.json", f)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := eng.Execute(ctx, "CREATE TABLE logs (id INT, code STRING, host STRING, bytes INT) USING json LOCATION '"+in+"/'"); err != nil {
		b.Fatal(err)
	}
	queries := []struct{ name, q string }{
		{"id_eq", "SELECT count(*), sum(bytes) FROM logs WHERE id = 54321"},
		{"host_eq", "SELECT count(*) FROM logs WHERE host = 'host-" + fmt.Sprint(77777*7919%100003) + ".example'"},
		{"code_eq", "SELECT count(*) FROM logs WHERE code = 'c7'"},
	}
	run := func(b *testing.B, q string) {
		for b.Loop() {
			if _, err := eng.Execute(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, q := range queries {
		b.Run("without/"+q.name, func(b *testing.B) { run(b, q.q) })
	}
	if _, err := eng.Execute(ctx, "CREATE SKIPPING INDEX ON logs (id MIN_MAX, host BLOOM_FILTER, code VALUE_SET)"); err != nil {
		b.Fatal(err)
	}
	for _, q := range queries {
		b.Run("with/"+q.name, func(b *testing.B) { run(b, q.q) })
	}
}
