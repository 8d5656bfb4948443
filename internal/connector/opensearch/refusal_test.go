package opensearch_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
	ostest "sluice/internal/testutil/opensearch"
)

// TestRefusalsAdapt loads into a node of its own that turns work away
// for real: its indexing pressure limit is below the sink's first
// request size, so whole requests get HTTP 429, and its write pool has one
// thread and a one-task queue, so requests in flight together over a
// two-shard index get items refused with 429
// (es_rejected_execution_exception). The sink must shrink its requests
// until they are taken, send again only what was refused, and end with
// every document indexed exactly once: the same documents as sent, each
// at version 1 (a document sent again after it was taken would be at 2).
func TestRefusalsAdapt(t *testing.T) {
	needNode(t) // the shared node's tests skip or fail alike without an install
	n := ostest.StartTB(t,
		"indexing_pressure.memory.limit: 512kb",
		"thread_pool.write.size: 1",
		"thread_pool.write.queue_size: 1")
	const rows, per = 9000, 500
	ctx := context.Background()
	batches, want := searchLoad(t, []string{"id"}, rows, per)

	spec := connector.TableSpec{Name: "refused", Schema: conformance.SearchSchema, Options: map[string]string{
		"endpoint": n.URL, "index": "refused", "id": "id", "text_fields": "msg",
		"index_settings": `{"number_of_shards":2,"number_of_replicas":0}`,
		"bulk_max_bytes": "2mb", "bulk_max_actions": "100000", "bulk_concurrent_requests": "4",
		"retry_initial_backoff": "20ms", "retry_max_time": "40s"}}
	start := time.Now()
	s, err := opensearch.NewSink(ctx, spec, connector.SinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, b := range batches {
		if err := s.Write(ctx, b); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := s.Flush(ctx, 0); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	st := s.Stats()
	t.Logf("loaded %d documents in %s: %+v", rows, time.Since(start).Round(time.Millisecond), st)
	if st.Indexed != rows || st.DeadLettered != 0 {
		t.Errorf("indexed %d, dead-lettered %d; want %d, 0", st.Indexed, st.DeadLettered, rows)
	}
	// The first request is four times the node's pressure limit: HTTP
	// 429 for sure. Items refused by the full write queue depend on two
	// requests meeting at the node, so they are only logged.
	if st.RefusedRequests == 0 || st.Refused == 0 {
		t.Errorf("no HTTP 429 counted (%+v): the node was meant to turn the first request away", st)
	}
	t.Logf("%d responses refused items, %d refused the whole request", st.Refusals-st.RefusedRequests, st.RefusedRequests)
	if st.Refused < st.Refusals {
		t.Errorf("%d documents refused in %d refusals: each refusal turns away one or more", st.Refused, st.Refusals)
	}

	call(t, n, http.MethodPost, "/refused/_refresh", "")
	got, versions := indexed(t, n, "refused", rows)
	if len(got) != len(want) || hash(got) != hash(want) {
		t.Errorf("%d documents in the index (checksum %s), want %d (%s)", len(got), hash(got), len(want), hash(want))
	}
	if len(versions) != 1 || versions[1] != rows {
		t.Errorf("document versions %v, want all %d at 1", versions, rows)
	}
}

// indexed reads every (id, source) of an index, sorted, and counts its
// documents by version.
func indexed(t *testing.T, n *ostest.Node, index string, size int) ([]string, map[int]int) {
	t.Helper()
	raw := call(t, n, http.MethodPost, "/"+index+"/_search", fmt.Sprintf(`{"size":%d,"version":true,"sort":["_doc"]}`, size+10))
	var r struct {
		Hits struct {
			Hits []struct {
				ID      string          `json:"_id"`
				Version int             `json:"_version"`
				Source  json.RawMessage `json:"_source"`
			}
		}
	}
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, 0, len(r.Hits.Hits))
	versions := map[int]int{}
	for _, h := range r.Hits.Hits {
		lines = append(lines, h.ID+"\t"+string(h.Source))
		versions[h.Version]++
	}
	sort.Strings(lines)
	return lines, versions
}

func hash(lines []string) string {
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// searchLoad is rows of the conformance search data in batches of per,
// and what they should leave in an index: each document's id and
// source, tab-separated, sorted (idCols: the encoder's id columns, nil
// for content-hash ids).
func searchLoad(t *testing.T, idCols []string, rows, per int) ([]arrow.RecordBatch, []string) {
	t.Helper()
	var batches []arrow.RecordBatch
	var want []string
	enc, err := opensearch.NewEncoder(conformance.SearchSchema, idCols, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < rows; i += per {
		b := conformance.SearchBatch(i, per)
		batches = append(batches, b)
		docs, err := enc.Encode(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			want = append(want, d.ID+"\t"+string(d.Source))
		}
	}
	sort.Strings(want)
	return batches, want
}
