package opensearch_test

import (
	"context"
	"flag"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
	"sluice/internal/testutil/integration"
	ostest "sluice/internal/testutil/opensearch"
)

var node *ostest.Node

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		ostest.JavaOpts = "" // full JIT: benchmarks measure throughput
	}
	var err error
	node, err = ostest.Start()
	if err != nil {
		log.Printf("%v", err)
		node = nil
	}
	code := m.Run()
	node.Close()
	os.Exit(code)
}

// needNode skips loudly without a node (fails in CI).
func needNode(t *testing.T) *ostest.Node {
	t.Helper()
	if node == nil {
		integration.Unavailable(t, "OPENSEARCH UNAVAILABLE: no node could be started (see the log above)")
	}
	return node
}

// target opens tables of the conformance suite's search schema on the
// node, for the server-only checks (the conformance suite runs the
// checks every search sink passes).
type target struct {
	n      *ostest.Node
	prefix string
}

func newTarget(t *testing.T, prefix string) target { return target{n: needNode(t), prefix: prefix} }

// Spec is a table of conformance.SearchSchema with msg a text field.
func (tg target) Spec(name string, extra map[string]string) connector.TableSpec {
	opts := map[string]string{"endpoint": tg.n.URL, "index": tg.prefix + name, "retry_initial_backoff": "20ms", "text_fields": "msg"}
	for k, v := range extra {
		opts[k] = v
	}
	return connector.TableSpec{Name: name, Using: "opensearch", Options: opts, Schema: conformance.SearchSchema}
}

// Write writes batches as one epoch, closes the sink and refreshes.
func (tg target) Write(t *testing.T, spec connector.TableSpec, epoch int64, batches ...arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	s, err := opensearch.NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q1"})
	if err != nil {
		t.Fatalf("NewSink: %v", err)
	}
	if err := s.BeginEpoch(ctx, epoch); err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := s.Write(ctx, b); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := s.Flush(ctx, epoch); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	refresh(t, tg.n, spec.Options["index"])
}

func refresh(t *testing.T, n *ostest.Node, index string) {
	t.Helper()
	if i := strings.IndexByte(index, '{'); i >= 0 {
		index = index[:i] + "*"
	}
	call(t, n, http.MethodPost, "/"+index+"/_refresh", "")
}

func call(t *testing.T, n *ostest.Node, method, path, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, n.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, b)
	}
	return string(b)
}
