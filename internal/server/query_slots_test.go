package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConcurrentQueriesLimit: with --max-concurrent-queries 1 and one
// query running (an async one, holding its slot until it ends), every
// query path answers 429 with Retry-After instead of piling up, while a
// background stream keeps committing epochs (streams never wait for an
// API query); once the query ends, queries run again.
func TestConcurrentQueriesLimit(t *testing.T) {
	f := newFixtureWith(t, 300, func(o *Options) { o.Limits.MaxConcurrentQueries = 1 })
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitStream("feed", 10*time.Second, func(s StreamJSON) bool { return s.RowsOut == 300 })

	slow := f.submit("SELECT count(*) FROM t a CROSS JOIN t b CROSS JOIN t c")
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

	f.do("DELETE", AsyncQueryPath+"/"+slow, http.StatusNoContent)
	f.waitAsync(slow, asyncCancelled)
	// The slot is free once the cancelled query has really stopped.
	deadline := time.Now().Add(30 * time.Second)
	for {
		raw, _ := json.Marshal(map[string]any{"query": "SELECT 1"})
		resp, err := http.Post(f.http.URL+"/_plugins/_sql", "application/json", bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the query ended: %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
