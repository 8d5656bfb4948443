package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Open streams the object with a GET that survives a cut connection: see
// s3Reader.
func (s *S3Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	return s.OpenRange(ctx, key, 0, -1)
}

// OpenRange issues a ranged GET. A range starting past the end reads
// nothing, like LocalStore.
func (s *S3Store) OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("reading %s: %w", s, err)
	}
	if offset < 0 {
		return nil, fmt.Errorf("reading %s: negative offset %d", s.uri(key), offset)
	}
	if length == 0 {
		// "bytes=x-(x-1)" is not a valid range; still report a missing key.
		if _, err := s.Stat(ctx, key); err != nil {
			return nil, err
		}
		return io.NopCloser(&emptyReader{}), nil
	}
	r := &s3Reader{ctx: ctx, s: s, key: key, pos: offset, end: -1}
	if length > 0 {
		r.end = offset + length // exclusive
	}
	if err := r.open(); err != nil {
		if errors.Is(err, errRangeNotSatisfiable) {
			return io.NopCloser(&emptyReader{}), nil
		}
		return nil, err
	}
	return r, nil
}

// openRangeMatch is OpenRange pinned to an ETag (none when etag is ""),
// returning the ETag it read, so ObjectReaderAt can keep every ReadAt on
// one version of the object.
func (s *S3Store) openRangeMatch(ctx context.Context, key, etag string, offset, length int64) (io.ReadCloser, string, error) {
	r := &s3Reader{ctx: ctx, s: s, key: key, etag: etag, pos: offset, end: offset + length}
	if err := r.open(); err != nil {
		if errors.Is(err, errRangeNotSatisfiable) {
			return nil, "", fmt.Errorf("reading %s at %d: object shorter than expected: %w", s.uri(key), offset, ErrChanged)
		}
		return nil, "", err
	}
	return r, r.etag, nil
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, io.EOF }

var errRangeNotSatisfiable = errors.New("range not satisfiable")

// s3Reader reads [pos, end) of an object. When the body breaks off (reset,
// unexpected EOF), it reopens from the first unread byte with If-Match on
// the ETag of the first response, so a changed object is an error rather
// than a splice of two versions.
type s3Reader struct {
	ctx     context.Context
	s       *S3Store
	key     string
	etag    string
	pos     int64 // next byte to read
	end     int64 // exclusive; -1 until known (whole-object read)
	body    io.ReadCloser
	resumes int   // consecutive reconnects without progress
	openPos int64 // pos when the current body was opened
	closed  bool
}

func (r *s3Reader) open() error {
	in := &s3.GetObjectInput{Bucket: aws.String(r.s.bucket), Key: aws.String(r.key)}
	if r.pos > 0 || r.end >= 0 {
		rng := "bytes=" + strconv.FormatInt(r.pos, 10) + "-"
		if r.end >= 0 {
			rng += strconv.FormatInt(r.end-1, 10)
		}
		in.Range = aws.String(rng)
	}
	if r.etag != "" {
		in.IfMatch = aws.String(r.etag)
	}
	if err := r.s.acquire(r.ctx); err != nil {
		return err
	}
	out, err := r.s.client.GetObject(r.ctx, in)
	r.s.release()
	if err != nil {
		if httpStatus(err) == 416 || errorCode(err) == "InvalidRange" {
			return errRangeNotSatisfiable
		}
		err = r.s.mapErr("reading", r.key, err)
		if errors.Is(err, errPrecondition) {
			return fmt.Errorf("reading %s: ETag no longer %s: %w", r.s.uri(r.key), r.etag, ErrChanged)
		}
		return err
	}
	if r.etag == "" {
		r.etag = aws.ToString(out.ETag)
	}
	// Knowing the true end lets a body that stops early (without an
	// error from the transport) be told apart from the real end.
	if total, ok := contentRangeTotal(aws.ToString(out.ContentRange)); ok {
		if r.end < 0 || r.end > total {
			r.end = total
		}
	} else if r.end < 0 && out.ContentLength != nil {
		r.end = r.pos + aws.ToInt64(out.ContentLength)
	}
	r.body = out.Body
	r.openPos = r.pos
	return nil
}

func (r *s3Reader) Read(p []byte) (int, error) {
	if r.closed {
		return 0, fmt.Errorf("reading %s: read after close", r.s.uri(r.key))
	}
	for {
		if r.end >= 0 && r.pos >= r.end {
			return 0, io.EOF
		}
		if r.body == nil {
			if err := r.open(); err != nil {
				if errors.Is(err, errRangeNotSatisfiable) {
					return 0, fmt.Errorf("reading %s: object shrank: %w", r.s.uri(r.key), ErrChanged)
				}
				return 0, err
			}
		}
		if r.end >= 0 && int64(len(p)) > r.end-r.pos {
			p = p[:r.end-r.pos]
		}
		n, err := r.body.Read(p)
		r.pos += int64(n)
		if err == nil {
			return n, nil
		}
		if err == io.EOF && (r.end < 0 || r.pos >= r.end) {
			return n, io.EOF
		}
		if r.ctx.Err() != nil {
			return n, fmt.Errorf("reading %s: %w", r.s.uri(r.key), r.ctx.Err())
		}
		if err != io.EOF && !resumable(err) {
			return n, fmt.Errorf("reading %s at byte %d: %w", r.s.uri(r.key), r.pos, err)
		}
		// Early EOF or a broken connection: reconnect from r.pos.
		r.body.Close()
		r.body = nil
		if r.pos > r.openPos {
			r.resumes = 0
		}
		r.resumes++
		if r.resumes > maxResumes {
			return n, fmt.Errorf("reading %s: connection broke %d times without progress, giving up at byte %d: %w", r.s.uri(r.key), r.resumes, r.pos, err)
		}
		if n > 0 {
			return n, nil
		}
	}
}

// resumable reports whether a body read error is a transport failure
// worth reconnecting for.
func resumable(err error) bool {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

func (r *s3Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.body != nil {
		return r.body.Close()
	}
	return nil
}

// contentRangeTotal parses the object size out of "bytes 5-9/10".
func contentRangeTotal(cr string) (int64, bool) {
	i := strings.LastIndexByte(cr, '/')
	if i < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(cr[i+1:], 10, 64)
	return n, err == nil
}
