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

	"sluice/internal/connector"
	"sluice/internal/connector/opensearch"
	"sluice/internal/connector/opensearch/suite"
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

func target(t *testing.T, prefix string) suite.Target {
	n := needNode(t)
	return suite.Target{
		Using: "opensearch",
		Options: func(table string) map[string]string {
			return map[string]string{"endpoint": n.URL, "index": prefix + table, "retry_initial_backoff": "20ms"}
		},
		NewSink: func(ctx context.Context, spec connector.TableSpec) (connector.Sink, error) {
			return opensearch.NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q1"})
		},
		NewSource: func(ctx context.Context, spec connector.TableSpec) (connector.Source, error) {
			return opensearch.NewSource(ctx, spec)
		},
		Refresh: func(t *testing.T, spec connector.TableSpec) { refresh(t, n, spec.Options["index"]) },
	}
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

func TestSuite(t *testing.T) {
	suite.Run(t, target(t, "suite-"))
}
