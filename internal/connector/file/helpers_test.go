package file

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// writeTree creates files (relative path -> content) under a new temp dir
// and returns the dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readAll plans every file of src and returns its rows, each printed as
// "v1|v2|..." (NULL for nulls), in split order.
func readAll(t *testing.T, src connector.Source) []string {
	t.Helper()
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatalf("Latest: %v", err)
	}
	splits, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var rows []string
	for _, sp := range splits {
		rr, err := src.Open(ctx, sp)
		if err != nil {
			t.Fatalf("Open(%s): %v", sp.ID(), err)
		}
		for {
			b, err := rr.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next(%s): %v", sp.ID(), err)
			}
			if !b.Schema().Equal(src.Schema()) {
				t.Fatalf("batch schema %s, source schema %s", b.Schema(), src.Schema())
			}
			rows = append(rows, printRows(b)...)
			b.Release()
		}
		rr.Close()
	}
	return rows
}

func printRows(b arrow.RecordBatch) []string {
	var out []string
	for i := 0; i < int(b.NumRows()); i++ {
		vals := make([]string, b.NumCols())
		for j := range vals {
			c := b.Column(j)
			switch {
			case c.IsNull(i):
				vals[j] = "NULL"
			case c.DataType().ID() == arrow.DATE32:
				vals[j] = c.ValueStr(i)
			case c.DataType().ID() == arrow.TIMESTAMP:
				vals[j] = types.FormatTimestamp(int64(c.(interface{ Value(int) arrow.Timestamp }).Value(i)))
			default:
				vals[j] = c.ValueStr(i)
			}
		}
		out = append(out, strings.Join(vals, "|"))
	}
	return out
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func schema(fields ...arrow.Field) *arrow.Schema {
	for i := range fields {
		fields[i].Nullable = true
	}
	return arrow.NewSchema(fields, nil)
}

func field(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}
