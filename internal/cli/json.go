package cli

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// JSON writes one JSON array of objects per result, one object per line,
// keys in column order. Timestamps are ISO-8601 strings, nested values
// nested JSON, NULL null.
type JSON struct{}

var _ Formatter = JSON{}

// Format implements Formatter.
func (JSON) Format(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	if numRows(batches) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	first := true
	err := eachObject(schema, batches, func(obj []byte) error {
		prefix := ",\n"
		if first {
			prefix, first = "[\n", false
		}
		if _, err := io.WriteString(w, prefix); err != nil {
			return err
		}
		_, err := w.Write(obj)
		return err
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n]\n")
	return err
}

// eachObject renders every row as a JSON object and hands it to emit; the
// slice is reused between calls.
func eachObject(schema *arrow.Schema, batches []arrow.RecordBatch, emit func([]byte) error) error {
	keys := make([][]byte, schema.NumFields())
	for j, f := range schema.Fields() {
		keys[j] = append(types.AppendJSONString(nil, f.Name), ':')
	}
	var buf []byte
	for _, b := range batches {
		if b == nil {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			buf = append(buf[:0], '{')
			for j := range keys {
				if j > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, keys[j]...)
				buf = types.AppendJSON(buf, b.Column(j), i)
			}
			buf = append(buf, '}')
			if err := emit(buf); err != nil {
				return err
			}
		}
	}
	return nil
}
