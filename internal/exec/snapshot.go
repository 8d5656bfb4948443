package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Snapshots are a sequence of length-prefixed sections, so that an Arrow
// IPC stream (rows) and an accumulator's own bytes can follow each other
// without either reader over-reading into the next.

// maxSection guards Restore against a corrupt length prefix.
const maxSection = 1 << 40

func writeSection(w io.Writer, p []byte) error {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err := w.Write(p)
	return err
}

func readSection(r io.Reader) ([]byte, error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.LittleEndian.Uint64(n[:])
	if size > maxSection {
		return nil, fmt.Errorf("corrupt snapshot: section of %d bytes", size)
	}
	p := make([]byte, size)
	if _, err := io.ReadFull(r, p); err != nil {
		return nil, err
	}
	return p, nil
}

func writeUint64(w io.Writer, v uint64) error {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	_, err := w.Write(b[:])
	return err
}

func readUint64(r io.Reader) (uint64, error) {
	var b [8]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// writeRows writes batches as one IPC stream section.
func writeRows(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	for _, b := range batches {
		// Batches may differ from the plan's schema in field nullability
		// or metadata only; IPC insists on one schema per stream.
		if !b.Schema().Equal(schema) {
			b = array.NewRecordBatch(schema, b.Columns(), b.NumRows())
			defer b.Release()
		}
		if err := iw.Write(b); err != nil {
			return fmt.Errorf("encoding rows: %w", err)
		}
	}
	if err := iw.Close(); err != nil {
		return fmt.Errorf("encoding rows: %w", err)
	}
	return writeSection(w, buf.Bytes())
}

// readRows reads a section written by writeRows; the batches are owned
// by the caller.
func readRows(r io.Reader) (*arrow.Schema, []arrow.RecordBatch, error) {
	p, err := readSection(r)
	if err != nil {
		return nil, nil, err
	}
	return decodeRows(p)
}

// decodeRows reads one IPC stream's batches (owned by the caller).
func decodeRows(p []byte) (*arrow.Schema, []arrow.RecordBatch, error) {
	ir, err := ipc.NewReader(bytes.NewReader(p))
	if err != nil {
		return nil, nil, fmt.Errorf("decoding rows: %w", err)
	}
	defer ir.Release()
	var out []arrow.RecordBatch
	for ir.Next() {
		b := ir.RecordBatch()
		b.Retain()
		out = append(out, b)
	}
	if err := ir.Err(); err != nil {
		for _, b := range out {
			b.Release()
		}
		return nil, nil, fmt.Errorf("decoding rows: %w", err)
	}
	return ir.Schema(), out, nil
}

// concatRows joins batches into one (owned by the caller), or an empty
// batch of schema when there are none.
func concatRows(schema *arrow.Schema, batches []arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	var rows int64
	for _, b := range batches {
		rows += b.NumRows()
	}
	for c := range cols {
		col, err := concatColumn(schema.Field(c).Type, batches, c)
		if err != nil {
			for _, x := range cols[:c] {
				x.Release()
			}
			return nil, err
		}
		cols[c] = col
	}
	out := array.NewRecordBatch(schema, cols, rows)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

func concatColumn(t arrow.DataType, batches []arrow.RecordBatch, c int) (arrow.Array, error) {
	parts := make([]arrow.Array, 0, len(batches))
	for _, b := range batches {
		parts = append(parts, b.Column(c))
	}
	return concatArrays(t, parts)
}

// concatArrays is array.Concatenate that also accepts no parts.
func concatArrays(t arrow.DataType, parts []arrow.Array) (arrow.Array, error) {
	switch len(parts) {
	case 0:
		return array.MakeArrayOfNull(memAlloc, t, 0), nil
	case 1:
		parts[0].Retain()
		return parts[0], nil
	}
	return array.Concatenate(parts, memAlloc)
}
