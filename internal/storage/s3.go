package storage

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
)

const (
	defaultRegion      = "us-east-1"
	defaultMaxRetries  = 5
	defaultMaxBackoff  = 20 * time.Second
	defaultMaxInflight = 64
	defaultPartSize    = 16 << 20
	// maxResumes bounds how often one Open reconnects mid-body; each
	// resume has made progress or failed through the SDK's own retries.
	maxResumes = 10
)

// S3Store is a Store over one S3 (or S3-compatible) bucket.
//
// Credentials come from Options (static keys, anonymous) or else the
// SDK's default chain; they are never part of String() or errors.
// Requests are retried by the SDK's standard retryer (exponential backoff
// with jitter on 5xx, SlowDown, throttling and network errors); Open also
// resumes a body cut mid-stream with a ranged GET pinned to the ETag.
type S3Store struct {
	bucket   string
	client   *s3.Client
	sem      chan struct{} // MaxInflight slots, held per request (not per open body)
	partSize int64
	// listPageSize is MaxKeys per ListObjectsV2 page (0: the server's
	// default, 1000). Tests lower it.
	listPageSize int32

	condMu   sync.Mutex
	condDone bool
	condErr  error
}

var _ Store = (*S3Store)(nil)

// NewS3Store returns a store for bucket. It makes no request; a missing
// bucket or bad credentials show up on first use as ErrNotFound or
// ErrAccessDenied.
func NewS3Store(ctx context.Context, bucket string, opts Options) (*S3Store, error) {
	if bucket == "" {
		return nil, errors.New("s3: empty bucket name")
	}
	if opts.Endpoint != "" && !strings.HasPrefix(opts.Endpoint, "http://") && !strings.HasPrefix(opts.Endpoint, "https://") {
		return nil, fmt.Errorf("s3 endpoint %q needs a scheme: http:// or https://", opts.Endpoint)
	}
	maxRetries := opts.MaxRetries
	if maxRetries <= 0 {
		maxRetries = defaultMaxRetries
	}
	maxBackoff := opts.RetryMaxBackoff
	if maxBackoff <= 0 {
		maxBackoff = defaultMaxBackoff
	}
	inflight := opts.MaxInflight
	if inflight <= 0 {
		inflight = defaultMaxInflight
	}
	retryer := func() aws.Retryer {
		return retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = maxRetries + 1
			o.MaxBackoff = maxBackoff
			o.Backoff = retry.NewExponentialJitterBackoff(maxBackoff)
			// The client-side retry quota would turn a burst of 503s into
			// "retry quota exceeded" failures; backoff alone paces us.
			o.RateLimiter = ratelimit.None
		})
	}
	httpClient := awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConnsPerHost = inflight
	})
	loadOpts := []func(*config.LoadOptions) error{
		config.WithRetryer(retryer),
		config.WithHTTPClient(httpClient),
	}
	if opts.Region != "" {
		loadOpts = append(loadOpts, config.WithRegion(opts.Region))
	}
	if opts.Profile != "" {
		loadOpts = append(loadOpts, config.WithSharedConfigProfile(opts.Profile))
	}
	switch {
	case opts.Anonymous:
		loadOpts = append(loadOpts, config.WithCredentialsProvider(aws.AnonymousCredentials{}))
	case opts.AccessKeyID != "":
		loadOpts = append(loadOpts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(opts.AccessKeyID, opts.SecretAccessKey, opts.SessionToken)))
	}
	// The credential chain's IMDS client logs through the config's
	// logger from the start: quiet from the start too.
	loadOpts = append(loadOpts, config.WithLogger(quietLogger{next: logging.NewStandardLogger(os.Stderr)}))
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		// The SDK's message names files and profiles, never secrets.
		return nil, fmt.Errorf("loading AWS config for s3://%s: %w", bucket, err)
	}
	if cfg.Region == "" {
		cfg.Region = defaultRegion
	}
	// Not anonymous credentials: the client recognises those by type, to
	// send requests unsigned.
	if cfg.Credentials != nil && !opts.Anonymous {
		cfg.Credentials = markedCredentials{cfg.Credentials}
	}
	pathStyle := opts.Endpoint != ""
	if opts.PathStyle != nil {
		pathStyle = *opts.PathStyle
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if opts.Endpoint != "" {
			o.BaseEndpoint = aws.String(opts.Endpoint)
		}
		// o.BaseEndpoint may also come from AWS_ENDPOINT_URL(_S3) or the
		// shared config: that is an S3-compatible store too, which
		// rarely has wildcard DNS for virtual-host buckets.
		if o.BaseEndpoint != nil {
			if opts.PathStyle == nil {
				pathStyle = true
			}
			// Many S3-compatible stores reject the SDK's default CRC
			// trailers; send and check checksums only where S3 requires.
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
		o.UsePathStyle = pathStyle
	})
	partSize := opts.PartSize
	if partSize <= 0 {
		partSize = defaultPartSize
	}
	return &S3Store{
		bucket:   bucket,
		client:   client,
		sem:      make(chan struct{}, inflight),
		partSize: partSize,
	}, nil
}

// String returns "s3://bucket".
func (s *S3Store) String() string { return "s3://" + s.bucket }

// Bucket returns the bucket name.
func (s *S3Store) Bucket() string { return s.bucket }

func (s *S3Store) uri(key string) string { return "s3://" + s.bucket + "/" + key }

// acquire takes an inflight slot; release gives it back.
func (s *S3Store) acquire(ctx context.Context) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *S3Store) release() { <-s.sem }

// List pages through ListObjectsV2, handing each page to fn before asking
// for the next, so at most one page is held.
func (s *S3Store) List(ctx context.Context, prefix, startAfter string, fn func(ObjectInfo) error) error {
	dirKey := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirKey = prefix[:i+1]
	}
	in := &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket)}
	if prefix != "" {
		in.Prefix = aws.String(prefix)
	}
	if startAfter != "" {
		in.StartAfter = aws.String(startAfter)
	}
	if s.listPageSize > 0 {
		in.MaxKeys = aws.Int32(s.listPageSize)
	}
	p := s3.NewListObjectsV2Paginator(s.client, in)
	for p.HasMorePages() {
		if err := s.acquire(ctx); err != nil {
			return err
		}
		page, err := p.NextPage(ctx)
		s.release()
		if err != nil {
			return s.mapErr("listing", prefix, err)
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			// Keys ending in '/' are "folder" placeholders made by consoles.
			if strings.HasSuffix(key, "/") || memHidden(key[len(dirKey):], prefix[len(dirKey):]) {
				continue
			}
			if err := fn(ObjectInfo{
				Key:     key,
				Size:    aws.ToInt64(o.Size),
				ETag:    aws.ToString(o.ETag),
				ModTime: aws.ToTime(o.LastModified),
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stat issues a HEAD request.
func (s *S3Store) Stat(ctx context.Context, key string) (ObjectInfo, error) {
	if err := checkKey(key); err != nil {
		return ObjectInfo{}, fmt.Errorf("stat %s: %w", s, err)
	}
	if err := s.acquire(ctx); err != nil {
		return ObjectInfo{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	s.release()
	if err != nil {
		return ObjectInfo{}, s.mapErr("stat", key, err)
	}
	return ObjectInfo{
		Key:     key,
		Size:    aws.ToInt64(out.ContentLength),
		ETag:    aws.ToString(out.ETag),
		ModTime: aws.ToTime(out.LastModified),
	}, nil
}

// Delete removes the object; S3 itself treats a missing key as success.
func (s *S3Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("deleting %s: %w", s, err)
	}
	if err := s.acquire(ctx); err != nil {
		return err
	}
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	s.release()
	if err != nil {
		err = s.mapErr("deleting", key, err)
		if errors.Is(err, ErrNotFound) && !isBucketMissing(err) {
			return nil
		}
		return err
	}
	return nil
}

// s3Error prints one clear line while still unwrapping to the sentinel
// (for errors.Is) and the SDK error (for errors.As, e.g. request IDs).
type s3Error struct {
	msg   string
	kind  error
	cause error
}

func (e *s3Error) Error() string   { return e.msg }
func (e *s3Error) Unwrap() []error { return []error{e.kind, e.cause} }

func isBucketMissing(err error) bool {
	var se *s3Error
	return errors.As(err, &se) && strings.Contains(se.msg, "bucket does not exist")
}

// httpStatus returns the HTTP status of an SDK error, or 0.
func httpStatus(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// bucketRegion reads the region S3 names in a wrong-region answer.
func bucketRegion(err error) string {
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.Header.Get("X-Amz-Bucket-Region")
	}
	return ""
}

// errorCode returns the S3 error code ("NoSuchKey") of an SDK error.
func errorCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// mapErr turns SDK errors into the package's sentinels with one-line
// messages: the SDK's own text repeats the operation, request IDs and
// retry counts, which is noise to a user with a wrong bucket name.
func (s *S3Store) mapErr(op, key string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s %s: %w", op, s.uri(key), contextErr(err))
	}
	var ce *credentialsError
	if errors.As(err, &ce) {
		return &s3Error{msg: fmt.Sprintf("%s %s: no S3 credentials found: give OPTIONS (access_key '...', secret_key '...') or (profile '...'), "+
			"set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or anonymous 'true' for a public bucket", op, s), kind: ErrAccessDenied, cause: err}
	}
	code, status := errorCode(err), httpStatus(err)
	switch {
	case code == "NoSuchBucket":
		return &s3Error{msg: fmt.Sprintf("%s %s: bucket does not exist", op, s), kind: ErrNotFound, cause: err}
	// Before the 404 case: Versity answers an unknown access key with
	// 404 XAdminUserNotFound.
	case code == "AccessDenied" || code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch" ||
		code == "InvalidToken" || code == "ExpiredToken" || code == "TokenRefreshRequired" ||
		code == "XAdminUserNotFound" || status == http.StatusForbidden || status == http.StatusUnauthorized:
		return &s3Error{msg: fmt.Sprintf("access denied to %s (check credentials)", s), kind: ErrAccessDenied, cause: err}
	case code == "NoSuchKey" || code == "NotFound" || status == http.StatusNotFound:
		return &s3Error{msg: fmt.Sprintf("%s %s: object not found", op, s.uri(key)), kind: ErrNotFound, cause: err}
	case code == "PermanentRedirect" || code == "AuthorizationHeaderMalformed" || code == "IllegalLocationConstraintException" ||
		status == http.StatusMovedPermanently:
		msg := fmt.Sprintf("%s %s: the bucket is in another region; set the region option", op, s)
		if r := bucketRegion(err); r != "" {
			msg = fmt.Sprintf("%s %s: the bucket is in region %s; set OPTIONS (region '%s')", op, s, r, r)
		}
		return &s3Error{msg: msg, kind: errS3, cause: err}
	case code == "PreconditionFailed" || status == http.StatusPreconditionFailed:
		return &s3Error{msg: fmt.Sprintf("%s %s: precondition failed", op, s.uri(key)), kind: errPrecondition, cause: err}
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return &s3Error{msg: fmt.Sprintf("%s %s: %s: %s", op, s.uri(key), ae.ErrorCode(), ae.ErrorMessage()), kind: errS3, cause: err}
	}
	return fmt.Errorf("%s %s: %w", op, s.uri(key), err)
}

var (
	errPrecondition = errors.New("precondition failed")
	errS3           = errors.New("s3 error")
)

// contextErr picks the bare context error out of an SDK chain, so callers
// can test errors.Is(err, context.Canceled) and see a short message.
func contextErr(err error) error {
	if errors.Is(err, context.Canceled) {
		return context.Canceled
	}
	return context.DeadlineExceeded
}

// markedCredentials marks the credential chain's failures, so that
// mapErr can tell "no credentials anywhere" from the SDK's long chain.
type markedCredentials struct{ aws.CredentialsProvider }

func (m markedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := m.CredentialsProvider.Retrieve(ctx)
	if err != nil && ctx.Err() == nil {
		return c, &credentialsError{err: err}
	}
	return c, err
}

// credentialsError is a credential chain's failure.
type credentialsError struct{ err error }

func (e *credentialsError) Error() string { return "no credentials: " + e.err.Error() }
func (e *credentialsError) Unwrap() error { return e.err }

// quietLogger drops the SDK's warning about undrained bodies: closing a
// body cut off mid-stream is exactly how Open recovers, not a problem
// worth a line on the user's terminal.
type quietLogger struct{ next logging.Logger }

func (q quietLogger) Logf(c logging.Classification, format string, v ...any) {
	// Also the IMDS client's "falling back to IMDSv1" on every machine
	// that is not an EC2 instance, before the missing credentials say
	// what is wrong.
	if strings.HasPrefix(format, "failed to discard remaining HTTP response body") || strings.Contains(format, "falling back to IMDSv1") || q.next == nil {
		return
	}
	q.next.Logf(c, format, v...)
}
