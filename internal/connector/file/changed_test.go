package file

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// A file truncated after the scan listed it used to yield the rows left
// in it, a partial count that looked whole. Reading it must fail and say
// which file changed.
func TestSourceFailsOnFileTruncatedAfterListing(t *testing.T) {
	ctx := context.Background()
	var body strings.Builder
	for i := 0; i < 5000; i++ {
		body.WriteString(`{"n": 1}` + "\n")
	}
	dir := writeTree(t, map[string]string{"t/a.json": body.String()})
	spec := connector.TableSpec{Name: "t", Using: "json", Location: dir + "/t", Schema: schema(field("n", types.BigInt))}
	src, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	splits, err := src.Plan(ctx, nil, off)
	if err != nil || len(splits) != 1 {
		t.Fatalf("Plan: %d splits, %v", len(splits), err)
	}
	if err := os.Truncate(filepath.Join(dir, "t", "a.json"), int64(body.Len()/2)); err != nil {
		t.Fatal(err)
	}
	rr, err := src.Open(ctx, splits[0])
	if err == nil {
		defer rr.Close()
		for err == nil {
			var b interface{ Release() }
			b, err = rr.Next(ctx)
			if err == nil {
				b.Release()
			}
		}
	}
	if errors.Is(err, io.EOF) || err == nil || !strings.Contains(err.Error(), "file changed while being read") || !strings.Contains(err.Error(), "a.json") {
		t.Fatalf("err %v, want a.json changed while being read", err)
	}
}
