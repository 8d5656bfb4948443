package crashtest

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"sluice/internal/engine"
)

// syncBuffer collects log output from the engine's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestS3StreamScenarios runs the file stream's behaviours against the
// real S3 server, in-process: start_after discovery over dated keys with
// a rate limit, a file landing between runs, a re-uploaded object (new
// ETag) ignored with a warning or re-read with reprocess_changed_files,
// and a FAILFAST bad object resumed past with skip_files.
func TestS3StreamScenarios(t *testing.T) {
	srv := needS3(t)
	defer log.SetOutput(os.Stderr)
	put := func(bucket, key, body string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: strings.NewReader(body)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, reprocess := range []bool{false, true} {
		t.Run(fmt.Sprintf("reprocess_changed_files=%v", reprocess), func(t *testing.T) {
			var logs syncBuffer
			log.SetOutput(&logs)
			bucket := fmt.Sprintf("scen%d-%d", bucketN.Add(1), time.Now().UnixNano()%1e6)
			if err := srv.CreateBucket(bucket); err != nil {
				t.Fatal(err)
			}
			put(bucket, "in/2026/11/30/00.json", "{\"id\": 1}\n{\"id\": 2}\n")
			put(bucket, "in/2026/11/30/01.json", "{\"id\": 3}\n")
			put(bucket, "in/2026/11/30/02.json", "{\"id\": 4}\n")
			eng, err := engine.Open(engine.Options{DataDir: filepath.Join(t.TempDir(), "data")})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			exec := func(q string) []*engine.Result {
				t.Helper()
				res, err := eng.Execute(context.Background(), q)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				return res
			}
			for _, q := range []string{
				fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
				fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
				fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
				fmt.Sprintf("SET s3.region = '%s'", srv.Region),
				"SET s3.path_style = 'true'",
				fmt.Sprintf("CREATE TABLE src (id BIGINT) USING json LOCATION 's3://%s/in/' OPTIONS (recursive 'true', mode 'FAILFAST', reprocess_changed_files '%v')", bucket, reprocess),
				fmt.Sprintf("CREATE TABLE out (id BIGINT) USING json LOCATION 's3://%s/out/'", bucket),
			} {
				exec(q)
			}
			stmt := fmt.Sprintf("INSERT STREAM INTO out SELECT id FROM src WITH (name = 'feed', trigger = 'available_now', "+
				"max_files_per_trigger = 2, discovery = 'start_after', lock_ttl = '2 seconds', checkpoint_location = 's3://%s/cp/feed'%%s)", bucket)
			outRows := func() string {
				t.Helper()
				var ids []string
				for _, b := range exec("SELECT id FROM out ORDER BY id")[0].Batches {
					for i := 0; i < int(b.NumRows()); i++ {
						ids = append(ids, b.Column(0).ValueStr(i))
					}
				}
				return strings.Join(ids, ",")
			}
			exec(fmt.Sprintf(stmt, ""))
			if got := outRows(); got != "1,2,3,4" {
				t.Fatalf("first run: %s", got)
			}
			// A re-uploaded object sorts before the last key: start_after
			// never lists it again, so it is neither warned about nor read.
			put(bucket, "in/2026/11/30/00.json", "{\"id\": 100}\n")
			put(bucket, "in/2026/11/30/03.json", "{\"id\": 5}\n")
			exec(fmt.Sprintf(stmt, ""))
			if got := outRows(); got != "1,2,3,4,5" {
				t.Fatalf("second run: %s", got)
			}
			// The last key itself changes: that one is listed (start_after is
			// exclusive of it, full listing is not): switch to full discovery.
			put(bucket, "in/2026/11/30/03.json", "{\"id\": 6}\n")
			full := strings.Replace(stmt, "discovery = 'start_after'", "discovery = 'full'", 1)
			exec(fmt.Sprintf(full, ""))
			want := "1,2,3,4,5"
			if reprocess {
				want = "1,2,3,4,5,6,100"
			}
			if got := outRows(); got != want {
				t.Fatalf("after re-uploads (full discovery): %s, want %s", got, want)
			}
			if warned := strings.Contains(logs.String(), "03.json changed after it was read"); warned == reprocess {
				t.Fatalf("warning expected %v, logs:\n%s", !reprocess, logs.String())
			}
			// A bad object stops the stream with its key and line ...
			put(bucket, "in/2026/11/30/04.json", "{\"id\": 7}\n{\"id\": oops\n")
			if _, err := eng.Execute(context.Background(), fmt.Sprintf(full, "")); err == nil || !strings.Contains(err.Error(), "04.json:2:") {
				t.Fatalf("FAILFAST on S3: %v", err)
			}
			// ... and skip_files resumes past it.
			exec(fmt.Sprintf(full, ", skip_files = '2026/11/30/04.json'"))
			if got := outRows(); got != want {
				t.Fatalf("after skip_files: %s, want %s", got, want)
			}
		})
	}
}
