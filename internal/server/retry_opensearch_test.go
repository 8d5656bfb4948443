package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/job"
	"sluice/internal/testutil/faultproxy"
	ostest "sluice/internal/testutil/opensearch"
)

// TestStreamRetriesOpenSearchDown: a background stream into a real
// OpenSearch node, reached through a proxy that then answers every
// request 503 (the node "down"), is retrying until the proxy passes
// requests again, then runs on; the index holds every row exactly once
// (the sink's document ids come from the epoch and row, so a replayed
// epoch overwrites what it half wrote).
func TestStreamRetriesOpenSearchDown(t *testing.T) {
	node := ostest.StartTB(t)
	p, err := faultproxy.Start(node.URL, faultproxy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f := newFixtureWith(t, 5, func(o *Options) {
		o.Engine.RetryInitial, o.Engine.RetryMax = 50*time.Millisecond, 200*time.Millisecond
	})
	index := fmt.Sprintf("retry-%d", time.Now().UnixNano())
	f.sql(200, "CREATE TABLE os (id BIGINT, name STRING) USING opensearch OPTIONS (endpoint '"+p.URL+"', index '"+index+
		"', retry_max_time '300 milliseconds', retry_initial_backoff '20 milliseconds')")
	f.sql(200, "INSERT STREAM INTO os SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	count := func() int {
		resp, err := http.Get(node.URL + "/" + index + "/_count")
		if err != nil {
			return -1
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var c struct{ Count int }
		_ = json.Unmarshal(raw, &c)
		return c.Count
	}
	waitCount := func(want int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, _ = http.Post(node.URL+"/"+index+"/_refresh", "application/json", nil)
			got := count()
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("index %s holds %d documents, want %d", index, got, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitCount(5)

	p.SetConfig(faultproxy.Config{SlowDownRate: 1})
	var b strings.Builder
	for i := 100; i < 110; i++ {
		fmt.Fprintf(&b, `{"id": %d, "name": "n%d"}`+"\n", i, i)
	}
	writeFile(t, filepath.Join(f.in, "part1.json"), b.String())
	s := f.waitStream("feed", 30*time.Second, func(s StreamJSON) bool { return s.State == job.StateRetrying && s.Attempts >= 2 })
	if s.LastError == "" || s.NextAttempt == nil {
		t.Fatalf("retrying without an error or a next attempt: %+v", s)
	}

	p.SetConfig(faultproxy.Config{})
	f.waitStream("feed", 30*time.Second, func(s StreamJSON) bool { return s.State == job.StateRunning })
	waitCount(15)
	time.Sleep(300 * time.Millisecond)
	waitCount(15)
}
