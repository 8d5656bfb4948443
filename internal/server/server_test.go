package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixture is a server over a fresh data dir with a table t of n rows
// (id 0..n-1, name "n<id>", and a note that needs CSV quoting).
type fixture struct {
	t       *testing.T
	dir     string
	srv     *Server
	http    *httptest.Server
	in, out string
	// retention is the servers' QueryRetention (0: the default).
	retention time.Duration
	// opts, when set, adjusts the Options open uses.
	opts func(*Options)
}

func newFixture(t *testing.T, rows int) *fixture {
	t.Helper()
	return newFixtureWith(t, rows, nil)
}

// newFixtureWith is newFixture with Options adjusted by opts.
func newFixtureWith(t *testing.T, rows int, opts func(*Options)) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{t: t, dir: dir, in: filepath.Join(dir, "in"), out: filepath.Join(dir, "out"), opts: opts}
	var b strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, `{"id": %d, "name": "n%d", "note": "a,b \"q\"", "neg": "-%d"}`+"\n", i, i, i)
	}
	writeFile(t, filepath.Join(f.in, "part0.json"), b.String())
	f.open()
	f.sql(200, "CREATE TABLE t (id BIGINT, name STRING, note STRING, neg STRING) USING json LOCATION '"+f.in+"/'")
	return f
}

func (f *fixture) open() {
	f.t.Helper()
	o := Options{DataDir: filepath.Join(f.dir, "data"), MaxConcurrentEpochs: 2, Logf: f.t.Logf, QueryRetention: f.retention}
	if f.opts != nil {
		f.opts(&o)
	}
	srv, err := Open(o)
	if err != nil {
		f.t.Fatal(err)
	}
	f.srv = srv
	f.http = httptest.NewServer(srv.Handler())
	f.t.Cleanup(f.close)
}

func (f *fixture) close() {
	if f.srv == nil {
		return
	}
	f.http.Close()
	if err := f.srv.Close(10 * time.Second); err != nil {
		f.t.Error(err)
	}
	f.srv = nil
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// Written under a hidden name and renamed, as an object lands whole
	// in a store: a query listing the directory meanwhile never reads a
	// file half written (it would fail with storage.ErrChanged).
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// post sends body to path and checks the status; it returns the body.
func (f *fixture) post(path string, body any, status int) []byte {
	f.t.Helper()
	raw, _ := json.Marshal(body)
	resp, err := http.Post(f.http.URL+path, "application/json", bytes.NewReader(raw))
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if status != 0 && resp.StatusCode != status {
		f.t.Fatalf("POST %s %s: status %d, want %d: %s", path, raw, resp.StatusCode, status, out)
	}
	return out
}

// sql runs a query in the jdbc format and decodes the response.
func (f *fixture) sql(status int, query string) jdbcReply {
	f.t.Helper()
	var r jdbcReply
	if err := json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": query}, status), &r); err != nil {
		f.t.Fatal(err)
	}
	return r
}

type jdbcReply struct {
	Schema []struct {
		Name, Type string
	}
	Datarows [][]any
	Total    int
	Size     int
	Status   int
	Cursor   string
	Error    *errorInfo
}

func TestJDBCFormat(t *testing.T) {
	f := newFixture(t, 3)
	r := f.sql(200, "SELECT id, name, id > 0 AS pos, CAST(id AS DOUBLE) AS d, TIMESTAMP '2026-11-30 12:00:00' AS ts FROM t ORDER BY id")
	got, _ := json.Marshal(r.Schema)
	want := `[{"Name":"id","Type":"long"},{"Name":"name","Type":"keyword"},{"Name":"pos","Type":"boolean"},{"Name":"d","Type":"double"},{"Name":"ts","Type":"timestamp"}]`
	if string(got) != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	rows, _ := json.Marshal(r.Datarows)
	if want := `[[0,"n0",false,0,"2026-11-30 12:00:00"],[1,"n1",true,1,"2026-11-30 12:00:00"],[2,"n2",true,2,"2026-11-30 12:00:00"]]`; string(rows) != want {
		t.Errorf("datarows %s, want %s", rows, want)
	}
	if r.Total != 3 || r.Size != 3 || r.Status != 200 || r.Cursor != "" {
		t.Errorf("total %d size %d status %d cursor %q", r.Total, r.Size, r.Status, r.Cursor)
	}
	// The trailing-slash path the OpenSearch SQL CLI posts to works too.
	var r2 jdbcReply
	_ = json.Unmarshal(f.post("/_plugins/_sql/?format=jdbc", map[string]any{"query": "SELECT count(*) AS n FROM t;"}, 200), &r2)
	if len(r2.Datarows) != 1 || r2.Datarows[0][0] != float64(3) {
		t.Errorf("count over /_plugins/_sql/: %+v", r2)
	}
}

func TestJSONFormat(t *testing.T) {
	f := newFixture(t, 2)
	out := f.post("/_plugins/_sql?format=json", map[string]any{"query": "SELECT id, name FROM t ORDER BY id"}, 200)
	want := `{"schema":[{"name":"id","type":"long"},{"name":"name","type":"string"}],"datarows":[[0,"n0"],[1,"n1"]],"total":2,"size":2}`
	if strings.TrimSpace(string(out)) != want {
		t.Errorf("got %s\nwant %s", out, want)
	}
}

func TestCSVAndRawFormats(t *testing.T) {
	f := newFixture(t, 2)
	q := map[string]any{"query": "SELECT id, note, neg, CAST(NULL AS STRING) AS nothing FROM t ORDER BY id"}
	for _, tt := range []struct{ url, want string }{
		{"/_plugins/_sql?format=csv", "id,note,neg,nothing\n0,\"a,b \"\"q\"\"\",'-0,\n1,\"a,b \"\"q\"\"\",'-1,"},
		{"/_plugins/_sql?format=csv&sanitize=false", "id,note,neg,nothing\n0,\"a,b \"\"q\"\"\",-0,\n1,\"a,b \"\"q\"\"\",-1,"},
		{"/_plugins/_sql?format=raw", "id|note|neg|nothing\n0|\"a,b \"\"q\"\"\"|-0|\n1|\"a,b \"\"q\"\"\"|-1|"},
	} {
		if got := string(f.post(tt.url, q, 200)); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.url, got, tt.want)
		}
	}
}

func TestCursorPaging(t *testing.T) {
	f := newFixture(t, 7)
	var r jdbcReply
	_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": "SELECT id FROM t ORDER BY id", "fetch_size": 3}, 200), &r)
	var ids []any
	pages := 0
	for {
		pages++
		if len(r.Schema) != 1 || r.Schema[0].Name != "id" || r.Total != 7 || r.Size != len(r.Datarows) {
			t.Fatalf("page %d: %+v", pages, r)
		}
		for _, row := range r.Datarows {
			ids = append(ids, row[0])
		}
		if r.Cursor == "" {
			break
		}
		prev := r.Cursor
		r = jdbcReply{}
		_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"cursor": prev}, 200), &r)
		// A cursor is good for one page: asking again fails instead of
		// skipping rows.
		f.post("/_plugins/_sql", map[string]any{"cursor": prev}, 400)
	}
	if got := fmt.Sprint(ids); pages != 3 || got != "[0 1 2 3 4 5 6]" {
		t.Fatalf("%d pages, ids %s", pages, got)
	}

	// Closing a cursor ends it.
	r = jdbcReply{}
	_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": "SELECT id FROM t", "fetch_size": 2}, 200), &r)
	if r.Cursor == "" || len(r.Datarows) != 2 {
		t.Fatalf("want a first page of 2 and a cursor: %+v", r)
	}
	if got := string(f.post("/_plugins/_sql/close", map[string]any{"cursor": r.Cursor}, 200)); strings.TrimSpace(got) != `{"succeeded":true}` {
		t.Fatalf("close: %s", got)
	}
	f.post("/_plugins/_sql", map[string]any{"cursor": r.Cursor}, 400)
	f.post("/_plugins/_sql/close", map[string]any{"cursor": r.Cursor}, 400)

	// fetch_size of the whole result or more: no cursor.
	r = jdbcReply{}
	_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": "SELECT id FROM t", "fetch_size": 7}, 200), &r)
	if r.Cursor != "" || r.Size != 7 {
		t.Fatalf("fetch_size 7 of 7 rows: %+v", r)
	}
}

func TestErrors(t *testing.T) {
	f := newFixture(t, 1)
	for _, tt := range []struct {
		query, typ, details string
		status              int
	}{
		{"SELEC id FROM t", "SyntaxCheckException", "line 1:1", 400},
		{"SELECT nope FROM t", "SemanticCheckException", "line 1:8", 400},
		{"SELECT * FROM missing", "IndexNotFoundException", "no such index [missing]", 404},
		{"CREATE TABLE t (id BIGINT) USING json LOCATION '" + f.in + "/'", "IllegalArgumentException", "already exists", 400},
	} {
		r := f.sql(tt.status, tt.query)
		if r.Error == nil || r.Status != tt.status || r.Error.Type != tt.typ || !strings.Contains(r.Error.Details, tt.details) || r.Error.Reason == "" {
			t.Errorf("%s: %+v %+v", tt.query, r, r.Error)
		}
	}
	// A failure while running is a 500: a Parquet file that is not one.
	pq := filepath.Join(f.dir, "pq")
	writeFile(t, filepath.Join(pq, "bad.parquet"), "this is not parquet")
	f.sql(200, "CREATE TABLE p (id BIGINT) USING parquet LOCATION '"+pq+"/'")
	if r := f.sql(500, "SELECT id FROM p"); r.Error == nil || r.Status != 500 {
		t.Errorf("broken file: %+v", r)
	}
	f.post("/_plugins/_sql", "not an object", 400)
	f.post("/_plugins/_sql?format=yaml", map[string]any{"query": "SELECT 1"}, 400)
	f.post("/_plugins/_sql", map[string]any{"query": "SELECT 1", "fetch_size": "x"}, 400)
}

func TestExplain(t *testing.T) {
	f := newFixture(t, 1)
	var r struct{ Plan []string }
	// plan: Sluice's lines as they are, beside the plugin's shapes (TestExplainShape).
	_ = json.Unmarshal(f.post("/_plugins/_sql/_explain", map[string]any{"query": "SELECT id FROM t WHERE id > 3"}, 200), &r)
	text := strings.Join(r.Plan, "\n")
	if !strings.Contains(text, "Scan") || !strings.Contains(text, "id > 3") {
		t.Fatalf("plan: %s", text)
	}
	f.post("/_plugins/_sql/_explain", map[string]any{"query": "SELECT x FROM t"}, 400)
}

func TestClusterEndpoints(t *testing.T) {
	f := newFixture(t, 1)
	get := func(path string) string {
		resp, err := http.Get(f.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	if s := get("/_cat/plugins?s=component&v=true"); !strings.Contains(s, "opensearch-sql") {
		t.Errorf("_cat/plugins: %s", s)
	}
	var info struct{ Version struct{ Number string } }
	_ = json.Unmarshal([]byte(get("/")), &info)
	if info.Version.Number == "" {
		t.Errorf("GET / has no version.number")
	}
	if s := get("/_alias"); !strings.Contains(s, `"t":`) {
		t.Errorf("_alias: %s", s)
	}
}

func TestDataDirLock(t *testing.T) {
	f := newFixture(t, 1)
	_, err := Open(Options{DataDir: filepath.Join(f.dir, "data")})
	if !errors.Is(err, ErrDataDirInUse) || !strings.Contains(err.Error(), "held by sluice serve pid") {
		t.Fatalf("second server on one data dir: %v", err)
	}
	f.close()
	f.open() // released by Close
}

func TestJDBCNestedTypes(t *testing.T) {
	f := newFixture(t, 1)
	r := f.sql(200, "SELECT array(id, id) AS a, named_struct('k', name) AS s, CAST(id AS INT) AS i, DATE '2026-11-30' AS d FROM t")
	got, _ := json.Marshal(r.Schema)
	if want := `[{"Name":"a","Type":"nested"},{"Name":"s","Type":"object"},{"Name":"i","Type":"integer"},{"Name":"d","Type":"date"}]`; string(got) != want {
		t.Errorf("schema %s, want %s", got, want)
	}
	rows, _ := json.Marshal(r.Datarows)
	if want := `[[[0,0],{"k":"n0"},0,"2026-11-30"]]`; string(rows) != want {
		t.Errorf("datarows %s, want %s", rows, want)
	}
}
