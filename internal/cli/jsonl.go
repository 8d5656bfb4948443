package cli

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// JSONLines writes one JSON object per line (NDJSON), the same objects
// the JSON format puts in its array; zero rows print nothing.
type JSONLines struct{}

var _ Formatter = JSONLines{}

// Format implements Formatter.
func (JSONLines) Format(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	return eachObject(schema, batches, func(obj []byte) error {
		_, err := w.Write(append(obj, '\n'))
		return err
	})
}
