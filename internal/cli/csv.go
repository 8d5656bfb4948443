package cli

import (
	"encoding/csv"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// CSV writes RFC 4180 CSV with a header row. NULL is an empty field;
// nested values are JSON text. Lines end in \n, not \r\n, because the
// output is mostly read by Unix tools (every RFC 4180 reader accepts it).
type CSV struct{}

var _ Formatter = CSV{}

// Format implements Formatter.
func (CSV) Format(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	cw := csv.NewWriter(w)
	ncol := schema.NumFields()
	rec := make([]string, ncol)
	for j, f := range schema.Fields() {
		rec[j] = f.Name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, b := range batches {
		if b == nil {
			continue
		}
		for i := 0; i < int(b.NumRows()); i++ {
			for j := 0; j < ncol; j++ {
				rec[j], _ = types.Text(b.Column(j), i)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
