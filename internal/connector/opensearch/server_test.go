package opensearch_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
	"sluice/internal/types"
)

func TestMappings(t *testing.T) {
	tg := newTarget(t, "map-")
	spec := tg.Spec("t", nil)
	tg.Write(t, spec, 0, conformance.SearchBatch(0, 10))
	raw := call(t, node, http.MethodGet, "/map-t/_mapping", "")
	var got map[string]any
	var full map[string]any
	if err := json.Unmarshal([]byte(raw), &full); err != nil {
		t.Fatal(err)
	}
	got = full["map-t"].(map[string]any)["mappings"].(map[string]any)["properties"].(map[string]any)
	tests := []struct{ field, want string }{
		{"id", "long"}, {"ts", "date"}, {"host", "keyword"}, {"status", "integer"},
		{"latency", "double"}, {"ok", "boolean"}, {"msg", "text"}, {"tags", "keyword"},
	}
	for _, tc := range tests {
		f, _ := got[tc.field].(map[string]any)
		if f == nil || f["type"] != tc.want {
			t.Errorf("%s mapped as %v, want %s", tc.field, got[tc.field], tc.want)
		}
	}
	msg := got["msg"].(map[string]any)
	if msg["analyzer"] != opensearch.AnalyzerName || msg["fields"] == nil {
		t.Errorf("msg: %v, want text with the sluice analyzer and a keyword sub-field", msg)
	}
	geo, _ := got["geo"].(map[string]any)
	if geo == nil || geo["properties"] == nil {
		t.Errorf("geo mapped as %v, want an object", geo)
	}
}

func TestDatePatternIndices(t *testing.T) {
	tg := newTarget(t, "")
	spec := tg.Spec("dp", map[string]string{"index": "logs-{ts|yyyy.MM.dd}", "id": "id"})
	// 3000 minutes from 22:00 on the 28th span three days.
	tg.Write(t, spec, 0, conformance.SearchBatch(0, 1500), conformance.SearchBatch(1500, 1500))
	cat := call(t, node, http.MethodGet, "/_cat/indices/logs-*?h=index,docs.count&s=index", "")
	want := "logs-2026.11.28 120\nlogs-2026.11.29 1440\nlogs-2026.11.30 1440\n"
	if norm(cat) != want {
		t.Errorf("indices:\n%s\nwant:\n%s", norm(cat), want)
	}
	src, err := opensearch.NewSource(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(conformance.Rows(t, conformance.ReadAll(t, src), nil)); n != 3000 {
		t.Errorf("read %d rows back through the pattern, want 3000", n)
	}
}

func norm(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString(strings.Join(strings.Fields(l), " ") + "\n")
	}
	return b.String()
}

func TestDeadLetters(t *testing.T) {
	n := needNode(t)
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: types.BigInt}, {Name: "code", Type: types.String, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	for i := 0; i < 50; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%10 == 3 {
			b.Field(1).(*array.StringBuilder).Append("not-a-number")
		} else {
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprint(i))
		}
	}
	rec := b.NewRecordBatch()
	opts := map[string]string{
		"endpoint": n.URL, "index": "dead", "id": "k", "dead_letter_location": dir,
		"index_mappings": `{"properties":{"k":{"type":"long"},"code":{"type":"integer"}}}`,
	}
	spec := connector.TableSpec{Name: "dead", Options: opts, Schema: schema}
	ctx := context.Background()
	s, err := opensearch.NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(ctx, 7); err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	s.Close()
	if st.Indexed != 45 || st.DeadLettered != 5 {
		t.Errorf("stats %+v, want 45 indexed and 5 dead-lettered", st)
	}
	f, err := os.Open(filepath.Join(dir, "dead-letter-q-7.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			Index, ID string
			Reason    map[string]any
			Document  map[string]any
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Index != "dead" || rec.Reason["type"] != "mapper_parsing_exception" || rec.Document["code"] != "not-a-number" {
			t.Errorf("dead letter %s", sc.Text())
		}
		ids = append(ids, rec.ID)
	}
	sort.Strings(ids)
	if strings.Join(ids, ",") != "13,23,3,33,43" {
		t.Errorf("dead-lettered ids %v", ids)
	}

	// Without a dead-letter location, rejections fail the flush.
	delete(opts, "dead_letter_location")
	s, _ = opensearch.NewSink(ctx, spec, connector.SinkOptions{})
	defer s.Close()
	_ = s.Write(ctx, rec)
	if err := s.Flush(ctx, 0); err == nil || !strings.Contains(err.Error(), "5 documents were rejected") {
		t.Errorf("flush without dead_letter_location: %v", err)
	}
}

// flaky answers every third bulk request 429 and every fifth 503
// without forwarding it.
func flaky(t *testing.T, target string) (*httptest.Server, *atomic.Int64) {
	u, _ := url.Parse(target)
	p := httputil.NewSingleHostReverseProxy(u)
	var n, refused atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/_bulk") {
			k := n.Add(1)
			if k%3 == 0 {
				refused.Add(1)
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprint(w, `{"error":"es_rejected_execution_exception"}`)
				return
			}
			if k%5 == 0 {
				refused.Add(1)
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
		}
		p.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &refused
}

func TestRetriesOn429And503(t *testing.T) {
	n := needNode(t)
	proxy, refused := flaky(t, n.URL)
	tg := newTarget(t, "")
	spec := tg.Spec("flaky", map[string]string{"endpoint": proxy.URL, "bulk_max_actions": "50", "id": "id"})
	tg.Write(t, spec, 0, conformance.SearchBatch(0, 1000))
	if refused.Load() == 0 {
		t.Fatal("the proxy refused nothing")
	}
	if got := count(t, "flaky"); got != 1000 {
		t.Errorf("%d documents after %d refusals, want 1000", got, refused.Load())
	}
}

func count(t *testing.T, index string) int {
	raw := call(t, node, http.MethodGet, "/"+index+"/_count", "")
	var c struct{ Count int }
	_ = json.Unmarshal([]byte(raw), &c)
	return c.Count
}

// checksum hashes every (id, source) of an index, sorted by id.
func checksum(t *testing.T, n int, index string) (int, string) {
	raw := call(t, node, http.MethodPost, "/"+index+"/_search", fmt.Sprintf(`{"size":%d,"sort":["_doc"]}`, n+10))
	var r struct {
		Hits struct {
			Hits []struct {
				ID     string          `json:"_id"`
				Source json.RawMessage `json:"_source"`
			}
		}
	}
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, 0, len(r.Hits.Hits))
	for _, h := range r.Hits.Hits {
		lines = append(lines, h.ID+"\t"+string(h.Source))
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return len(lines), hex.EncodeToString(sum[:])
}

// TestNodeOutage stops the node for 30 seconds in the middle of a bulk
// load; the load waits, resumes, and the index ends up exactly as a load
// without an outage leaves it.
func TestNodeOutage(t *testing.T) {
	n := needNode(t)
	if os.Getenv("SLUICE_OPENSEARCH_URL") != "" {
		t.Skip("the outage test needs a node of its own")
	}
	const rows, per = 6000, 200
	ctx := context.Background()
	tg := newTarget(t, "")

	// The reference: the documents the load sends, by id.
	batches, want := searchLoad(t, nil, rows, per)
	sum := sha256.Sum256([]byte(strings.Join(want, "\n")))
	wantN, wantSum := len(want), hex.EncodeToString(sum[:])

	spec := tg.Spec("outage", map[string]string{"bulk_max_actions": "100", "retry_max_time": "3m", "retry_initial_backoff": "200ms"})
	s, err := opensearch.NewSink(ctx, spec, connector.SinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	go func() {
		for _, b := range batches {
			if err := s.Write(ctx, b); err != nil {
				done <- err
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		done <- s.Flush(ctx, 0)
	}()
	for s.Stats().Indexed < rows/4 {
		time.Sleep(10 * time.Millisecond)
	}
	if err := n.Stop(); err != nil {
		t.Fatal(err)
	}
	stoppedAt := s.Stats().Indexed
	t.Logf("node stopped after %d documents", stoppedAt)
	time.Sleep(30 * time.Second)
	if err := n.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("load across the outage: %v", err)
	}
	refresh(t, n, "outage")
	gotN, gotSum := checksum(t, rows, "outage")
	t.Logf("after the outage: %d documents, stats %+v", gotN, s.Stats())
	if gotN != rows || gotSum != wantSum {
		t.Errorf("after the outage: %d documents (checksum %s), want %d (%s)", gotN, gotSum, wantN, wantSum)
	}
	if stoppedAt >= rows {
		t.Errorf("the node was stopped after the load ended")
	}
}
