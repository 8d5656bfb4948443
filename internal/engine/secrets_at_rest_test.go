package engine

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/streams"
	"sluice/internal/usererr"
)

// TestSecretsNotInCatalogJSON: a table's password and the password of a
// URL in its options are not in catalog.json but in secrets.json (mode
// 0600); SHOW CREATE TABLE shows them as ***; an engine opened again on
// the data dir hands the connector the password as written, so it still
// logs in.
func TestSecretsNotInCatalogJSON(t *testing.T) {
	t.Setenv("SLUICE_TEST_SECRET", "from-the-env")
	var mu sync.Mutex
	var auths []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized) // not retried
	}))
	defer fake.Close()
	data := filepath.Join(t.TempDir(), "data")
	eng, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE os (k STRING) USING opensearch OPTIONS (endpoint '"+fake.URL+"', index 'i', user 'admin', password 'hunter2', retry_max_time '1ms')",
		"CREATE TABLE s3t (k STRING) USING json LOCATION 's3://bucket/p/' OPTIONS (endpoint 'http://key:S3UrlPw5@127.0.0.1:1')",
		"CREATE TABLE loc (k STRING) USING json LOCATION '"+t.TempDir()+"' OPTIONS (access_key 'AKIDTEST', secret_key '${env:SLUICE_TEST_SECRET}')",
	)
	cat, err := os.ReadFile(filepath.Join(data, catalog.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"hunter2", "S3UrlPw5"} {
		if strings.Contains(string(cat), pw) {
			t.Errorf("catalog.json holds %q:\n%s", pw, cat)
		}
	}
	if !strings.Contains(string(cat), "${env:SLUICE_TEST_SECRET}") {
		t.Errorf("catalog.json should keep the ${env:} reference:\n%s", cat)
	}
	fi, err := os.Stat(filepath.Join(data, catalog.SecretsFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("secrets.json mode %o, want 600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(filepath.Join(data, catalog.SecretsFile)); !strings.Contains(string(b), "hunter2") {
		t.Errorf("secrets.json lacks the password:\n%s", b)
	}
	eng.Close()

	eng2, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer eng2.Close()
	show := strings.Join(rowsOf(t, mustExec(t, eng2, "SHOW CREATE TABLE os")), "\n") +
		strings.Join(rowsOf(t, mustExec(t, eng2, "SHOW CREATE TABLE s3t")), "\n")
	if strings.Contains(show, "hunter2") || strings.Contains(show, "S3UrlPw5") || strings.Contains(show, "${secret:") ||
		!strings.Contains(show, "'***'") || !strings.Contains(show, "http://key:***@127.0.0.1:1") {
		t.Errorf("SHOW CREATE TABLE:\n%s", show)
	}
	if _, err := eng2.Execute(t.Context(), "SELECT * FROM os"); err == nil {
		t.Fatal("SELECT from the fake server that refuses everything succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:hunter2"))
	if len(auths) == 0 || auths[0] != want {
		t.Fatalf("the connector sent %q, want %q", auths, want)
	}
}

// TestRestrictedSessionCannotReadSecrets: a restricted session reads
// neither secrets.json nor catalog.json, not even when an allowed prefix
// holds the data dir, nor the data dir whole, nor a pattern over it; a
// table cannot be put there either.
func TestRestrictedSessionCannotReadSecrets(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	eng, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	mustExec(t, eng, "CREATE TABLE os (k STRING) USING opensearch OPTIONS (endpoint 'http://127.0.0.1:1', index 'i', password 'hunter2')")
	secrets := filepath.Join(data, catalog.SecretsFile)
	for _, allowed := range [][]string{nil, {root}} {
		ls, err := ParseLocations(allowed)
		if err != nil {
			t.Fatal(err)
		}
		s := eng.NewSession("bob")
		s.RestrictData("user bob (role read)", ls)
		qs := []string{
			"SELECT * FROM csv.`" + secrets + "`",
			"SELECT * FROM json.`" + filepath.Join(data, catalog.FileName) + "`",
			"SELECT * FROM csv.`file://" + secrets + "`",
			"SELECT * FROM csv.`" + data + "/checkpoints/../" + catalog.SecretsFile + "`",
		}
		if allowed != nil {
			qs = append(qs,
				"SELECT * FROM csv.`"+data+"`",
				"SELECT * FROM csv.`"+root+"`",
				"SELECT * FROM csv.`"+data+"/*.json`",
				"SELECT * FROM csv.`"+data+"/secret?.json`",
				"CREATE TABLE peek USING csv LOCATION '"+data+"'",
			)
		}
		for _, q := range qs {
			res, err := s.Execute(t.Context(), q)
			if k, _ := usererr.KindOf(err); k != usererr.Forbidden {
				t.Errorf("allowed %v: %s: err = %v, want Forbidden", allowed, q, err)
			}
			for _, r := range res {
				if strings.Contains(strings.Join(rowsOf(t, r), "\n"), "hunter2") {
					t.Errorf("%s shows the password", q)
				}
			}
		}
	}
}

// TestStreamSecretsNotInCatalogJSON: a stream's definition keeps its
// WITH options in the catalog; the password of its queue's URL is in
// secrets.json, not catalog.json, and the definition read back has it.
func TestStreamSecretsNotInCatalogJSON(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there: the stream retries until cancelled
	data := filepath.Join(dir, "data")
	eng, err := Open(Options{DataDir: data, RetryInitial: 20 * time.Millisecond, RetryMax: 100 * time.Millisecond, Warn: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	mustExec(t, eng, "CREATE TABLE src (id BIGINT) USING json LOCATION '"+in+"/'")
	mustExec(t, eng, "CREATE TABLE out (id BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'")
	queueURL := "nats://sluice:QueuePw3@127.0.0.1:" + strconv.Itoa(port) + "/s3events/feed"
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = eng.Execute(ctx, "INSERT STREAM INTO out SELECT id FROM src WITH (name = 'feed', trigger = '50 milliseconds', "+
			"discovery = 'notifications', queue = '"+queueURL+"', checkpoint_location = '"+filepath.Join(dir, "cp")+"')")
	}()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err = eng.catalog.Object("stream", "feed"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream was not stored: %v", err)
		}
	}
	cat, err := os.ReadFile(filepath.Join(data, catalog.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cat), "QueuePw3") || !strings.Contains(string(cat), `${secret:object/stream/feed/options/options/queue}`) {
		t.Errorf("catalog.json:\n%s", cat)
	}
	if b, _ := os.ReadFile(filepath.Join(data, catalog.SecretsFile)); !strings.Contains(string(b), queueURL) {
		t.Errorf("secrets.json lacks the queue:\n%s", b)
	}
	again, err := catalog.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	o2, err := again.Object("stream", "feed")
	if err != nil {
		t.Fatal(err)
	}
	var spec streams.Spec
	if err := json.Unmarshal(o2.Options, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Options["queue"] != queueURL || spec.Table != "out" {
		t.Errorf("stored stream read back: %s", o2.Options)
	}
}

// TestSecretsMigratedOnOpen: a data dir whose catalog.json an earlier
// build wrote, with an OpenSearch table's password in it, has the
// password moved to secrets.json when the engine opens it; the table
// still logs in with it.
func TestSecretsMigratedOnOpen(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized) // not retried
	}))
	defer fake.Close()
	data := filepath.Join(t.TempDir(), "data")
	old := `{"version": 1, "tables": [{"name": "os", "using": "opensearch",
	  "options": {"endpoint": "` + fake.URL + `", "index": "i", "user": "admin", "password": "hunter2"},
	  "schema": [{"name": "k", "type": {"kind": "string"}, "nullable": true}], "created": "2026-01-01T00:00:00Z"}]}`
	writeFile(t, filepath.Join(data, catalog.FileName), old)
	eng, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	cat, err := os.ReadFile(filepath.Join(data, catalog.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cat), "hunter2") || !strings.Contains(string(cat), "${secret:table/os/options/password}") {
		t.Errorf("catalog.json after the migration:\n%s", cat)
	}
	if b, _ := os.ReadFile(filepath.Join(data, catalog.SecretsFile)); !strings.Contains(string(b), "hunter2") {
		t.Errorf("secrets.json lacks the password:\n%s", b)
	}
	if _, err := eng.Execute(t.Context(), "SELECT * FROM os"); err == nil {
		t.Fatal("SELECT from the fake server that refuses everything succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:hunter2"))
	if len(auths) == 0 || auths[0] != want {
		t.Fatalf("the connector sent %q, want %q", auths, want)
	}
}
