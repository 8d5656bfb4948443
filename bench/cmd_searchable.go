package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"sluice/internal/testutil/opensearch"
)

// cmdSearchable: PUT to searchable in a real OpenSearch node, S3 events
// through JetStream, for a stream with the default trigger (an epoch
// starts when an event arrives) beside one with a 100 ms trigger. Both
// sinks are checked to hold every object exactly once.
//
//	bench searchable --objects 120 --gap 500ms
func cmdSearchable(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("searchable", flag.ContinueOnError)
	dir := fs.String("dir", filepath.Join(os.TempDir(), "sluice-searchable"), "work directory (emptied first)")
	bin := fs.String("sluice", "", "sluice binary (default: built from this tree)")
	objects := fs.Int("objects", 120, "objects PUT one by one")
	gap := fs.Duration("gap", 500*time.Millisecond, "pause between PUTs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	os.RemoveAll(*dir)
	defer os.RemoveAll(*dir)
	r, err := newSORig(*dir, *bin)
	if err != nil {
		return err
	}
	defer r.close()
	node, err := opensearch.Start()
	if err != nil {
		return err
	}
	defer node.Close()
	if err := r.s3.CreateBucket("fresh"); err != nil {
		return err
	}
	modes := []struct{ name, trigger string }{{"on arrival (default trigger)", ""}, {"trigger 100 ms", "trigger = '100 milliseconds', "}}
	var ws []*searchWatch
	var ps []*proc
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, m := range modes {
		index := fmt.Sprintf("fresh%d", i)
		stmts := append(r.session(),
			"CREATE TABLE src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://fresh/in/'",
			"CREATE TABLE out (id BIGINT, status INT, msg STRING) USING opensearch OPTIONS (endpoint '"+node.URL+
				"', index '"+index+"', id 'id', refresh 'true')",
			"INSERT STREAM INTO out SELECT id, status, msg FROM src WITH (name = 'fresh', "+m.trigger+
				"discovery = 'notifications', discovery_backfill = 'false', queue = '"+r.queue(fmt.Sprintf("search%d", i))+"')")
		p, err := r.sluice(filepath.Join(*dir, index), stmts...)
		if err != nil {
			return err
		}
		defer p.kill()
		ps = append(ps, p)
		ws = append(ws, watchSearch(wctx, node.URL+"/"+index))
	}
	names := []string{modes[0].name, modes[1].name}
	if err := warmUp(ctx, r, "fresh", "in/warm.json", []seenAt{ws[0], ws[1]}, ps, names, 5*time.Minute); err != nil {
		return err
	}
	before := loadavg()
	put, err := putSpaced(ctx, r, "fresh", func(i int) string { return fmt.Sprintf("in/o%05d.json", i) }, *objects, *gap)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "| stream | objects | p50 ms | p99 ms | min ms | max ms | documents | load avg before / after |\n|---|---:|---:|---:|---:|---:|---:|---|")
	for mi, m := range modes {
		lat := seenLatencies(ws[mi], put)
		for deadline := time.Now().Add(time.Minute); len(lat) < len(put); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				return fmt.Errorf("%s: %d of %d objects searchable after a minute", m.name, len(lat), len(put))
			}
			lat = seenLatencies(ws[mi], put)
		}
		n, err := ws[mi].count()
		if err != nil {
			return err
		}
		if n != len(put)+1 {
			return fmt.Errorf("%s: the index holds %d documents, want %d (each object once)", m.name, n, len(put)+1)
		}
		fmt.Fprintf(stdout, "| %s | %d | %.0f | %.0f | %.0f | %.0f | %d | %s / %s |\n", m.name, len(put),
			ms(pct(lat, 0.5)), ms(pct(lat, 0.99)), ms(lat[0]), ms(lat[len(lat)-1]), n, before, loadavg())
	}
	return nil
}

// searchWatch records when each id is first returned by a search.
type searchWatch struct {
	index string
	mu    sync.Mutex
	seen  map[int]time.Time
}

func watchSearch(ctx context.Context, index string) *searchWatch {
	w := &searchWatch{index: index, seen: map[int]time.Time{}}
	go func() {
		for ctx.Err() == nil {
			w.poll(ctx)
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return w
}

func (w *searchWatch) poll(ctx context.Context) {
	body := `{"size": 10000, "_source": ["id"], "query": {"match_all": {}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.index+"/_search", bytes.NewReader([]byte(body)))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	now := time.Now()
	var out struct {
		Hits struct {
			Hits []struct {
				Source struct {
					ID int `json:"id"`
				} `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, h := range out.Hits.Hits {
		if _, ok := w.seen[h.Source.ID]; !ok {
			w.seen[h.Source.ID] = now
		}
	}
}

func (w *searchWatch) at(id int) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t, ok := w.seen[id]
	return t, ok
}

// count is the index's document count after a refresh.
func (w *searchWatch) count() (int, error) {
	resp, err := http.Post(w.index+"/_refresh", "application/json", nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	resp, err = http.Get(w.index + "/_count")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var c struct {
		Count int `json:"count"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		return 0, fmt.Errorf("counting %s: %w", w.index, err)
	}
	return c.Count, nil
}
