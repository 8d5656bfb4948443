package index_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/connector/index"
)

// writeIndex writes one row into a fresh index at path.
func writeIndex(t *testing.T, path string) connector.TableSpec {
	t.Helper()
	ctx := context.Background()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	spec := connector.TableSpec{Name: "t", Using: "index", Schema: schema, Options: map[string]string{"path": path}}
	sink, err := index.NewSink(ctx, spec, connector.SinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.Append("a")
	rec := array.NewRecordBatch(schema, []arrow.Array{b.NewArray()}, 1)
	if err := sink.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := sink.Flush(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	return spec
}

func TestDropRemovesTheIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idx")
	spec := writeIndex(t, path)
	if err := index.Drop(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("index folder still there: %v", err)
	}
	if err := index.Drop(context.Background(), spec); err != nil {
		t.Fatalf("dropping a missing index: %v", err)
	}
}

func TestDropRefusesForeignFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idx")
	spec := writeIndex(t, path)
	stray := filepath.Join(path, "thesis.tex")
	if err := os.WriteFile(stray, []byte("years of work"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := index.Drop(context.Background(), spec); !errors.Is(err, index.ErrForeignFiles) {
		t.Fatalf("err = %v, want ErrForeignFiles", err)
	}
	for _, p := range []string{stray, filepath.Join(path, "index_meta.json")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s deleted: %v", p, err)
		}
	}
}
