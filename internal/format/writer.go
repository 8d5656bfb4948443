package format

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// NewWriter encodes batches of schema into w in opts.Format ("json",
// "csv", "parquet"). JSON lines and CSV are compressed with
// opts.Compression ("auto" and "none" mean uncompressed: a writer has no
// file name to go by); Parquet uses it as its column codec (snappy by
// default). Close finishes the stream but leaves w open.
//
// JSON lines: one object per row, columns in schema order, NULL fields
// omitted (Spark's default), TIMESTAMP as "2026-11-30T04:36:56Z" (with a
// fraction only when there is one), DATE as "2026-11-30", DECIMAL as a
// number, NaN and infinities as the strings "NaN", "Infinity",
// "-Infinity". CSV: an optional header, NULL as NullValue (empty by
// default), the empty string as "", nested values as JSON text.
func NewWriter(w io.Writer, schema *arrow.Schema, opts Options) (Writer, error) {
	opts = opts.withDefaults()
	switch normalizeFormat(opts.Format) {
	case "json":
		return newJSONWriter(w, schema, opts)
	case "csv":
		return newCSVWriter(w, schema, opts)
	case "parquet":
		return newParquetWriter(w, schema, opts)
	}
	return nil, fmt.Errorf("writing: unknown format %q (known: csv, json, parquet)", opts.Format)
}

// noClose hides an io.Writer's Close so a finishing encoder cannot close
// the caller's stream.
type noClose struct{ w io.Writer }

func (n noClose) Write(p []byte) (int, error) { return n.w.Write(p) }

// writerCodec maps the reader-side "auto" to no compression.
func writerCodec(c string) string {
	if c == "" || c == CodecAuto {
		return CodecNone
	}
	return c
}
