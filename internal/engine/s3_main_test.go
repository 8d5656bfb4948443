package engine

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/storage"
	"sluice/internal/testutil/faultproxy"
	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/s3server"
	"sluice/internal/types"
)

// The S3 integration tests share one real S3 server (the Versity gateway
// on a loopback port) per package run; each test gets its own buckets.
var (
	s3srv    *s3server.Server
	s3srvErr error
	bucketN  atomic.Int32
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Keep the developer's ~/.aws and any instance metadata out of the
	// tests: every credential they use is explicit or set with t.Setenv.
	for k, v := range map[string]string{
		"AWS_CONFIG_FILE":             filepath.Join(os.TempDir(), "sluice-no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(os.TempDir(), "sluice-no-aws-credentials"),
		"AWS_EC2_METADATA_DISABLED":   "true",
	} {
		os.Setenv(k, v)
	}
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"} {
		os.Unsetenv(k)
	}
	if !testing.Short() {
		s3srv, s3srvErr = s3server.Start()
		if s3srvErr != nil {
			fmt.Fprintf(os.Stderr, "\n*** %v: engine S3 integration tests will be SKIPPED (FAILED in CI) ***\n\n", s3srvErr)
		}
	} else {
		s3srvErr = errors.New("-short")
	}
	code := m.Run()
	s3srv.Stop()
	os.Exit(code)
}

// needS3 skips loudly (fails in CI) when the server could not be started.
func needS3(t testing.TB) *s3server.Server {
	t.Helper()
	if s3srv == nil {
		if testing.Short() {
			t.Skip("S3 SERVER UNAVAILABLE (-short): skipping S3 integration test")
		}
		integration.Unavailable(t, "S3 SERVER UNAVAILABLE (%v): skipping S3 integration test", s3srvErr)
	}
	return s3srv
}

// newBucket creates a fresh bucket named after the test.
func newBucket(t testing.TB) string {
	t.Helper()
	srv := needS3(t)
	name := fmt.Sprintf("e%d-%s", bucketN.Add(1), strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())))
	if len(name) > 63 {
		name = name[:63]
	}
	name = strings.TrimRight(name, "-")
	if err := srv.CreateBucket(name); err != nil {
		t.Fatal(err)
	}
	return name
}

// putObject uploads data as bucket/key with the server's root client.
func putObject(t testing.TB, bucket, key string, data []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := s3srv.Client().PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(data),
	})
	if err != nil {
		t.Fatalf("uploading s3://%s/%s: %v", bucket, key, err)
	}
}

// uploadFile uploads a file of the repository's testdata.
func uploadFile(t testing.TB, bucket, key, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	putObject(t, bucket, key, data)
}

// testdata is the repository's testdata folder, absolute.
func testdata(t testing.TB, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// s3Opts is an OPTIONS clause for the server reached at endpoint (the
// server itself or a proxy in front of it), plus extra options.
func s3Opts(endpoint string, extra ...string) string {
	o := []string{
		fmt.Sprintf("endpoint '%s'", endpoint),
		fmt.Sprintf("access_key '%s'", s3srv.AccessKey),
		fmt.Sprintf("secret_key '%s'", s3srv.SecretKey),
		"path_style 'true'",
		fmt.Sprintf("region '%s'", s3srv.Region),
	}
	return "OPTIONS (" + strings.Join(append(o, extra...), ", ") + ")"
}

// newTestEngine opens an engine over a temp data directory.
func newTestEngine(t testing.TB) *Engine {
	t.Helper()
	eng, err := Open(Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// exec runs statements that must succeed and returns the last result.
func mustExec(t testing.TB, eng *Engine, sql string) *Result {
	t.Helper()
	res, err := eng.Execute(t.Context(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if len(res) == 0 {
		return &Result{}
	}
	return res[len(res)-1]
}

// sortedRows runs a query and returns its rows formatted and sorted, so
// results compare without ORDER BY.
func sortedRows(t testing.TB, eng *Engine, sql string) []string {
	t.Helper()
	res, err := eng.Execute(t.Context(), sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	rows := resultRows(res[len(res)-1])
	sort.Strings(rows)
	return rows
}

func resultRows(r *Result) []string {
	var out []string
	for _, b := range r.Batches {
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				vals = append(vals, types.FormatValue(b.Column(c), i))
			}
			out = append(out, strings.Join(vals, "|"))
		}
	}
	return out
}

// resultText is everything a result shows a user: message and rows.
func resultText(r *Result) string {
	return r.Message + "\n" + strings.Join(resultRows(r), "\n")
}

// countingProxy is a fault proxy that injects no faults: it counts the
// requests and bytes a query causes.
func countingProxy(t testing.TB) *faultproxy.Proxy {
	t.Helper()
	p, err := faultproxy.Start(needS3(t).Endpoint, faultproxy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// assertNoSecret fails when text contains the server's secret key.
func assertNoSecret(t testing.TB, what, text string) {
	t.Helper()
	if strings.Contains(text, s3srv.SecretKey) {
		t.Errorf("%s shows the secret key: %s", what, text)
	}
}

// assertClean fails when an error message carries SDK noise a user
// should not have to read.
func assertClean(t testing.TB, err error) {
	t.Helper()
	msg := err.Error()
	for _, noise := range []string{"operation error", "RequestID", "request id", "https response error", "api error", "StatusCode"} {
		if strings.Contains(msg, noise) {
			t.Errorf("error carries SDK noise %q: %s", noise, msg)
		}
	}
	assertNoSecret(t, "error", msg)
}

type objectInfo = storage.ObjectInfo

// s3Store opens the storage layer on bucket with the server's keys.
func s3Store(t testing.TB, bucket string) *storage.S3Store {
	t.Helper()
	srv := needS3(t)
	st, err := storage.NewS3Store(t.Context(), bucket, storage.Options{
		Endpoint: srv.Endpoint, Region: srv.Region, AccessKeyID: srv.AccessKey, SecretAccessKey: srv.SecretKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}
