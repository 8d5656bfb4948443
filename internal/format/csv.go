package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// The CSV decoder. encoding/csv has no escape character and no way to
// tell a quoted empty field from a missing one, so this is a small
// hand-written reader: RFC 4180 quoting ("" inside quotes is a quote),
// plus an escape character inside quotes, any delimiter, and (with
// MultiLine) records spanning lines, each row numbered by the line it
// starts on.
//
// An unquoted empty field, or one equal to NullValue, is NULL; a quoted
// empty field is the empty string.

// csvField is one field of the current record: a slice of rec.
type csvField struct {
	start, end int
	quoted     bool
}

type csvReader struct {
	rowBase
	lines  *lineReader
	delim  []byte
	quote  int // -1: quoting disabled
	escape int // -1: none

	cols   []scalar // per data column
	index  []int    // data column -> CSV field index (-1: not in file)
	width  int      // fields per record (header or first record)
	header []string // the header's names, when Header

	rec    []byte // the current record's unquoted text
	fields []csvField
	raw    []byte // the record's original text, for bad rows
	// recLine is the line the current record starts on.
	recLine int64
}

var _ StatsReader = (*csvReader)(nil)

func newCSVReader(ctx context.Context, file File, schema *arrow.Schema, opts Options) (*csvReader, error) {
	r := &csvReader{quote: -1, escape: -1}
	r.init(file, schema, opts)
	fail := func(err error) (*csvReader, error) {
		r.Close()
		return nil, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	r.delim = utf8.AppendRune(nil, opts.Delimiter)
	if opts.Quote != 0 {
		if opts.Quote >= utf8.RuneSelf {
			return fail(fmt.Errorf("quote %q must be an ASCII character", opts.Quote))
		}
		r.quote = int(opts.Quote)
	}
	if opts.Escape != 0 {
		if opts.Escape >= utf8.RuneSelf {
			return fail(fmt.Errorf("escape %q must be an ASCII character", opts.Escape))
		}
		r.escape = int(opts.Escape)
	}
	layout := goLayout(opts.TimestampFormat)
	for _, c := range r.dataCols {
		f := schema.Field(c)
		k, ok := kindOf(f.Type)
		if !ok || k >= kStruct {
			return fail(fmt.Errorf("column %s: type %s is not supported by the CSV reader", f.Name, f.Type))
		}
		r.cols = append(r.cols, newScalar(f.Type, k, layout))
	}
	rc, cut, err := openLines(ctx, file, opts.Compression, nil)
	if err != nil {
		r.Close()
		return nil, err
	}
	// Parts are cut only from UTF-8 files (Splittable), so a charset
	// is decoded over the whole file.
	rc = decodeCharset(rc, opts.Encoding)
	r.rc = rc
	if cut {
		if err := r.startCut(ctx); err != nil {
			r.Close()
			return nil, err
		}
		if err := r.resolveColumnsFromStart(ctx); err != nil {
			r.Close()
			return nil, r.readErr(err)
		}
		r.lines = newLineReader(rc, opts.MaxLineBytes, streamBufSize(file))
		r.lines.keepBOM = true
		return r, nil
	}
	r.lines = newLineReader(rc, opts.MaxLineBytes, streamBufSize(file))
	r.lines.sep = opts.LineSep
	if err := r.resolveColumns(); err != nil {
		r.Close()
		return nil, r.readErr(err)
	}
	return r, nil
}

// resolveColumnsFromStart reads, for a part that starts inside the file,
// what the file's start decides: the header, or without one the width of
// the first good record, which every later record is held to.
func (r *csvReader) resolveColumnsFromStart(ctx context.Context) error {
	hs, err := openStart(ctx, r.file)
	if err != nil {
		return err
	}
	defer hs.Close()
	r.lines = newLineReader(hs, r.opts.MaxLineBytes, 64<<10)
	if err := r.resolveColumns(); err != nil || r.opts.Header {
		return err
	}
	for {
		_, err := r.readRecord()
		var bad *csvBad
		switch {
		case err == nil:
			r.width = len(r.fields)
			return nil
		case errors.As(err, &bad):
			continue
		case err == io.EOF:
			return nil
		default:
			return err
		}
	}
}

// resolveColumns maps schema columns onto field positions: by header name
// (exact, then case-insensitive) or by _cN.
func (r *csvReader) resolveColumns() error {
	var names []string
	if r.opts.Header {
		_, err := r.readRecord()
		if err != nil && err != io.EOF {
			return err
		}
		if err == nil {
			for _, f := range r.fields {
				names = append(names, validUTF8(r.rec[f.start:f.end]))
			}
			r.width = len(names)
		}
	}
	r.header = names
	r.index = make([]int, len(r.dataCols))
	for k, c := range r.dataCols {
		name := r.schema.Field(c).Name
		r.index[k] = -1
		if !r.opts.Header {
			for i, c := range r.opts.ColumnOrder {
				if c == name {
					r.index[k] = i
					break
				}
			}
			if r.index[k] < 0 {
				if n, ok := strings.CutPrefix(name, "_c"); ok {
					if i, err := strconv.Atoi(n); err == nil && i >= 0 {
						r.index[k] = i
					}
				}
			}
			continue
		}
		for i, h := range names {
			if h == name {
				r.index[k] = i
				break
			}
		}
		if r.index[k] < 0 {
			for i, h := range names {
				if strings.EqualFold(h, name) {
					r.index[k] = i
					break
				}
			}
		}
	}
	return nil
}

// csvBad is a record that cannot be split into fields.
type csvBad struct{ reason string }

func (e *csvBad) Error() string { return e.reason }

// readRecord reads the next non-blank record into r.rec/r.fields (and its
// text into r.raw) and returns the line it starts on. A *csvBad error is
// a malformed record; other errors are the stream's.
func (r *csvReader) readRecord() (int64, error) {
	for {
		s, n, err := r.lines.next()
		if err != nil {
			return 0, err
		}
		r.raw = append(r.raw[:0], s...)
		if r.lines.tooLong {
			return n, &csvBad{fmt.Sprintf("record longer than %d bytes", r.opts.MaxLineBytes)}
		}
		if len(bytes.TrimSpace(s)) == 0 {
			continue
		}
		r.recLine = n
		return n, r.split()
	}
}

// split parses r.raw (extending it with following lines while a quoted
// field is open) into fields.
func (r *csvReader) split() error {
	r.rec = r.rec[:0]
	r.fields = r.fields[:0]
	s := r.raw
	i := 0
	for {
		f := csvField{start: len(r.rec)}
		if r.quote >= 0 && i < len(s) && int(s[i]) == r.quote {
			f.quoted = true
			i++
		quoted:
			for {
				if i >= len(s) {
					if !r.opts.MultiLine {
						// Without multiLine a quote never runs past its line,
						// so one stray quote costs one row, not the file.
						return &csvBad{"unterminated quoted field"}
					}
					// The record goes on past the newline.
					next, n, err := r.lines.next()
					if err == io.EOF {
						r.resync(nil, 0, false)
						return &csvBad{"unterminated quoted field"}
					}
					if err != nil {
						return err
					}
					if len(r.raw)+len(next) > r.opts.MaxLineBytes || r.lines.tooLong {
						r.resync(next, n, r.lines.tooLong)
						return &csvBad{fmt.Sprintf("quoted field open past %d bytes", r.opts.MaxLineBytes)}
					}
					r.raw = append(append(r.raw, '\n'), next...)
					s = r.raw
					r.rec = append(r.rec, '\n')
					i++ // past the '\n' just added to raw
					continue
				}
				c := s[i]
				switch {
				case r.escape >= 0 && int(c) == r.escape && r.escape != r.quote && i+1 < len(s):
					r.rec = append(r.rec, s[i+1])
					i += 2
				case int(c) == r.quote:
					if i+1 < len(s) && int(s[i+1]) == r.quote {
						r.rec = append(r.rec, c)
						i += 2
						continue
					}
					i++
					break quoted
				default:
					r.rec = append(r.rec, c)
					i++
				}
			}
			// Text between the closing quote and the delimiter is kept, as
			// Spark's lenient parser does.
			for i < len(s) && !bytes.HasPrefix(s[i:], r.delim) {
				r.rec = append(r.rec, s[i])
				i++
			}
		} else {
			j := bytes.Index(s[i:], r.delim)
			if j < 0 {
				j = len(s) - i
			}
			r.rec = append(r.rec, s[i:i+j]...)
			i += j
		}
		f.end = len(r.rec)
		r.fields = append(r.fields, f)
		if i >= len(s) {
			return nil
		}
		i += len(r.delim) // at a delimiter
		if i >= len(s) {
			r.fields = append(r.fields, csvField{start: len(r.rec), end: len(r.rec)})
			return nil
		}
	}
}

// resync gives back to the line reader every line a failed multi-line
// record took after its first one (and next, the line that broke the
// cap), and cuts r.raw to that first line: the bad row is the line the
// record started on, and reading resumes right after it.
func (r *csvReader) resync(next []byte, n int64, tooLong bool) {
	first, rest, found := bytes.Cut(r.raw, []byte{'\n'})
	var back []pushedLine
	if found {
		for k, l := range bytes.Split(rest, []byte{'\n'}) {
			back = append(back, pushedLine{text: bytes.Clone(l), n: r.recLine + 1 + int64(k)})
		}
	}
	if next != nil {
		back = append(back, pushedLine{text: bytes.Clone(next), n: n, tooLong: tooLong})
	}
	r.lines.pushBack(back)
	r.raw = first
}

// Next returns the next batch of up to BatchSize rows, or io.EOF.
func (r *csvReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.done || r.rb == nil {
		return nil, io.EOF
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for r.pending < r.opts.BatchSize {
		line, err := r.readRecord()
		if err == io.EOF {
			r.done = true
			break
		}
		if err == nil {
			if err := r.row(line); err != nil {
				r.err = err
				return nil, err
			}
			continue
		}
		var bad *csvBad
		if errors.As(err, &bad) {
			if err := r.badSyntax(line, r.raw, bad.reason); err != nil {
				r.err = err
				return nil, err
			}
			continue
		}
		r.err = r.readErr(err)
		return nil, r.err
	}
	if r.pending == 0 {
		return nil, io.EOF
	}
	return r.flush(), nil
}

// row converts the current record into a row.
func (r *csvReader) row(line int64) error {
	if r.width == 0 {
		r.width = len(r.fields)
	}
	if len(r.fields) > r.width {
		if r.opts.Mode != Permissive {
			return r.badSyntax(line, r.raw, fmt.Sprintf("%d fields, expected %d", len(r.fields), r.width))
		}
		// Spark's PERMISSIVE CSV keeps the first fields and drops the extra
		// tokens.
		r.fields = r.fields[:r.width]
	}
	if r.opts.Mode == DropMalformed {
		for k := range r.cols {
			if s, isNull := r.field(k); !isNull {
				if why := r.cols[k].appendText(nil, s, false); why != "" {
					return r.reportBad(line, r.raw, "column "+r.schema.Field(r.dataCols[k]).Name+": "+why)
				}
			}
		}
	}
	var reason string
	for k := range r.cols {
		b := r.rb.Field(r.dataCols[k])
		s, isNull := r.field(k)
		if isNull {
			b.AppendNull()
			continue
		}
		if why := r.cols[k].appendText(b, s, false); why != "" && reason == "" {
			reason = "column " + r.schema.Field(r.dataCols[k]).Name + ": " + why
		}
	}
	if reason == "" {
		r.finishRow(line, nil)
		return nil
	}
	if err := r.reportBad(line, r.raw, reason); err != nil {
		return err
	}
	r.finishRow(line, r.raw)
	return nil
}

// field returns data column k's text in the current record, or isNull.
func (r *csvReader) field(k int) (s []byte, isNull bool) {
	i := r.index[k]
	if i < 0 || i >= len(r.fields) {
		return nil, true
	}
	f := r.fields[i]
	s = r.rec[f.start:f.end]
	if f.quoted {
		return s, false
	}
	if len(s) == 0 || r.opts.NullValue != "" && string(s) == r.opts.NullValue {
		return nil, true
	}
	if r.cols[k].kind != kString && len(bytes.TrimSpace(s)) == 0 {
		return nil, true
	}
	return s, false
}
