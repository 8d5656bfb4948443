package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConcurrentQueriesLimit: with --max-concurrent-queries 1 and one
// query in flight (a request whose body is still arriving: it holds its
// slot from the start), every query path answers 429 with Retry-After
// instead of piling up, while a background stream keeps committing
// epochs (streams never wait for an API query); once that query ends,
// queries run again.
func TestConcurrentQueriesLimit(t *testing.T) {
	f := newFixtureWith(t, 300, func(o *Options) { o.Limits.MaxConcurrentQueries = 1 })
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.RowsOut == 300 })

	pr, pw := io.Pipe()
	held := make(chan int, 1)
	go func() {
		resp, err := http.Post(f.http.URL+"/_plugins/_sql", "application/json", pr)
		if err != nil {
			held <- 0
			return
		}
		resp.Body.Close()
		held <- resp.StatusCode
	}()
	_, _ = pw.Write([]byte(`{"query": `))
	for deadline := time.Now().Add(10 * time.Second); len(f.srv.queries) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the slow request never took its query slot")
		}
	}
	for path, body := range map[string]map[string]any{
		"/_plugins/_sql":            {"query": "SELECT 1"},
		"/_plugins/_sql?format=csv": {"query": "SELECT 1"},
		"/_plugins/_ppl":            {"query": "source=t | head 1"},
		APIStatementPath:            {"query": "SELECT 1"},
		AsyncQueryPath:              {"datasource": "sluice", "lang": "sql", "query": "SELECT 1"},
	} {
		raw, _ := json.Marshal(body)
		resp, err := http.Post(f.http.URL+path, "application/json", bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		var out errorBody
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" ||
			!strings.Contains(out.Error.Details, "--max-concurrent-queries") {
			t.Errorf("%s while the one query slot is taken: %d Retry-After %q %+v", path, resp.StatusCode, resp.Header.Get("Retry-After"), out)
		}
	}

	// The stream is not held up by the full query slots.
	writeFile(t, filepath.Join(f.in, "more.json"), `{"id": 1000, "name": "x", "note": "", "neg": ""}`+"\n")
	f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.RowsOut == 301 })

	_, _ = pw.Write([]byte(`"SELECT 1"}`))
	pw.Close()
	if st := <-held; st != 200 {
		t.Fatalf("the slow request: %d", st)
	}
	f.sql(200, "SELECT 1")
	// An async query holds its slot until it ends, and gives it back
	// (just after its status reads SUCCESS).
	f.waitAsync(f.submit("SELECT 1"), asyncSuccess)
	for deadline := time.Now().Add(10 * time.Second); len(f.srv.queries) > 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("an async query that ended kept its query slot")
		}
	}
}
