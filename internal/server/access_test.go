package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadUserFiles: a read user reaches data through catalog tables and
// --allow-location prefixes only. Reading the catalog (with its tables'
// credentials), the users file, /etc/passwd or an s3:// path with the
// server's credentials directly is a 403 naming the rule, refused before
// any S3 request is made.
func TestReadUserFiles(t *testing.T) {
	var s3Hits atomic.Int64
	fakeS3 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s3Hits.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	defer fakeS3.Close()
	t.Setenv("AWS_ENDPOINT_URL", fakeS3.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", "server-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "server-secret")
	t.Setenv("AWS_REGION", "us-east-1")

	shared := filepath.Join(t.TempDir(), "shared")
	writeFile(t, filepath.Join(shared, "a.json"), `{"x": 1}`+"\n")
	f := newAuthFixture(t, func(o *Options) { o.Security.AllowLocations = []string{shared} })
	data := filepath.Join(f.dir, "data")

	for _, who := range [][2]string{{"bob", "bob-pw"}, {"Bearer " + f.readTok, ""}, {"wendy", "wendy-pw"}} {
		for _, path := range []string{"/_plugins/_sql", "/api/v1/statement"} {
			for target, q := range map[string]string{
				"csv.`" + filepath.Join(data, "catalog.json") + "`": "SELECT * FROM csv.`" + filepath.Join(data, "catalog.json") + "`",
				"csv.`" + filepath.Join(data, "secrets.json") + "`": "SELECT * FROM csv.`" + filepath.Join(data, "secrets.json") + "`",
				"csv.`" + filepath.Join(f.dir, "users") + "`":       "SELECT * FROM csv.`" + filepath.Join(f.dir, "users") + "`",
				"csv.`/etc/passwd`":                "SELECT * FROM csv.`/etc/passwd`",
				"json.`s3://bucket/logs/`":         "SELECT * FROM json.`s3://bucket/logs/`",
				"json.`" + shared + "/../../data`": "SELECT count(*) FROM json.`" + shared + "/../../data`",
			} {
				body := string(f.do(403, path, who[0], who[1], q))
				if !strings.Contains(body, "SecurityException") || !strings.Contains(body, "may read files only through catalog tables or --allow-location prefixes; "+target+" is neither") {
					t.Errorf("%s as %s: %s", q, who[0], body)
				}
				if strings.Contains(body, "bcrypt") || strings.Contains(body, "root:") {
					t.Errorf("%s as %s leaks the file: %s", q, who[0], body)
				}
			}
		}
	}
	// USE and SHOW DATABASES are a read user's: USE moves only its own
	// session.
	f.do(200, "/_plugins/_sql", "bob", "bob-pw", "USE default")
	f.do(200, "/_plugins/_sql", "bob", "bob-pw", "SHOW DATABASES")
	f.do(403, "/_plugins/_sql", "bob", "bob-pw", "CREATE DATABASE bobs")

	// An async query is refused when it runs: its status says why.
	var sub struct{ QueryID string }
	if err := json.Unmarshal(f.do(201, AsyncQueryPath, "bob", "bob-pw", "SELECT * FROM json.`s3://bucket/logs/`"), &sub); err != nil {
		t.Fatal(err)
	}
	var st asyncReply
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, f.url+AsyncQueryPath+"/"+sub.QueryID, nil)
		req.SetBasicAuth("bob", "bob-pw")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil || st.Status != "WAITING" && st.Status != "RUNNING" {
			break
		}
	}
	if st.Status != "FAILED" || !strings.Contains(st.Error, "may read files only through catalog tables") {
		t.Errorf("async s3:// read as bob: %s %q", st.Status, st.Error)
	}
	if n := s3Hits.Load(); n != 0 {
		t.Errorf("the refused s3:// reads made %d S3 requests", n)
	}
	body := string(f.do(403, "/_plugins/_sql", "bob", "bob-pw", "SELECT * FROM csv.`/etc/passwd`"))
	if !strings.Contains(body, "user bob (role read) may read files") {
		t.Errorf("the refusal does not name bob and his role: %s", body)
	}

	// Catalog tables and the allowed location still read.
	if out := f.do(200, "/_plugins/_sql?format=csv", "bob", "bob-pw", "SELECT count(*) AS n FROM t"); strings.TrimSpace(string(out)) != "n\n10" {
		t.Errorf("catalog table as bob: %q", out)
	}
	if out := f.do(200, "/_plugins/_sql?format=csv", "bob", "bob-pw", "SELECT x FROM json.`"+shared+"/a.json`"); strings.TrimSpace(string(out)) != "x\n1" {
		t.Errorf("allowed location as bob: %q", out)
	}
	// The admin is not restricted.
	if out := f.do(200, "/_plugins/_sql?format=csv", "alice", "alice-pw", "SELECT count(*) AS n FROM csv.`/etc/passwd`"); !strings.HasPrefix(string(out), "n\n") {
		t.Errorf("/etc/passwd as alice: %q", out)
	}
}

// TestWriteUser: a write user inserts into existing tables and runs
// streams on them, with their checkpoints under the data dir or an
// allowed location only; DDL and SET stay admin's.
func TestWriteUser(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	f := newAuthFixture(t, func(o *Options) { o.Security.AllowLocations = []string{shared} })
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+filepath.Join(f.dir, "out")+"/'")

	f.do(200, "/_plugins/_sql", "wendy", "wendy-pw", "INSERT INTO t VALUES (10, 'w')")
	if out := f.do(200, "/_plugins/_sql?format=csv", "wendy", "wendy-pw", "SELECT count(*) AS n FROM t"); strings.TrimSpace(string(out)) != "n\n11" {
		t.Errorf("count after wendy's INSERT: %q", out)
	}
	f.do(200, "/_plugins/_sql", "wendy", "wendy-pw", "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.do(200, "/_plugins/_sql", "wendy", "wendy-pw", "STOP STREAM feed")
	f.do(403, APIStreamsPath+"/feed/start", "bob", "bob-pw", "")
	f.do(200, APIStreamsPath+"/feed/start", "wendy", "wendy-pw", "")
	f.do(200, APIStreamsPath+"/feed/stop", "wendy", "wendy-pw", "")
	f.do(200, "/_plugins/_sql", "wendy", "wendy-pw", "START STREAM feed")
	f.do(200, "/_plugins/_sql", "wendy", "wendy-pw", "STOP STREAM feed")
	f.do(200, "/_plugins/_sql", "wendy", "wendy-pw", "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'mine', trigger = 'available_now', checkpoint_location = '"+filepath.Join(shared, "cp")+"')")

	outside := filepath.Join(f.dir, "elsewhere")
	for q, want := range map[string]string{
		"CREATE TABLE u (x INT) USING json LOCATION '" + f.dir + "/u/'": "needs role admin",
		"DROP TABLE out":                 "needs role admin",
		"SET s3.endpoint = 'http://x:1'": "needs role admin",
		"CREATE MATERIALIZED VIEW v AS SELECT name, count(*) AS n FROM t GROUP BY name":                              "needs role admin",
		"INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'cp', checkpoint_location = '" + outside + "')":  "user wendy (role write) may set checkpoint_location only under the data dir's checkpoints/ or --allow-location prefixes",
		"INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'cp', checkpoint_location = '/etc/sluice-cp')":   "may set checkpoint_location only",
		"INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'dl', dead_letter_location = '" + outside + "')": "may set dead_letter_location only",
		"INSERT INTO out SELECT id, name FROM json.`" + filepath.Join(f.dir, "in") + "`":                             "may read files only through catalog tables",
	} {
		if body := string(f.do(403, "/_plugins/_sql", "wendy", "wendy-pw", q)); !strings.Contains(body, want) {
			t.Errorf("%s as wendy: %s, want %q", q, body, want)
		}
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("a refused checkpoint location was created")
	}
	if out := f.do(200, "/_plugins/_sql?format=csv", "alice", "alice-pw", "SHOW STREAMS"); strings.Contains(string(out), "cp,") || strings.Contains(string(out), "dl,") {
		t.Errorf("a refused stream was kept: %s", out)
	}
	// The admin may checkpoint anywhere.
	f.do(200, "/_plugins/_sql", "alice", "alice-pw", "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'anywhere', trigger = 'available_now', checkpoint_location = '"+outside+"')")
}
