package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// Part is the byte range of a file that one reader decodes, so that
// several readers can share one large file.
//
// Line formats (JSON lines, CSV without multiLine): a part holds the lines
// that start in (Start, End], and the first line when Start is 0. A reader
// with Start > 0 skips to just after the first newline at or after Start;
// every reader reads through the line that crosses End. Parts that tile
// [0, size) therefore hold every line exactly once, and a part no line
// starts in is empty. A CSV header is read from the file's start by every
// part. A file that cannot be cut (compressed, or JSON that is one
// top-level array) is read whole by the part with Start 0 and the others
// yield nothing. _row and bad-row line numbers stay the line in the whole
// file: a part counts the newlines before it when it first needs them.
//
// Parquet: a part holds the row groups whose first byte lies in
// [Start, End); _row stays the ordinal in the whole file.
type Part struct{ Start, End int64 }

// Splittable reports whether a file of format f (json, csv, parquet) named
// name can be read in Parts with opts: not when it is compressed (a codec
// from the options or the name) or, for CSV, when quoted fields may span
// lines (MultiLine). A compressed file the name does not give away is
// still read correctly (see Part), only not in parallel.
func Splittable(f string, opts Options, name string) bool {
	switch normalizeFormat(f) {
	case "parquet":
		return true
	case "json", "csv":
		// Parts are cut at '\n' bytes: not where records may span lines,
		// end at another separator, or a '\n' byte may sit inside a
		// character (UTF-16).
		if opts.MultiLine || opts.LineSep != 0 || opts.Encoding != "" {
			return false
		}
	default:
		return false
	}
	c, err := normalizeCodec(opts.Compression, false)
	if err != nil {
		return false
	}
	if c == CodecAuto {
		c = CodecFromName(name)
	}
	return c == CodecNone
}

// partHeadBytes is how much of a file's start a part looks at to decide
// whether the file can be cut.
const partHeadBytes = 4096

// openLines opens what a line-format reader decodes: the whole file
// (decompressed) without a Part, else the part's lines. whole, when not
// nil, says from the file's first bytes that it must be read whole (a
// JSON array). cut is true when the stream starts inside the file.
func openLines(ctx context.Context, file File, codec string, whole func(head []byte) bool) (rc io.ReadCloser, cut bool, err error) {
	p := file.Part
	if p == nil || file.OpenRange == nil {
		rc, err := openStream(ctx, file, codec)
		return rc, false, err
	}
	c, err := normalizeCodec(codec, false)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	if c == CodecAuto {
		c = CodecFromName(file.Name)
	}
	if c == CodecNone {
		head, err := readHead(ctx, file)
		if err != nil {
			return nil, false, err
		}
		if sniffCodec(head) != CodecNone || (whole != nil && whole(head)) {
			c = CodecAuto
		}
	}
	if c != CodecNone {
		if p.Start > 0 {
			// Nothing to read, not even a header to look for.
			return io.NopCloser(bytes.NewReader(nil)), false, nil
		}
		rc, err := openStream(ctx, file, codec)
		return rc, false, err
	}
	pr := &partReader{ctx: ctx, file: file, pos: p.Start, end: p.End, skip: p.Start > 0}
	if err := pr.open(p.Start, p.End-p.Start+partSlack); err != nil {
		return nil, false, err
	}
	return pr, p.Start > 0, nil
}

// openStart streams the file from its start, by a first range of
// partSlack bytes and, only when the caller reads past it, a second to
// the end: for the few lines a part needs from the start (a CSV header).
func openStart(ctx context.Context, file File) (io.ReadCloser, error) {
	pr := &partReader{ctx: ctx, file: file, end: file.Size}
	if file.Size <= 0 {
		pr.end = 1<<63 - 1
	}
	if err := pr.open(0, partSlack); err != nil {
		return nil, err
	}
	return pr, nil
}

// readHead returns up to partHeadBytes of the file's start.
func readHead(ctx context.Context, file File) ([]byte, error) {
	rc, err := file.OpenRange(ctx, 0, partHeadBytes)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	defer rc.Close()
	buf := make([]byte, partHeadBytes)
	n, err := io.ReadFull(rc, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("reading %s: %w", file.Name, err)
	}
	return buf[:n], nil
}

// partSlack is how far past End the first range request of a part
// reaches, so the line crossing End usually needs no second request.
const partSlack = 1 << 20

// partReader streams a part's lines: from just after the first newline at
// or after Start (from Start when it is 0) through the first newline at
// or after End. Bytes come straight from ranged reads of the file; a line
// running past the first range is read by a second one to the end.
type partReader struct {
	ctx  context.Context
	file File
	rc   io.ReadCloser
	// pos is the file offset of the next byte rc returns; end is the
	// part's End; limit is where rc's range stops (-1: end of file).
	pos, end, limit int64
	skip            bool // still looking for the first newline
	done            bool
	// buf holds what the search for the first newline read; pend is its
	// part after that newline, not yet returned.
	buf, pend []byte
}

func (r *partReader) open(off, n int64) error {
	if r.rc != nil {
		r.rc.Close()
		r.rc = nil
	}
	if r.file.Size > 0 && n >= 0 && off+n >= r.file.Size {
		n = -1
	}
	rc, err := r.file.OpenRange(r.ctx, off, n)
	if err != nil {
		return fmt.Errorf("reading %s at %d: %w", r.file.Name, off, err)
	}
	r.rc, r.limit = rc, -1
	if n >= 0 {
		r.limit = off + n
	}
	return nil
}

// fill reads into p from the current range, moving to a second range
// when the first ends before the file does.
func (r *partReader) fill(p []byte) (int, error) {
	for {
		n, err := r.rc.Read(p)
		if n > 0 {
			return n, nil
		}
		if errors.Is(err, io.EOF) && r.limit >= 0 && r.pos >= r.limit {
			if err := r.open(r.pos, -1); err != nil {
				return 0, err
			}
			continue
		}
		if err == nil {
			continue
		}
		return 0, err
	}
}

func (r *partReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	for r.skip {
		if r.buf == nil {
			r.buf = make([]byte, 64<<10)
		}
		n, err := r.fill(r.buf)
		if err != nil {
			return 0, err
		}
		i := bytes.IndexByte(r.buf[:n], '\n')
		if i < 0 {
			r.pos += int64(n)
			continue
		}
		r.skip = false
		r.pos += int64(i) + 1
		// The first line starts at pos: it belongs to this part only when
		// that is at most End.
		if r.pos > r.end {
			r.done = true
			return 0, io.EOF
		}
		r.pend = r.buf[i+1 : n]
	}
	if len(r.pend) > 0 {
		n := copy(p, r.pend)
		r.pend = r.pend[n:]
		return r.emit(p, n), nil
	}
	n, err := r.fill(p)
	if err != nil {
		return 0, err
	}
	return r.emit(p, n), nil
}

// emit takes the n bytes just placed in p (starting at file offset pos)
// and cuts them after the first newline at or after End.
func (r *partReader) emit(p []byte, n int) int {
	if from := r.end - r.pos; from < int64(n) {
		from = max(from, 0)
		if i := bytes.IndexByte(p[from:n], '\n'); i >= 0 {
			n = int(from) + i + 1
			r.done = true
		}
	}
	r.pos += int64(n)
	return n
}

func (r *partReader) Close() error {
	if r.rc == nil {
		return nil
	}
	err := r.rc.Close()
	r.rc = nil
	return err
}

// countLines is the number of newlines in the file's bytes [0, off): a
// part's first line number less one.
func countLines(ctx context.Context, file File, off int64) (int64, error) {
	rc, err := file.OpenRange(ctx, 0, off)
	if err != nil {
		return 0, fmt.Errorf("reading %s: counting lines: %w", file.Name, err)
	}
	defer rc.Close()
	buf := make([]byte, 256<<10)
	var lines, read int64
	for read < off {
		n, err := rc.Read(buf[:min(int64(len(buf)), off-read)])
		lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		read += int64(n)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return 0, fmt.Errorf("reading %s: counting lines: %w", file.Name, err)
		}
	}
	if read < off {
		return 0, fmt.Errorf("reading %s: counting lines: the file has %d bytes, fewer than before", file.Name, read)
	}
	return lines, nil
}
