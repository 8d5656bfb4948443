package crashtest

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
	"sluice/internal/testutil/s3server"
)

var bucketN atomic.Int32

// needS3 starts the shared server on first use, or skips loudly.
// s3Session is the SET statements that point a session at srv.
func s3Session(srv *s3server.Server) []string {
	return []string{
		fmt.Sprintf("SET s3.endpoint = '%s'", srv.Endpoint),
		fmt.Sprintf("SET s3.access_key = '%s'", srv.AccessKey),
		fmt.Sprintf("SET s3.secret_key = '%s'", srv.SecretKey),
		fmt.Sprintf("SET s3.region = '%s'", srv.Region),
		"SET s3.path_style = 'true'",
	}
}

func needS3(t *testing.T) *s3server.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("S3 SERVER UNAVAILABLE (-short): skipping S3 crash test")
	}
	if s3srv == nil {
		srv, err := s3server.Start()
		if err != nil {
			integration.Unavailable(t, "%v: skipping S3 crash test", err)
		}
		s3srv = srv
	}
	return s3srv
}

// s3Scenario is localScenario with the input, both tables and the
// checkpoint in a fresh bucket, reached through SET s3.*; the lease TTL
// is short so a SIGKILLed run blocks restarts for a second, not 30.
func s3Scenario(t *testing.T, nFiles int) *scenario {
	srv := needS3(t)
	bucket := newBucket(t, srv, "crash")
	dir := t.TempDir()
	up := &inputUploader{srv: srv, bucket: bucket, dir: filepath.Join(dir, "in"), rows: 50, quiet: true}
	upload := func(t *testing.T, from, n int) {
		t.Helper()
		up.files = from
		up.upload(t, n)
	}
	upload(t, 0, nFiles)
	loc := func(p string) string { return "s3://" + bucket + "/" + p + "/" }
	return &scenario{
		files:   nFiles,
		more:    upload,
		dataDir: filepath.Join(dir, "data"),
		session: s3Session(srv),
		setup: []string{
			"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION '" + loc("in") + "'",
			"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + loc("out") + "'",
			"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + loc("batch") + "'",
		},
		stmt: "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
			"WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 1, lock_ttl = '1 second', " +
			"checkpoint_location = '" + strings.TrimSuffix(loc("cp/feed"), "/") + "')",
	}
}

// TestCrashRecoveryS3 is TestCrashRecoveryLocal against the real S3
// server, with fewer kills: each one costs a lease expiry.
func TestCrashRecoveryS3(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(map[bool]string{false: "straight", true: "killed"}[crash], func(t *testing.T) {
			s := s3Scenario(t, 40)
			t0 := time.Now()
			if crash {
				killed, finished := s.killLoop(t, 20, 43)
				t.Logf("%d kills, %d runs caught up before the end, %d files, done in %s", killed, finished, s.files, time.Since(t0))
			} else {
				s.catchUp(t)
			}
			s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
			s.compare(t, s.files*50*3/5)
		})
	}
}

func TestTwoProcessesRaceS3(t *testing.T) {
	race(t, s3Scenario(t, 6), 6*50*3/5)
}
