package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type asyncReply struct {
	Status string `json:"status"`
	Schema []struct {
		Name, Type string
	} `json:"schema"`
	Datarows [][]any `json:"datarows"`
	Total    *int    `json:"total"`
	Size     *int    `json:"size"`
	Error    string  `json:"error"`
	Stream   string  `json:"stream"`
}

// submit posts a query to the async API and returns its id.
func (f *fixture) submit(query string) string {
	f.t.Helper()
	return f.submitBody(map[string]any{"datasource": "sluice", "lang": "sql", "query": query})
}

// submitBody posts an async submission and returns its query id.
func (f *fixture) submitBody(body map[string]any) string {
	f.t.Helper()
	var r struct{ QueryID, SessionID string }
	if err := json.Unmarshal(f.post(AsyncQueryPath, body, http.StatusCreated), &r); err != nil {
		f.t.Fatal(err)
	}
	if r.QueryID == "" || r.SessionID == "" {
		f.t.Fatalf("submission answered queryId %q sessionId %q", r.QueryID, r.SessionID)
	}
	return r.QueryID
}

func (f *fixture) do(method, path string, status int) []byte {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.http.URL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		f.t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, status, out)
	}
	return out
}

func (f *fixture) asyncStatus(id string) asyncReply {
	f.t.Helper()
	var r asyncReply
	if err := json.Unmarshal(f.do("GET", AsyncQueryPath+"/"+id, 200), &r); err != nil {
		f.t.Fatal(err)
	}
	return r
}

// waitAsync polls until the query leaves WAITING/RUNNING or has status want.
func (f *fixture) waitAsync(id, want string) asyncReply {
	f.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var r asyncReply
	for time.Now().Before(deadline) {
		if r = f.asyncStatus(id); r.Status == want {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.t.Fatalf("query %s: status %s (%s), want %s", id, r.Status, r.Error, want)
	return r
}

// TestAsyncBatchQuery: a SELECT submitted asynchronously ends SUCCESS with
// the jdbc shapes; its result survives a restart; errors are FAILED.
func TestAsyncBatchQuery(t *testing.T) {
	f := newFixture(t, 30)
	id := f.submit("SELECT id, name FROM t WHERE id < 3 ORDER BY id")
	r := f.waitAsync(id, asyncSuccess)
	if r.Total == nil || *r.Total != 3 || *r.Size != 3 || len(r.Datarows) != 3 || r.Schema[0].Name != "id" || r.Schema[0].Type != "long" ||
		r.Datarows[2][1] != "n2" {
		t.Fatalf("SUCCESS reply: %+v", r)
	}
	failed := f.submit("SELECT nope FROM t")
	if r := f.waitAsync(failed, asyncFailed); !strings.Contains(r.Error, "nope") {
		t.Fatalf("FAILED reply: %+v", r)
	}
	f.close()
	f.open()
	if r := f.asyncStatus(id); r.Status != asyncSuccess || len(r.Datarows) != 3 || r.Datarows[0][1] != "n0" {
		t.Fatalf("after a restart: %+v", r)
	}
	if r := f.asyncStatus(failed); r.Status != asyncFailed || !strings.Contains(r.Error, "nope") {
		t.Fatalf("after a restart: %+v", r)
	}
	// Results are Arrow IPC files beside JSON records.
	if _, err := os.Stat(filepath.Join(f.dir, "data", "queries", id+".arrow")); err != nil {
		t.Fatal(err)
	}
	// Cancelling a finished query, an unknown one, bad PPL and bad SQL.
	f.do("DELETE", AsyncQueryPath+"/"+id, 400)
	f.do("GET", AsyncQueryPath+"/nosuchquery0000", 400)
	f.do("GET", AsyncQueryPath+"/..%2Fcatalog", 400)
	if out := f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "ppl", "query": "source = t | bogus"}, 400); !strings.Contains(string(out), `PPL syntax error at line 1:14: unknown command \"bogus\"`) {
		t.Fatalf("PPL: %s", out)
	}
	if out := f.post(AsyncQueryPath, map[string]any{"datasource": "sluice", "lang": "sql", "query": "SELEC 1"}, 400); !strings.Contains(string(out), "SyntaxCheckException") {
		t.Fatalf("bad SQL: %s", out)
	}
}

// TestAsyncStream: INSERT STREAM through the async API stays RUNNING
// while the stream runs, across a restart, and DELETE stops it at its
// epoch boundary (CANCELLED, not resumed after the next restart).
func TestAsyncStream(t *testing.T) {
	f := newFixture(t, 5)
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	id := f.submit("INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitAsync(id, asyncRunning)
	f.waitCount("out", 5, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // the watcher runs meanwhile
	if r := f.asyncStatus(id); r.Status != asyncRunning || r.Stream != "feed" {
		t.Fatalf("a running stream's query: %+v", r)
	}
	f.close()
	writeFile(t, filepath.Join(f.in, "part1.json"), `{"id": 100, "name": "late"}`+"\n")
	f.open()
	f.waitCount("out", 6, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	if r := f.asyncStatus(id); r.Status != asyncRunning {
		t.Fatalf("after a restart the stream's query is %+v, want RUNNING", r)
	}
	f.do("DELETE", AsyncQueryPath+"/"+id, http.StatusNoContent)
	r := f.asyncStatus(id)
	if r.Status != asyncCancelled || len(r.Datarows) != 1 || !strings.Contains(fmt.Sprint(r.Datarows[0][0]), "stream feed stopped after") {
		t.Fatalf("after DELETE: %+v", r)
	}
	if s := f.streamState("feed"); s == "running" {
		t.Fatal("DELETE left the stream running")
	}
	f.close()
	writeFile(t, filepath.Join(f.in, "part2.json"), `{"id": 200, "name": "later"}`+"\n")
	f.open()
	time.Sleep(300 * time.Millisecond)
	f.waitCount("out", 6, time.Second)
	if r := f.asyncStatus(id); r.Status != asyncCancelled {
		t.Fatalf("after a restart a cancelled query is %+v", r)
	}

	// A stream that ends by itself ends SUCCESS; a view runs until DELETE.
	once := f.submit("START STREAM feed")
	_ = once
	f.waitCount("out", 7, 10*time.Second)
	f.sql(200, "CREATE TABLE out2 (id BIGINT, name STRING) USING json LOCATION '"+f.out+"2/'")
	done := f.submit("INSERT STREAM INTO out2 SELECT id, name FROM t WITH (name = 'once', trigger = 'available_now')")
	f.waitAsync(done, asyncSuccess)
	view := f.submit("CREATE MATERIALIZED VIEW mv AS SELECT id, name FROM t WITH (auto_refresh = true, refresh_interval = '20 milliseconds')")
	f.waitAsync(view, asyncRunning)
	f.waitCount("mv", 7, 10*time.Second)
	f.do("DELETE", AsyncQueryPath+"/"+view, http.StatusNoContent)
	if r := f.asyncStatus(view); r.Status != asyncCancelled {
		t.Fatalf("a view's query after DELETE: %+v", r)
	}
	if r := f.sql(200, "SHOW MATERIALIZED VIEWS"); fmt.Sprint(r.Datarows[0][1]) != "false" {
		t.Fatalf("DELETE left the view refreshing: %v", r.Datarows)
	}

	// DELETE at once after the submission: the stream starts, then stops.
	quick := f.submit("INSERT STREAM INTO out2 SELECT id, name FROM t WITH (name = 'quick', trigger = '20 milliseconds')")
	f.do("DELETE", AsyncQueryPath+"/"+quick, http.StatusNoContent)
	time.Sleep(300 * time.Millisecond)
	if r := f.asyncStatus(quick); r.Status != asyncCancelled {
		t.Fatalf("a query deleted while starting: %+v", r)
	}
	if s := f.streamState("quick"); s == "running" {
		t.Fatal("a stream deleted while starting runs")
	}
}

// TestAsyncRetention: finished queries expire after the retention, files
// and all, at start and while the server runs; running ones stay.
func TestAsyncRetention(t *testing.T) {
	f := newFixture(t, 3)
	f.close()
	f.retention = 400 * time.Millisecond
	f.open()
	id := f.submit("SELECT count(*) FROM t")
	f.waitAsync(id, asyncSuccess)
	dir := filepath.Join(f.dir, "data", "queries")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, id+".json")); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a finished query outlived its retention")
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.do("GET", AsyncQueryPath+"/"+id, 400)
	if _, err := os.Stat(filepath.Join(dir, id+".arrow")); !os.IsNotExist(err) {
		t.Fatalf("the result of an expired query stays: %v", err)
	}

	// Swept at start: a record that expired while the server was down.
	id2 := f.submit("SELECT 1")
	f.waitAsync(id2, asyncSuccess)
	f.close()
	f.retention = time.Hour
	raw, _ := os.ReadFile(filepath.Join(dir, id2+".json"))
	var rec asyncRecord
	_ = json.Unmarshal(raw, &rec)
	rec.Finished = time.Now().Add(-2 * time.Hour)
	raw, _ = json.Marshal(rec)
	_ = os.WriteFile(filepath.Join(dir, id2+".json"), raw, 0o644)
	f.open()
	f.do("GET", AsyncQueryPath+"/"+id2, 400)
}

// TestAsyncTypeNames: the async GET names types as the plugin's async
// formatter does, for SQL and PPL alike: string, integer, long (the
// jdbc format's keyword never shows).
func TestAsyncTypeNames(t *testing.T) {
	f := newFixture(t, 3)
	for _, lang := range []string{"sql", "ppl"} {
		q := "SELECT id, name, CAST(id AS INT) AS i FROM t ORDER BY id"
		if lang == "ppl" {
			q = "source=t | sort id | eval i = CAST(id AS INT) | fields id, name, i"
		}
		r := f.waitAsync(f.submitBody(map[string]any{"datasource": "sluice", "lang": lang, "query": q}), asyncSuccess)
		var got []string
		for _, c := range r.Schema {
			got = append(got, c.Name+":"+c.Type)
		}
		if strings.Join(got, ",") != "id:long,name:string,i:integer" || len(r.Datarows) != 3 || r.Datarows[0][1] != "n0" {
			t.Fatalf("%s: schema %v, rows %v", lang, got, r.Datarows)
		}
	}
}

// TestAsyncFilterAndParameters: an async submission's filter (OpenSearch
// DSL) and parameters apply as on the sync endpoints, and are refused
// with the reason where they cannot (PPL has no ?; a statement that is
// not a query has no source to filter).
func TestAsyncFilterAndParameters(t *testing.T) {
	f := newFixture(t, 6)
	ids := func(body map[string]any) string {
		t.Helper()
		body["datasource"] = "sluice"
		r := f.waitAsync(f.submitBody(body), asyncSuccess)
		var out []string
		for _, row := range r.Datarows {
			out = append(out, fmt.Sprint(row[0]))
		}
		return strings.Join(out, ",")
	}
	filter := json.RawMessage(`{"range": {"id": {"lt": 4}}}`)
	if got := ids(map[string]any{"lang": "sql", "query": "SELECT id FROM t WHERE id > ? ORDER BY id", "filter": filter,
		"parameters": []map[string]any{{"type": "integer", "value": 1}}}); got != "2,3" {
		t.Fatalf("SQL with filter and parameters: %s", got)
	}
	if got := ids(map[string]any{"lang": "ppl", "query": "source=t | sort id | fields id", "filter": filter}); got != "0,1,2,3" {
		t.Fatalf("PPL with filter: %s", got)
	}
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"lang": "ppl", "query": "source=t", "parameters": []map[string]any{{"type": "integer", "value": 1}}}, "PPL has none"},
		{map[string]any{"lang": "sql", "query": "SELECT id FROM t WHERE id = ?"}, "unexpected character '?'"},
		{map[string]any{"lang": "sql", "query": "SELECT ?", "parameters": []map[string]any{{"type": "integer", "value": "x"}}}, "is not an integer"},
		{map[string]any{"lang": "sql", "query": "SHOW TABLES", "filter": filter}, "filter: applies to a query's source table"},
		{map[string]any{"lang": "sql", "query": "SELECT 1", "filter": json.RawMessage(`{"fuzzy": {"id": 1}}`)}, "fuzzy"},
		{map[string]any{"lang": "sql", "query": "SELECT 1", "parameters": 3}, "parameters must be a list"},
	} {
		c.body["datasource"] = "sluice"
		if out := f.post(AsyncQueryPath, c.body, http.StatusBadRequest); !strings.Contains(string(out), c.want) {
			t.Fatalf("%v: %s, want %q", c.body, out, c.want)
		}
	}
}
