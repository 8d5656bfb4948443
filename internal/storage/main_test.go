package storage

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/s3server"
)

// s3srv is the shared real S3 server for this package's tests, or nil
// with s3srvErr saying why not.
var (
	s3srv    *s3server.Server
	s3srvErr error
	bucketN  atomic.Int32
)

func TestMain(m *testing.M) {
	if os.Getenv("SLUICE_TEMP_CHILD") != "" {
		// TestSweepTempAfterKill's child, SIGKILLed by its parent: a
		// gateway it started would outlive it.
		os.Exit(m.Run())
	}
	s3srv, s3srvErr = s3server.Start()
	if s3srvErr != nil {
		fmt.Fprintf(os.Stderr, "\n*** %v: S3 integration tests will be SKIPPED (FAILED in CI) ***\n\n", s3srvErr)
	}
	code := m.Run()
	s3srv.Stop()
	os.Exit(code)
}

// newS3Bucket creates a fresh bucket and returns a store for it, or
// skips loudly when no S3 server is available.
func newS3Bucket(t testing.TB, opts Options) *S3Store {
	t.Helper()
	if s3srv == nil {
		integration.Unavailable(t, "%v", s3srvErr)
	}
	name := fmt.Sprintf("t%d-%s", bucketN.Add(1), strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())))
	if len(name) > 63 {
		name = name[:63]
	}
	name = strings.TrimRight(name, "-")
	if err := s3srv.CreateBucket(name); err != nil {
		t.Fatal(err)
	}
	return newS3Store(t, name, opts)
}

func s3Options() Options {
	return Options{
		Endpoint:        s3srv.Endpoint,
		Region:          s3srv.Region,
		AccessKeyID:     s3srv.AccessKey,
		SecretAccessKey: s3srv.SecretKey,
		MaxRetries:      2,
	}
}

func newS3Store(t testing.TB, bucket string, opts Options) *S3Store {
	t.Helper()
	base := s3Options()
	if opts.AccessKeyID != "" {
		base.AccessKeyID, base.SecretAccessKey = opts.AccessKeyID, opts.SecretAccessKey
	}
	if opts.Endpoint != "" {
		base.Endpoint = opts.Endpoint
	}
	if opts.PartSize != 0 {
		base.PartSize = opts.PartSize
	}
	if opts.MaxRetries != 0 {
		base.MaxRetries = opts.MaxRetries
	}
	base.RetryMaxBackoff = opts.RetryMaxBackoff
	st, err := NewS3Store(t.Context(), bucket, base)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
