package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAsyncQueryTimeout: a query the sync endpoint cuts off at
// --query-timeout (504) is cut off asynchronously too, FAILED with the
// limit named, instead of running to SUCCESS.
func TestAsyncQueryTimeout(t *testing.T) {
	f := newFixtureWith(t, 300, func(o *Options) { o.Limits.QueryTimeout = 100 * time.Millisecond })
	q := "SELECT count(*) FROM t a CROSS JOIN t b CROSS JOIN t c"
	if out := f.post("/_plugins/_sql", map[string]any{"query": q}, http.StatusGatewayTimeout); !strings.Contains(string(out), "--query-timeout") {
		t.Fatalf("sync: %s", out)
	}
	r := f.waitAsync(f.submit(q), asyncFailed)
	if !strings.Contains(r.Error, "--query-timeout") {
		t.Errorf("async query over the timeout: %s %q", r.Status, r.Error)
	}
}

// TestAsyncMaxRows: an async result over --max-rows fails (its GET
// answers every row at once, so it cannot page) and writes nothing.
func TestAsyncMaxRows(t *testing.T) {
	f := newFixtureWith(t, 10, func(o *Options) { o.Limits.MaxRows = 3 })
	id := f.submit("SELECT id FROM t")
	r := f.waitAsync(id, asyncFailed)
	if !strings.Contains(r.Error, "--max-rows") || r.Datarows != nil {
		t.Errorf("async result over max-rows: %s %q %v", r.Status, r.Error, r.Datarows)
	}
	f.noResultFile(id, 0)
	if r := f.waitAsync(f.submit("SELECT id FROM t LIMIT 3"), asyncSuccess); len(r.Datarows) != 3 {
		t.Errorf("3 rows under max-rows 3: %v", r.Datarows)
	}
}

// TestAsyncMaxResultBytes: a result larger on disk than
// --max-result-bytes fails the query and leaves no file, nor any file
// past the limit.
func TestAsyncMaxResultBytes(t *testing.T) {
	const limit = 4096
	f := newFixtureWith(t, 100, func(o *Options) { o.Limits.MaxResultBytes = limit; o.Limits.MaxRows = 100000 })
	id := f.submit("SELECT md5(concat(a.name, b.name)) AS h FROM t a CROSS JOIN t b")
	r := f.waitAsync(id, asyncFailed)
	if !strings.Contains(r.Error, "--max-result-bytes") {
		t.Errorf("async result over max-result-bytes: %s %q", r.Status, r.Error)
	}
	f.noResultFile(id, limit)
	if r := f.waitAsync(f.submit("SELECT id FROM t LIMIT 2"), asyncSuccess); len(r.Datarows) != 2 {
		t.Errorf("a small result under the limit: %v", r.Datarows)
	}
}

// noResultFile checks that query id has no result file and that no file
// in the queries folder is larger than limit (0: no check).
func (f *fixture) noResultFile(id string, limit int64) {
	f.t.Helper()
	dir := filepath.Join(f.dir, "data", "queries")
	if _, err := os.Stat(filepath.Join(dir, id+".arrow")); err == nil {
		f.t.Errorf("query %s failed but left its result file", id)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && limit > 0 && fi.Size() > limit {
			f.t.Errorf("%s is %d bytes, over the limit of %d", e.Name(), fi.Size(), limit)
		}
	}
}
