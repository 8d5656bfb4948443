package format

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
)

// Codec names as Options.Compression holds them after normalizing.
const (
	CodecAuto   = "auto"
	CodecNone   = "none"
	CodecGzip   = "gzip"
	CodecZstd   = "zstd"
	CodecSnappy = "snappy"
	CodecBzip2  = "bzip2"
)

// normalizeCodec maps the spellings users write onto the codec names.
func normalizeCodec(v string, parquet bool) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "auto":
		return CodecAuto, nil
	case "none", "uncompressed", "off":
		return CodecNone, nil
	case "gzip", "gz":
		return CodecGzip, nil
	case "zstd", "zst", "zstandard":
		return CodecZstd, nil
	case "snappy", "sz":
		return CodecSnappy, nil
	case "bzip2", "bz2":
		if parquet {
			break
		}
		return CodecBzip2, nil
	}
	if parquet {
		return "", fmt.Errorf("unknown compression %q (known: auto, none, snappy, zstd, gzip)", v)
	}
	return "", fmt.Errorf("unknown compression %q (known: auto, none, gzip, zstd, snappy, bzip2)", v)
}

// CodecFromName returns the codec a file name's extension implies, or
// "none".
func CodecFromName(name string) string {
	if i := strings.IndexAny(name, "?#"); i >= 0 && strings.Contains(name, "://") {
		name = name[:i]
	}
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".gz"), strings.HasSuffix(n, ".gzip"):
		return CodecGzip
	case strings.HasSuffix(n, ".zst"), strings.HasSuffix(n, ".zstd"):
		return CodecZstd
	case strings.HasSuffix(n, ".snappy"), strings.HasSuffix(n, ".sz"):
		return CodecSnappy
	case strings.HasSuffix(n, ".bz2"):
		return CodecBzip2
	}
	return CodecNone
}

// Extension returns the file-name suffix for a codec ("" for none), so
// writers can name what they produce.
func Extension(codec string) string {
	switch codec {
	case CodecGzip:
		return ".gz"
	case CodecZstd:
		return ".zst"
	case CodecSnappy:
		return ".snappy"
	case CodecBzip2:
		return ".bz2"
	}
	return ""
}

var (
	magicGzip   = []byte{0x1f, 0x8b}
	magicZstd   = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicSnappy = []byte("\xff\x06\x00\x00sNaPpY")
	magicBzip2  = []byte("BZh")
)

// sniffCodec guesses the codec from the first bytes. It is only used when
// the name says nothing, and the magics are long enough (bzip2 also needs
// its block magic) that a text file is not mistaken for a compressed one.
func sniffCodec(head []byte) string {
	switch {
	case bytes.HasPrefix(head, magicGzip) && len(head) >= 3 && head[2] == 8:
		return CodecGzip
	case bytes.HasPrefix(head, magicZstd):
		return CodecZstd
	case bytes.HasPrefix(head, magicSnappy):
		return CodecSnappy
	case bytes.HasPrefix(head, magicBzip2) && len(head) >= 10 && head[3] >= '1' && head[3] <= '9' &&
		string(head[4:10]) == "1AY&SY":
		return CodecBzip2
	}
	return CodecNone
}

// Decompress wraps rc so reads return the decompressed bytes. codec is an
// Options.Compression value; "auto" (or "") looks at name's extension and
// then at the stream's first bytes. Errors from the returned reader name
// the codec ("unexpected EOF in gzip stream"); the caller adds the file.
// Closing the result closes rc.
func Decompress(rc io.ReadCloser, name, codec string) (io.ReadCloser, error) {
	c, err := normalizeCodec(codec, false)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(rc, 256<<10)
	if c == CodecAuto {
		c = CodecFromName(name)
		if c == CodecNone {
			head, _ := br.Peek(16)
			c = sniffCodec(head)
		}
	}
	var r io.Reader
	var closeFn func()
	switch c {
	case CodecNone:
		return &readCloser{r: br, c: rc, codec: c}, nil
	case CodecGzip:
		zr, err := gzip.NewReader(br)
		if err == io.EOF {
			// A zero-byte .gz file holds no rows rather than being broken.
			r = bytes.NewReader(nil)
			break
		}
		if err != nil {
			return nil, codecErr(c, err)
		}
		r = zr
	case CodecZstd:
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<31))
		if err != nil {
			return nil, codecErr(c, err)
		}
		r, closeFn = zr, zr.Close
	case CodecSnappy:
		head, _ := br.Peek(len(magicSnappy))
		if bytes.Equal(head, magicSnappy) {
			r = snappy.NewReader(br)
		} else {
			// A raw (unframed) snappy block: it has no streaming form, so
			// it is decoded whole.
			raw, err := io.ReadAll(br)
			if err != nil {
				return nil, err
			}
			dec, err := snappy.Decode(nil, raw)
			if err != nil {
				return nil, codecErr(c, err)
			}
			r = bytes.NewReader(dec)
		}
	case CodecBzip2:
		r = bzip2.NewReader(br)
	}
	return &readCloser{r: r, c: rc, codec: c, closeFn: closeFn}, nil
}

// readCloser names the codec in decompression errors and closes both the
// decompressor and the raw stream.
type readCloser struct {
	r       io.Reader
	c       io.Closer
	codec   string
	closeFn func()
	closed  bool
}

func (r *readCloser) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = codecErr(r.codec, err)
	}
	return n, err
}

func (r *readCloser) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.closeFn != nil {
		r.closeFn()
	}
	return r.c.Close()
}

// errCodec marks an error that already names its codec.
type errCodec struct {
	codec string
	err   error
}

func (e *errCodec) Error() string {
	if errors.Is(e.err, io.ErrUnexpectedEOF) {
		return "unexpected EOF in " + e.codec + " stream"
	}
	return e.codec + ": " + e.err.Error()
}

func (e *errCodec) Unwrap() error { return e.err }

func codecErr(codec string, err error) error {
	if codec == CodecNone {
		return err
	}
	var ce *errCodec
	if errors.As(err, &ce) {
		return err
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &errCodec{codec: codec, err: err}
}

// Compress wraps w so writes are compressed with codec ("none", "gzip",
// "zstd", "snappy" framed, "bzip2" is read-only). Close finishes the
// compressed stream but does not close w.
func Compress(w io.Writer, codec string) (io.WriteCloser, error) {
	c, err := normalizeCodec(codec, false)
	if err != nil {
		return nil, err
	}
	switch c {
	case CodecNone, CodecAuto:
		return nopWriteCloser{w}, nil
	case CodecGzip:
		return gzip.NewWriter(w), nil
	case CodecZstd:
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	case CodecSnappy:
		return snappy.NewBufferedWriter(w), nil
	}
	return nil, fmt.Errorf("compression %s is not supported for writing (use gzip, zstd or snappy)", c)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
