package storage

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"golang.org/x/sync/errgroup"
)

// partConcurrency is how many multipart parts are uploaded at once.
const partConcurrency = 4

// Put sends bodies up to the part size in one PUT and larger ones as a
// multipart upload (aborted on failure). Either way the object appears
// whole or not at all. ifAbsent sends If-None-Match: * (on the single PUT
// or on CompleteMultipartUpload); a 412 answer becomes ErrExists. Stores
// that ignore the header silently overwrite: see CheckConditionalPut.
func (s *S3Store) Put(ctx context.Context, key string, data io.Reader, ifAbsent bool) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("writing %s: %w", s, err)
	}
	// Read one byte past the part size to learn whether one PUT will do;
	// a bytes.Buffer grows only as far as the body, so small checkpoint
	// writes stay small.
	var head bytes.Buffer
	n, err := io.CopyN(&head, ctxReader{ctx: ctx, r: data}, s.partSize+1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("writing %s: reading input: %w", s.uri(key), err)
	}
	b := head.Bytes()
	if n <= s.partSize {
		return s.putSingle(ctx, key, b, ifAbsent)
	}
	return s.putMultipart(ctx, key, b[:s.partSize], io.MultiReader(bytes.NewReader(b[s.partSize:]), data), ifAbsent)
}

func (s *S3Store) putSingle(ctx context.Context, key string, body []byte, ifAbsent bool) error {
	in := &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(key),
		Body:          bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))),
	}
	if ifAbsent {
		in.IfNoneMatch = aws.String("*")
	}
	return s.conditional(ctx, key, ifAbsent, func() error {
		_, err := s.client.PutObject(ctx, in)
		return err
	})
}

// conditional runs a write and maps its outcome. S3 answers 409
// ConditionalRequestConflict while another conditional write to the key
// is in flight; retrying then settles it into success or 412.
func (s *S3Store) conditional(ctx context.Context, key string, ifAbsent bool, do func() error) error {
	for attempt := 0; ; attempt++ {
		if err := s.acquire(ctx); err != nil {
			return err
		}
		err := do()
		s.release()
		if err == nil {
			return nil
		}
		if ifAbsent && errorCode(err) == "ConditionalRequestConflict" && attempt < 5 {
			select {
			case <-time.After(time.Duration(50<<attempt) * time.Millisecond):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err = s.mapErr("writing", key, err)
		if ifAbsent && errors.Is(err, errPrecondition) {
			return fmt.Errorf("writing %s: %w", s.uri(key), ErrExists)
		}
		return err
	}
}

func (s *S3Store) putMultipart(ctx context.Context, key string, firstPart []byte, rest io.Reader, ifAbsent bool) (err error) {
	if err := s.acquire(ctx); err != nil {
		return err
	}
	created, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: aws.String(s.bucket), Key: aws.String(key),
	})
	s.release()
	if err != nil {
		return s.mapErr("writing", key, err)
	}
	uploadID := created.UploadId
	defer func() {
		if err != nil {
			// Abort even when ctx is cancelled: orphaned parts cost money.
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_, _ = s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{
				Bucket: aws.String(s.bucket), Key: aws.String(key), UploadId: uploadID,
			})
		}
	}()

	parts, err := s.uploadParts(ctx, key, uploadID, firstPart, rest)
	if err != nil {
		return err
	}
	in := &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(s.bucket), Key: aws.String(key), UploadId: uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	}
	if ifAbsent {
		in.IfNoneMatch = aws.String("*")
	}
	return s.conditional(ctx, key, ifAbsent, func() error {
		_, err := s.client.CompleteMultipartUpload(ctx, in)
		return err
	})
}

// uploadParts sends parts with up to partConcurrency in flight, each from
// its own buffer, so memory stays at (partConcurrency+1) parts. The first
// error cancels the rest.
func (s *S3Store) uploadParts(ctx context.Context, key string, uploadID *string, firstPart []byte, rest io.Reader) ([]types.CompletedPart, error) {
	g, gctx := errgroup.WithContext(ctx)
	var mu sync.Mutex
	var parts []types.CompletedPart
	free := make(chan []byte, partConcurrency)
	allocated := 0
	upload := func(num int32, body []byte, recycle bool) {
		g.Go(func() error {
			if err := s.acquire(gctx); err != nil {
				return err
			}
			out, err := s.client.UploadPart(gctx, &s3.UploadPartInput{
				Bucket: aws.String(s.bucket), Key: aws.String(key), UploadId: uploadID,
				PartNumber: aws.Int32(num), Body: bytes.NewReader(body), ContentLength: aws.Int64(int64(len(body))),
			})
			s.release()
			if err != nil {
				return s.mapErr(fmt.Sprintf("writing part %d of", num), key, err)
			}
			mu.Lock()
			parts = append(parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
			mu.Unlock()
			if recycle {
				free <- body[:cap(body)]
			}
			return nil
		})
	}
	upload(1, firstPart, false)
	readErr := func() error {
		for num := int32(2); ; num++ {
			var buf []byte
			select {
			case buf = <-free:
			default:
				if allocated < partConcurrency {
					allocated++
					buf = make([]byte, s.partSize)
					break
				}
				select {
				case buf = <-free:
				case <-gctx.Done():
					return nil // an upload failed; g.Wait reports it
				}
			}
			n, err := io.ReadFull(ctxReader{ctx: gctx, r: rest}, buf)
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				if gctx.Err() != nil && ctx.Err() == nil {
					return nil // cancelled by a failed upload
				}
				return fmt.Errorf("writing %s: reading input: %w", s.uri(key), err)
			}
			if n == 0 {
				return nil
			}
			if num > 10000 {
				return fmt.Errorf("writing %s: more than 10000 parts of %d bytes; raise part_size", s.uri(key), s.partSize)
			}
			upload(num, buf[:n], true)
			if n < len(buf) {
				return nil
			}
		}
	}()
	werr := g.Wait()
	if readErr != nil {
		return nil, readErr
	}
	if werr != nil {
		return nil, werr
	}
	sort.Slice(parts, func(i, j int) bool { return *parts[i].PartNumber < *parts[j].PartNumber })
	return parts, nil
}

// CheckConditionalPut reports whether the store honours If-None-Match on
// PUT, by writing a probe key twice with ifAbsent: if the second write
// succeeds too, exclusive Put cannot be relied on and it returns
// ErrConditionalUnsupported. The answer is remembered once known; a
// transient failure is returned but not remembered.
func (s *S3Store) CheckConditionalPut(ctx context.Context) error {
	s.condMu.Lock()
	defer s.condMu.Unlock()
	if s.condDone {
		return s.condErr
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	key := ".sluice-probe/conditional-" + hex.EncodeToString(rnd[:])
	defer func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = s.Delete(dctx, key)
	}()
	if err := s.Put(ctx, key, bytes.NewReader([]byte("1")), true); err != nil {
		return fmt.Errorf("checking conditional writes on %s: %w", s, err)
	}
	err := s.Put(ctx, key, bytes.NewReader([]byte("2")), true)
	switch {
	case err == nil:
		s.condErr = fmt.Errorf("%s accepted a second If-None-Match write: %w", s, ErrConditionalUnsupported)
	case errors.Is(err, ErrExists):
		s.condErr = nil
	default:
		return fmt.Errorf("checking conditional writes on %s: %w", s, err)
	}
	s.condDone = true
	return s.condErr
}
