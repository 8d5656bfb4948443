package format

import (
	"context"
	"errors"
	"io"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// fuzzSchema covers every column kind the JSON decoder builds.
func fuzzSchema() *arrow.Schema {
	return schemaOf(
		fld("b", types.Boolean), fld("i", types.Int), fld("l", types.BigInt), fld("d", types.Double),
		fld("dec", types.Decimal(18, 4)), fld("s", types.String), fld("day", types.Date), fld("ts", types.Timestamp),
		fld("geo", types.Struct(fld("city", types.String), fld("lat", types.Double), fld("inner", types.Struct(fld("x", types.BigInt))))),
		fld("tags", types.Array(types.String)), fld("nested", types.Array(types.Array(types.BigInt))),
		fld("m", types.Map(types.Struct(fld("v", types.Int)))),
		fld("_row", types.BigInt), fld("_corrupt_record", types.String),
	)
}

// FuzzJSONDecoder feeds arbitrary bytes to the JSON reader in every mode
// and to schema inference. It must never panic, and every string it
// produces must be valid UTF-8.
func FuzzJSONDecoder(f *testing.F) {
	f.Add([]byte(`{"b":true,"i":1,"s":"x","geo":{"city":"a"},"tags":["a"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mode := range []Mode{Permissive, DropMalformed, FailFast} {
			rd, err := NewReader(context.Background(), memFile("fuzz.json", data), fuzzSchema(),
				Options{Format: "json", Mode: mode, BatchSize: 3, MaxLineBytes: 1 << 16})
			if err != nil {
				t.Fatal(err)
			}
			for {
				rec, err := rd.Next(context.Background())
				if errors.Is(err, io.EOF) || err != nil && mode == FailFast {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", mode, err)
				}
				checkUTF8(t, rec)
				rec.Release()
			}
			rd.Close()
		}
		s, err := Infer(context.Background(), []File{memFile("fuzz.json", data)}, Options{Format: "json"}, 100)
		if err != nil {
			t.Fatal(err)
		}
		// Reading with the inferred schema works too (unless a key is
		// repeated with different case, which Arrow tolerates anyway).
		if _, err := readAll(t, memFile("fuzz.json", data), s, Options{Format: "json"}); err != nil {
			t.Fatal(err)
		}
	})
}

func checkUTF8(t *testing.T, rec arrow.RecordBatch) {
	t.Helper()
	for _, c := range rec.Columns() {
		checkArrayUTF8(t, c)
	}
}

func checkArrayUTF8(t *testing.T, a arrow.Array) {
	switch c := a.(type) {
	case *array.String:
		for i := 0; i < c.Len(); i++ {
			if c.IsValid(i) && !utf8.ValidString(c.Value(i)) {
				t.Fatalf("invalid UTF-8 %q", c.Value(i))
			}
		}
	case *array.Struct:
		for k := 0; k < c.NumField(); k++ {
			checkArrayUTF8(t, c.Field(k))
		}
	case *array.Map:
		checkArrayUTF8(t, c.Keys())
		checkArrayUTF8(t, c.Items())
	case *array.List:
		checkArrayUTF8(t, c.ListValues())
	}
}
