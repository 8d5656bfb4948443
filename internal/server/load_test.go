package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentClientsWithStreams: 64 API clients run small SELECTs
// through /_plugins/_sql at once while three background streams take in
// new files; every query answers 200 with the right rows, and every
// stream ends with each row in its sink exactly once.
func TestConcurrentClientsWithStreams(t *testing.T) {
	const clients, queriesEach, streams, inputFiles = 64, 15, 3, 10
	f := newFixture(t, 100)
	for i := 0; i < streams; i++ {
		f.sql(200, fmt.Sprintf("CREATE TABLE out%d (id BIGINT, name STRING) USING json LOCATION '%s%d/'", i, f.out, i))
		f.sql(200, fmt.Sprintf("INSERT STREAM INTO out%d SELECT id, name FROM t WITH (name = 'feed%d', trigger = '20 milliseconds')", i, i))
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: 30 * time.Second}
	query := func(q string) (int, jdbcReply, error) {
		body, _ := json.Marshal(map[string]any{"query": q})
		resp, err := client.Post(f.http.URL+"/_plugins/_sql", "application/json", bytes.NewReader(body))
		if err != nil {
			return 0, jdbcReply{}, err
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var r jdbcReply
		if err := json.Unmarshal(raw, &r); err != nil {
			return resp.StatusCode, r, fmt.Errorf("%s: %w", raw, err)
		}
		return resp.StatusCode, r, nil
	}

	stop := make(chan struct{})
	var feeder sync.WaitGroup
	feeder.Add(1)
	go func() { // new input while the clients query
		defer feeder.Done()
		for i := 1; i <= inputFiles; i++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			var b strings.Builder
			for j := 0; j < 10; j++ {
				id := 1000*i + j
				fmt.Fprintf(&b, `{"id": %d, "name": "n%d", "note": "x", "neg": "-%d"}`+"\n", id, id, id)
			}
			writeFile(t, filepath.Join(f.in, fmt.Sprintf("more%02d.json", i)), b.String())
		}
	}()

	var failures atomic.Int64
	var firstErr sync.Once
	var wg sync.WaitGroup
	t0 := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for q := 0; q < queriesEach; q++ {
				id := (c*queriesEach + q) % 100
				status, r, err := query(fmt.Sprintf("SELECT id, name FROM t WHERE id = %d", id))
				ok := err == nil && status == 200 && len(r.Datarows) == 1 && r.Datarows[0][0] == float64(id) && r.Datarows[0][1] == fmt.Sprintf("n%d", id)
				if !ok {
					failures.Add(1)
					firstErr.Do(func() {
						t.Errorf("client %d query %d: status %d rows %v error %v %+v", c, q, status, r.Datarows, err, r.Error)
					})
				}
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(t0)
	close(stop)
	feeder.Wait()
	if n := failures.Load(); n > 0 {
		t.Fatalf("%d of %d queries failed", n, clients*queriesEach)
	}
	t.Logf("%d queries from %d clients in %s (%.0f/s) with %d streams running", clients*queriesEach, clients, elapsed.Round(time.Millisecond),
		float64(clients*queriesEach)/elapsed.Seconds(), streams)

	// The streams kept up and wrote each row once.
	r := f.sql(200, "SELECT count(*) FROM t")
	want := int(r.Datarows[0][0].(float64))
	for i := 0; i < streams; i++ {
		f.waitCount(fmt.Sprintf("out%d", i), want, 20*time.Second)
		d := f.sql(200, fmt.Sprintf("SELECT count(DISTINCT id) FROM out%d", i))
		if d.Datarows[0][0] != float64(want) {
			t.Errorf("out%d: %v distinct ids of %d rows", i, d.Datarows[0][0], want)
		}
		if s := f.streamState(fmt.Sprintf("feed%d", i)); s != "running" {
			t.Errorf("feed%d is %s after the load", i, s)
		}
	}
}
