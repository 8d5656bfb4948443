package server

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSecretsNeverShown: a password given in OPTIONS or inside a URL is
// in no response of either statement endpoint, success or error, nor in
// the server's log.
func TestSecretsNeverShown(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	var logs strings.Builder
	srv, err := Open(Options{DataDir: filepath.Join(dir, "data"), Logf: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(&logs, format+"\n", args...)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(10 * time.Second)
	f := &fixture{t: t, dir: dir, srv: srv}
	f.http = newTestHTTP(t, srv)
	for _, q := range []string{
		"CREATE TABLE a (x INT) USING json LOCATION 'http://user:hunter2@host/x/'",
		"CREATE TABLE b (x INT) USING json LOCATION '" + dir + "/b/' OPTIONS (endpoint 'http://u:hunter2@127.0.0.1:1', secret_key 'hunter2', access_key 'ak')",
		"CREATE TABLE d (x INT) USING opensearch OPTIONS (endpoint 'http://u:hunter2@127.0.0.1:1', index 'i', password 'hunter2', user 'u', max_retries 0)",
		"CREATE TABLE e (x INT) USING json LOCATION '/tmp/e/' OPTIONS (secret_key 'hunter2', bogus_option 'x')",
		"CREATE TABLE e (x INT) USING json LOCATION '/tmp/e/' OPTIONS (secret_key 'hunter2' 'junk')",
		"SHOW CREATE TABLE a", "SHOW CREATE TABLE b", "SHOW CREATE TABLE d", "SHOW TABLES",
		"EXPLAIN SELECT * FROM b",
		"SELECT * FROM d",
		// The S3 client's error quotes the bucket, which here holds the userinfo.
		"CREATE TABLE c (x INT) USING json LOCATION 's3://user:hunter2@bucket/x/' OPTIONS (endpoint 'http://127.0.0.1:1', max_retries 1, retry_max_backoff '10ms', access_key 'ak', secret_key 'sk')",
		"SELECT * FROM c",
		"SET s3.secret_key = 'hunter2'", "SHOW SETTINGS",
	} {
		for _, path := range []string{"/_plugins/_sql", "/_plugins/_sql?format=csv", "/api/v1/statement"} {
			if out := f.post(path, map[string]any{"query": q}, 0); strings.Contains(string(out), "hunter2") {
				t.Errorf("%s %s answered a secret: %s", path, q, out)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(logs.String(), "hunter2") {
		t.Errorf("the log shows a secret:\n%s", logs.String())
	}
}

func newTestHTTP(t *testing.T, srv *Server) *httptest.Server {
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs
}
