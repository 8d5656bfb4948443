package format

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// memFile serves data as a File, the way a store-backed file would.
func memFile(name string, data []byte) File {
	return File{
		Name: name,
		Size: int64(len(data)),
		Open: func(context.Context) (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(data)), nil
		},
		ReaderAt: func(context.Context) (io.ReaderAt, error) {
			return bytes.NewReader(data), nil
		},
	}
}

func schemaOf(fields ...arrow.Field) *arrow.Schema {
	for i := range fields {
		fields[i].Nullable = true
	}
	return arrow.NewSchema(fields, nil)
}

func fld(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

// readAll decodes the whole file and returns the batches' rows as JSON
// text (one string per row, arrow's own JSON rendering), so tests compare
// values without caring about batch boundaries.
func readAll(t *testing.T, f File, schema *arrow.Schema, opts Options) ([]string, error) {
	t.Helper()
	rd, err := NewReader(context.Background(), f, schema, opts)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var rows []string
	for {
		rec, err := rd.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		rows = append(rows, rowsJSON(t, rec)...)
		rec.Release()
	}
}

func rowsJSON(t *testing.T, rec arrow.RecordBatch) []string {
	t.Helper()
	var buf bytes.Buffer
	if err := array.RecordToJSON(rec, &buf); err != nil {
		t.Fatal(err)
	}
	var out []string
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(m) // sorted keys: deterministic
		out = append(out, string(b))
	}
	return out
}

func mustRead(t *testing.T, f File, schema *arrow.Schema, opts Options) []string {
	t.Helper()
	rows, err := readAll(t, f, schema, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func eqRows(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows differ\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
