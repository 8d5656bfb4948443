package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sluice/internal/engine"
)

// TestCursorStreams: a large SELECT paged with a small fetch_size is read
// as the pages are asked for, not materialized: after the first page the
// query has read a few of its files; paging on yields every row exactly
// once; an idle cursor expires and a closed one ends its query.
func TestCursorStreams(t *testing.T) {
	const files, perFile, fetch = 120, 25, 40
	var filesRead atomic.Int64
	f := newFixtureWith(t, 1, func(o *Options) {
		o.Engine.Parallelism = 2
		o.Engine.Progress = func(p engine.Progress) { filesRead.Store(int64(p.FilesDone)) }
	})
	big := filepath.Join(f.dir, "big")
	for i := 0; i < files; i++ {
		var b strings.Builder
		for j := 0; j < perFile; j++ {
			fmt.Fprintf(&b, `{"id": %d}`+"\n", i*perFile+j)
		}
		writeFile(t, filepath.Join(big, fmt.Sprintf("f%03d.json", i)), b.String())
	}
	f.sql(200, "CREATE TABLE big (id BIGINT) USING json LOCATION '"+big+"/'")

	var r jdbcReply
	_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": "SELECT id FROM big", "fetch_size": fetch}, 200), &r)
	time.Sleep(300 * time.Millisecond) // an eager query would run on meanwhile
	if n := filesRead.Load(); n > 20 {
		t.Errorf("after the first page the query read %d of %d files: the cursor does not stream", n, files)
	}
	seen := make([]int, files*perFile)
	pages := 0
	for {
		pages++
		if r.Size != len(r.Datarows) || r.Size > fetch || (r.Cursor != "" && r.Size != fetch) {
			t.Fatalf("page %d: size %d, %d rows, cursor %q", pages, r.Size, len(r.Datarows), r.Cursor)
		}
		for _, row := range r.Datarows {
			seen[int(row[0].(float64))]++
		}
		if r.Cursor == "" {
			break
		}
		if r.Total < pages*fetch {
			t.Fatalf("page %d: total %d is under the rows already served", pages, r.Total)
		}
		next := r.Cursor
		r = jdbcReply{}
		_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"cursor": next}, 200), &r)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("id %d came %d times", id, n)
		}
	}
	if r.Total != files*perFile || pages != files*perFile/fetch {
		t.Errorf("last page: total %d over %d pages, want %d over %d", r.Total, pages, files*perFile, files*perFile/fetch)
	}
	if n := f.srv.cursors.openCount(); n != 0 {
		t.Errorf("%d cursors open after the last page", n)
	}

	// Close ends the query; an idle cursor expires.
	for _, how := range []string{"close", "idle"} {
		r = jdbcReply{}
		_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"query": "SELECT id FROM big", "fetch_size": fetch}, 200), &r)
		if r.Cursor == "" || f.srv.cursors.openCount() != 1 {
			t.Fatalf("%s: want one open cursor: %+v", how, r)
		}
		if how == "close" {
			f.post("/_plugins/_sql/close", map[string]any{"cursor": r.Cursor}, 200)
		} else {
			f.srv.cursors.now = func() time.Time { return time.Now().Add(cursorIdle + time.Minute) }
			f.srv.cursors.expire()
			f.srv.cursors.now = time.Now
		}
		if n := f.srv.cursors.openCount(); n != 0 {
			t.Errorf("%s: %d cursors open", how, n)
		}
		f.post("/_plugins/_sql", map[string]any{"cursor": r.Cursor}, 400)
	}
}

// TestCursorQueryError: a query that fails on a later page answers that
// page with the error, and its cursor is gone.
func TestCursorQueryError(t *testing.T) {
	f := newFixture(t, 1)
	dir := filepath.Join(f.dir, "mixed")
	var b strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, `{"v": "%d"}`+"\n", i)
	}
	writeFile(t, filepath.Join(dir, "a.json"), b.String())
	writeFile(t, filepath.Join(dir, "b.json"), `{"v": "x"}`+"\n")
	f.sql(200, "CREATE TABLE mixed (v STRING) USING json LOCATION '"+dir+"/'")
	var r jdbcReply
	raw := f.post("/_plugins/_sql", map[string]any{"query": "SELECT CAST(v AS BIGINT) AS n FROM mixed", "fetch_size": 10}, 0)
	_ = json.Unmarshal(raw, &r)
	for r.Cursor != "" {
		next := r.Cursor
		r = jdbcReply{}
		_ = json.Unmarshal(f.post("/_plugins/_sql", map[string]any{"cursor": next}, 0), &r)
	}
	if r.Error == nil || r.Status != 400 || r.Error.Type != "ExpressionEvaluationException" {
		t.Fatalf("want the cast error on some page, got %+v %+v", r, r.Error)
	}
	if n := f.srv.cursors.openCount(); n != 0 {
		t.Errorf("%d cursors open after the error", n)
	}
	_ = os.Remove(dir)
}
