package format

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// ReadStats counts what a Reader has done so far.
type ReadStats struct {
	Rows    int64 // rows returned
	BadRows int64 // rows that were malformed (kept, dropped or fatal)
	// Parquet only: row groups in the file and those RowGroupFilter pruned.
	RowGroups, RowGroupsSkipped int
}

// StatsReader is a Reader that counts rows and bad rows; every Reader
// NewReader returns implements it.
type StatsReader interface {
	Reader
	Stats() ReadStats
}

// NewReader opens file and decodes it into batches of schema, the
// projected schema: only its columns are materialized, columns missing
// from the data are NULL, and names match case-insensitively when there is
// no exact match. The metadata columns _file (STRING) and _row (BIGINT,
// the 1-based line for JSON/CSV, the row index for Parquet) and the
// corrupt-record column are filled by the reader.
//
// opts.Format picks the decoder; when empty it is guessed from the name
// (.json/.jsonl/.ndjson, .csv/.tsv, .parquet).
func NewReader(ctx context.Context, file File, schema *arrow.Schema, opts Options) (Reader, error) {
	opts = opts.withDefaults()
	f := normalizeFormat(opts.Format)
	if f == "" {
		f = FormatFromName(file.Name)
	}
	switch f {
	case "json":
		return newJSONReader(ctx, file, schema, opts)
	case "csv":
		return newCSVReader(ctx, file, schema, opts)
	case "parquet":
		return newParquetReader(ctx, file, schema, opts)
	}
	return nil, fmt.Errorf("reading %s: unknown format %q (known: csv, json, parquet)", file.Name, opts.Format)
}

// normalizeFormat maps format spellings onto json, csv and parquet.
func normalizeFormat(f string) string {
	switch f = strings.ToLower(strings.TrimSpace(f)); f {
	case "jsonl", "ndjson", "jsonlines", "json_lines":
		return "json"
	case "tsv":
		return "csv"
	}
	return f
}

// FormatFromName guesses the format from a file name, looking through a
// compression extension; "" when it cannot tell.
func FormatFromName(name string) string {
	n := strings.ToLower(name)
	if ext := Extension(CodecFromName(n)); ext != "" {
		n = strings.TrimSuffix(n, ext)
		n = strings.TrimSuffix(n, ".zstd")
		n = strings.TrimSuffix(n, ".gzip")
	}
	switch path.Ext(n) {
	case ".json", ".jsonl", ".ndjson":
		return "json"
	case ".csv", ".tsv":
		return "csv"
	case ".parquet", ".pq":
		return "parquet"
	}
	return ""
}

// openStream opens the file and undoes its compression.
func openStream(ctx context.Context, file File, codec string) (io.ReadCloser, error) {
	if file.Open == nil {
		return nil, fmt.Errorf("reading %s: file has no Open function", file.Name)
	}
	rc, err := file.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	dc, err := Decompress(rc, file.Name, codec)
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	return dc, nil
}

// rowBase is what the line formats (JSON, CSV) share: the record builder,
// the metadata columns and the bad-row policy.
type rowBase struct {
	file   File
	opts   Options
	schema *arrow.Schema
	rb     *array.RecordBuilder
	rc     io.ReadCloser

	fileIdx, rowIdx, corruptIdx int
	// dataCols lists the schema columns the decoder fills from the data.
	dataCols []int

	rows, bad atomic.Int64
	pending   int // rows in the builder
	// cut is set when the stream starts inside the file (a Part): its
	// line numbers are then relative, and lineBase, the lines before
	// it, is counted the first time a line number leaves the reader.
	cut      bool
	cutCtx   context.Context
	lineBase int64
	baseDone bool
	err      error
	done     bool
}

func (r *rowBase) init(file File, schema *arrow.Schema, opts Options) {
	r.file, r.opts, r.schema = file, opts, schema
	r.rb = array.NewRecordBuilder(memory.DefaultAllocator, schema)
	r.rb.Reserve(opts.BatchSize)
	r.fileIdx, r.rowIdx, r.corruptIdx = -1, -1, -1
	for i, f := range schema.Fields() {
		switch {
		case f.Name == FileColumn && types.IsString(f.Type):
			r.fileIdx = i
		case f.Name == RowColumn && types.IsInteger(f.Type):
			r.rowIdx = i
		case strings.EqualFold(f.Name, opts.CorruptColumn) && types.IsString(f.Type):
			r.corruptIdx = i
		default:
			r.dataCols = append(r.dataCols, i)
		}
	}
}

// startCut marks the stream as a Part starting inside the file. When _row
// is wanted in file lines, the lines before the part are counted now.
func (r *rowBase) startCut(ctx context.Context) error {
	r.cut, r.cutCtx = true, ctx
	if r.rowIdx >= 0 && !r.opts.RelativeRows {
		_, err := r.absLine(0)
		return err
	}
	return nil
}

// absLine turns a stream line number into the file's.
func (r *rowBase) absLine(line int64) (int64, error) {
	if !r.cut {
		return line, nil
	}
	if !r.baseDone {
		n, err := countLines(r.cutCtx, r.file, r.file.Part.Start)
		if err != nil {
			return 0, err
		}
		// The newline the part skipped to is the one after Start.
		r.lineBase, r.baseDone = n+1, true
	}
	return r.lineBase + line, nil
}

// finishRow appends the metadata columns of a row whose data columns are
// appended; raw is non-nil for a bad row kept in PERMISSIVE mode.
func (r *rowBase) finishRow(line int64, raw []byte) {
	if r.fileIdx >= 0 {
		r.rb.Field(r.fileIdx).(*array.StringBuilder).Append(r.file.Name)
	}
	if r.rowIdx >= 0 {
		if r.cut && !r.opts.RelativeRows {
			line += r.lineBase
		}
		appendInt(r.rb.Field(r.rowIdx), line)
	}
	if r.corruptIdx >= 0 {
		b := r.rb.Field(r.corruptIdx).(*array.StringBuilder)
		if raw != nil {
			appendUTF8(b, raw)
		} else {
			b.AppendNull()
		}
	}
	r.pending++
}

// nullRow appends a row whose data columns are all NULL (a record that
// could not be parsed at all, kept in PERMISSIVE mode).
func (r *rowBase) nullRow(line int64, raw []byte) {
	for _, c := range r.dataCols {
		r.rb.Field(c).AppendNull()
	}
	r.finishRow(line, raw)
}

// reportBad counts a bad row and tells OnBadRow, or returns the FAILFAST
// error.
func (r *rowBase) reportBad(line int64, raw []byte, reason string) error {
	r.bad.Add(1)
	line, err := r.absLine(line)
	if err != nil {
		return err
	}
	if r.opts.Mode == FailFast {
		return fmt.Errorf("%s:%d: %s", r.file.Name, line, reason)
	}
	if r.opts.OnBadRow != nil {
		if len(raw) > MaxBadRowRaw {
			raw = raw[:MaxBadRowRaw]
		}
		r.opts.OnBadRow(BadRow{File: r.file.Name, Line: line, Reason: reason, Raw: validUTF8(raw)})
	}
	return nil
}

// badSyntax handles a record that is not readable at all.
func (r *rowBase) badSyntax(line int64, raw []byte, reason string) error {
	if err := r.reportBad(line, raw, reason); err != nil {
		return err
	}
	if r.opts.Mode == Permissive {
		r.nullRow(line, raw)
	}
	return nil
}

// flush turns the builder's rows into a batch.
func (r *rowBase) flush() arrow.RecordBatch {
	rec := r.rb.NewRecordBatch()
	r.rows.Add(int64(r.pending))
	r.pending = 0
	// Sized for a full batch up front: growing by doubling copies.
	r.rb.Reserve(r.opts.BatchSize)
	return rec
}

func (r *rowBase) Stats() ReadStats {
	return ReadStats{Rows: r.rows.Load(), BadRows: r.bad.Load()}
}

func (r *rowBase) Close() error {
	if r.rb != nil {
		r.rb.Release()
		r.rb = nil
	}
	if r.rc != nil {
		err := r.rc.Close()
		r.rc = nil
		return err
	}
	return nil
}

// readErr wraps a read error with the file name unless it already is a
// "file:line" error.
func (r *rowBase) readErr(err error) error {
	if err == nil || errors.Is(err, io.EOF) || strings.HasPrefix(err.Error(), r.file.Name+":") {
		return err
	}
	return fmt.Errorf("reading %s: %w", r.file.Name, err)
}

func appendInt(b array.Builder, v int64) {
	switch bb := b.(type) {
	case *array.Int64Builder:
		bb.Append(v)
	case *array.Int32Builder:
		bb.Append(int32(v))
	case *array.Int16Builder:
		bb.Append(int16(v))
	case *array.Int8Builder:
		bb.Append(int8(v))
	case *array.Uint64Builder:
		bb.Append(uint64(v))
	case *array.Uint32Builder:
		bb.Append(uint32(v))
	default:
		b.AppendNull()
	}
}

// lineReader splits a stream into lines of any length up to max, without
// copying lines that fit the buffer.
type lineReader struct {
	br      *bufio.Reader
	long    []byte
	line    int64
	max     int
	tooLong bool
	// sep is the record separator when it is not '\n' (the lineSep
	// option); 0 is '\n' with a '\r' before it dropped.
	sep byte
	// keepBOM: the stream starts inside a file, so its first line is not
	// the file's and a byte-order mark there is data.
	keepBOM bool
	// back holds lines given back by pushBack, read before the stream.
	back []pushedLine
}

// pushedLine is a line given back to a lineReader, with its number.
type pushedLine struct {
	text    []byte
	n       int64
	tooLong bool
}

// pushBack makes next return lines (in order) before anything not yet
// read. A CSV record that fails after taking several lines gives the
// later ones back, so one bad quote costs one line.
func (l *lineReader) pushBack(lines []pushedLine) {
	if len(lines) > 0 {
		l.back = append(lines, l.back...)
	}
}

func newLineReader(r io.Reader, max, bufSize int) *lineReader {
	// NewReaderSize returns r itself when it is a big enough bufio.Reader,
	// so a stream already buffered (to peek at it) is not copied twice.
	return &lineReader{br: bufio.NewReaderSize(r, bufSize), max: max}
}

// streamBufSize picks the read buffer for a file: 1 MB, or less for a
// small file, so reading many small objects does not churn megabytes.
// Lines longer than the buffer still work (lineReader joins them).
func streamBufSize(f File) int {
	const big = 1 << 20
	if f.Size <= 0 || f.Size >= big/4 {
		return big
	}
	return max(4096, int(f.Size)*4) // room for a compressed file's growth
}

// next returns the next line without its terminator and its 1-based
// number. The slice is valid until the next call. A line longer than max
// is returned cut to max bytes with tooLong set.
func (l *lineReader) next() (line []byte, n int64, err error) {
	l.tooLong = false
	l.long = l.long[:0]
	if len(l.back) > 0 {
		p := l.back[0]
		l.back = l.back[1:]
		l.tooLong = p.tooLong
		return p.text, p.n, nil
	}
	delim := byte('\n')
	if l.sep != 0 {
		delim = l.sep
	}
	for {
		s, err := l.br.ReadSlice(delim)
		if err == bufio.ErrBufferFull {
			if len(l.long)+len(s) <= l.max {
				l.long = append(l.long, s...)
			} else {
				if len(l.long) < l.max {
					l.long = append(l.long, s[:l.max-len(l.long)]...)
				}
				l.tooLong = true
			}
			continue
		}
		if err != nil && err != io.EOF {
			return nil, 0, err
		}
		if err == io.EOF && len(s) == 0 && len(l.long) == 0 {
			return nil, 0, io.EOF
		}
		l.line++
		if len(l.long) > 0 || l.tooLong {
			if len(l.long)+len(s) <= l.max {
				l.long = append(l.long, s...)
			} else {
				l.tooLong = true
			}
			s = l.long
		}
		// Byte tests, not bytes.TrimSuffix: that compares by a call per line.
		if n := len(s); n > 0 && s[n-1] == delim {
			s = s[:n-1]
		}
		if n := len(s); l.sep == 0 && n > 0 && s[n-1] == '\r' {
			s = s[:n-1]
		}
		if l.line == 1 && !l.keepBOM {
			s = bytes.TrimPrefix(s, []byte("\xef\xbb\xbf"))
		}
		if len(s) > l.max {
			s, l.tooLong = s[:l.max], true
		}
		return s, l.line, nil
	}
}

// DictReader is an optional ability of a Reader: NextDict is Next except
// that a STRING or BINARY column may come as an Arrow dictionary array
// (int32 indices) of that type, the batch's schema saying which; batches
// of one stretch of the file (a Parquet column chunk) share one
// dictionary array, so a consumer can work per distinct value once per
// dictionary. Callers that cannot take dictionaries call Next.
type DictReader interface {
	Reader
	NextDict(ctx context.Context) (arrow.RecordBatch, error)
}
