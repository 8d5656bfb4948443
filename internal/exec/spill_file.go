package exec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/klauspost/compress/zstd"

	"sluice/internal/storage"
)

// SpillFilePrefix starts the names of spill files, so that a later
// process can sweep the ones a killed query left (storage.SweepTemp: a
// live query holds a lock on each of its files).
const SpillFilePrefix = "spill-"

// spillBufSize is the buffer of each open spill file: an aggregate and a
// merge keep dozens open at once.
const spillBufSize = 64 << 10

// spillBatchRows bounds the batches of a run: a k-way merge holds one
// batch of every run at once.
const spillBatchRows = 8192

// spillFile is one scratch file of a query, removed when the operator
// that wrote it is done (and swept at the next start if the process dies
// first).
type spillFile struct {
	tf *storage.TempFile
	bw *bufio.Writer
}

func newSpillFile(b *MemoryBudget) (*spillFile, error) {
	tf, err := storage.CreateTemp(b.SpillDir(), SpillFilePrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("spilling to disk: %w", err)
	}
	if b != nil {
		b.spills.Add(1)
	}
	return &spillFile{tf: tf, bw: bufio.NewWriterSize(tf, spillBufSize)}, nil
}

func (f *spillFile) Write(p []byte) (int, error) { return f.bw.Write(p) }

// finish flushes what was written, so the file can be read.
func (f *spillFile) finish() error {
	if err := f.bw.Flush(); err != nil {
		return fmt.Errorf("spilling to disk: %w", err)
	}
	return nil
}

// open reads the file from the start, independently of other readers.
func (f *spillFile) open() (*os.File, error) {
	r, err := os.Open(f.tf.Name())
	if err != nil {
		return nil, fmt.Errorf("reading spill file %s: %w", filepath.Base(f.tf.Name()), err)
	}
	return r, nil
}

func (f *spillFile) remove() {
	if f != nil && f.tf != nil {
		f.tf.Remove()
		f.tf = nil
	}
}

// spillIPC opens an Arrow IPC stream writer on w, which compresses
// (spill_codec.go).
func spillIPC(w io.Writer, schema *arrow.Schema) *ipc.Writer {
	return ipc.NewWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(memAlloc))
}

// writeSpillRows writes batches as one zstd IPC stream section (the
// spill-file twin of writeRows).
func writeSpillRows(w io.Writer, schema *arrow.Schema, batches []arrow.RecordBatch) error {
	var sw sectionWriter
	iw := spillIPC(&sw, schema)
	for _, b := range batches {
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
	return writeSection(w, compressSection(sw.buf))
}

type sectionWriter struct{ buf []byte }

func (s *sectionWriter) Write(p []byte) (int, error) { s.buf = append(s.buf, p...); return len(p), nil }

// spillRun is a sorted run on disk: one IPC stream of batches.
type spillRun struct {
	file *spillFile
	rows int64
}

// writeRun writes batches (already in order) as a run.
func writeRun(b *MemoryBudget, schema *arrow.Schema, batches []arrow.RecordBatch) (*spillRun, error) {
	w, err := newRunWriter(b, schema)
	if err != nil {
		return nil, err
	}
	for _, batch := range batches {
		if err := w.write(batch); err != nil {
			w.abort()
			return nil, err
		}
	}
	return w.finish()
}

// runWriter appends batches to a run that is being built.
type runWriter struct {
	schema *arrow.Schema
	file   *spillFile
	zw     io.WriteCloser
	iw     *ipc.Writer
	rows   int64
}

func newRunWriter(b *MemoryBudget, schema *arrow.Schema) (*runWriter, error) {
	f, err := newSpillFile(b)
	if err != nil {
		return nil, err
	}
	zw, err := newSpillCompressor(f)
	if err != nil {
		f.remove()
		return nil, fmt.Errorf("spilling to disk: %w", err)
	}
	return &runWriter{schema: schema, file: f, zw: zw, iw: spillIPC(zw, schema)}, nil
}

func (w *runWriter) write(batch arrow.RecordBatch) error {
	for lo := int64(0); lo < batch.NumRows(); lo += spillBatchRows {
		s := batch.NewSlice(lo, min(batch.NumRows(), lo+spillBatchRows))
		if !s.Schema().Equal(w.schema) {
			t := array.NewRecordBatch(w.schema, s.Columns(), s.NumRows())
			s.Release()
			s = t
		}
		err := w.iw.Write(s)
		s.Release()
		if err != nil {
			return fmt.Errorf("spilling to disk: %w", err)
		}
	}
	w.rows += batch.NumRows()
	return nil
}

func (w *runWriter) finish() (*spillRun, error) {
	if err := w.iw.Close(); err != nil {
		w.abort()
		return nil, fmt.Errorf("spilling to disk: %w", err)
	}
	if err := w.zw.Close(); err != nil {
		w.abort()
		return nil, fmt.Errorf("spilling to disk: %w", err)
	}
	if err := w.file.finish(); err != nil {
		w.abort()
		return nil, err
	}
	return &spillRun{file: w.file, rows: w.rows}, nil
}

func (w *runWriter) abort() { w.file.remove() }

// runReader reads a run's batches in order.
type runReader struct {
	f  *os.File
	zr *zstd.Decoder
	ir *ipc.Reader
}

func (r *spillRun) open() (*runReader, error) {
	f, err := r.file.open()
	if err != nil {
		return nil, err
	}
	zr, err := newSpillDecompressor(bufio.NewReaderSize(f, spillBufSize))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("reading spill file: %w", err)
	}
	ir, err := ipc.NewReader(zr, ipc.WithAllocator(memAlloc))
	if err != nil {
		zr.Close()
		f.Close()
		return nil, fmt.Errorf("reading spill file: %w", err)
	}
	return &runReader{f: f, zr: zr, ir: ir}, nil
}

// next returns the next batch (owned by the caller) or io.EOF.
func (r *runReader) next() (arrow.RecordBatch, error) {
	if r.ir.Next() {
		b := r.ir.RecordBatch()
		b.Retain()
		return b, nil
	}
	if err := r.ir.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading spill file: %w", err)
	}
	return nil, io.EOF
}

func (r *runReader) close() {
	r.ir.Release()
	r.zr.Close()
	r.f.Close()
}

func removeRuns(runs []*spillRun) {
	for _, r := range runs {
		r.file.remove()
	}
}

// rowBytes estimates the heap a batch's rows take. A slice counts its
// own rows, not the whole buffer it shares with its siblings.
func rowBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		n += arraySize(c)
	}
	return n
}

func arraySize(a arrow.Array) int64 {
	n := int64(a.Len()+7) / 8 // validity
	switch v := a.(type) {
	case *array.String:
		if a.Len() > 0 {
			n += int64(4*(a.Len()+1)) + int64(v.ValueOffset(a.Len()-1)+len(v.Value(a.Len()-1))-v.ValueOffset(0))
		}
		return n
	case *array.Binary:
		if a.Len() > 0 {
			n += int64(4*(a.Len()+1)) + int64(v.ValueOffset(a.Len()-1)+len(v.Value(a.Len()-1))-v.ValueOffset(0))
		}
		return n
	case *array.Boolean:
		return n + int64(a.Len()+7)/8
	case *array.Struct:
		for i := 0; i < v.NumField(); i++ {
			n += arraySize(v.Field(i))
		}
		return n
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
		return n + int64(a.Len())*int64(fw.BitWidth()/8)
	}
	return n + arrayBytes(a.Data())
}

func arrayBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	// Dictionary returns a typed nil *array.Data when there is none.
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += arrayBytes(dict)
	}
	return n
}
