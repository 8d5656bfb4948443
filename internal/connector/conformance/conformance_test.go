package conformance_test

import (
	"flag"
	"log"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/connector/conformance"
	"sluice/internal/connector/conformance/toy"
	"sluice/internal/connector/registry"
	"sluice/internal/testutil/integration"
	ostest "sluice/internal/testutil/opensearch"
)

// node is the real OpenSearch node the opensearch connector is checked
// against, started once for the package as the opensearch package's
// tests start theirs.
var node *ostest.Node

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(brokenEnv) == "" && !skipNode() {
		var err error
		if node, err = ostest.Start(); err != nil {
			log.Printf("%v", err)
			node = nil
		}
	}
	code := m.Run()
	node.Close()
	os.Exit(code)
}

// skipNode is true when -run selects no test that needs the node
// (TestRegistry), so that the toy tests alone start no server.
func skipNode() bool {
	f := flag.Lookup("test.run")
	if f == nil || f.Value.String() == "" {
		return false
	}
	top, _, _ := strings.Cut(f.Value.String(), "/")
	re, err := regexp.Compile(top)
	return err == nil && !re.MatchString("TestRegistry")
}

// openSearch is the fixture for the one connector whose tables need a
// server: a fresh index on the real node, refreshed after each write.
func openSearch() conformance.Fixture {
	return conformance.Fixture{
		Name: "opensearch",
		Spec: func(t *testing.T, spec *connector.TableSpec) {
			if node == nil {
				integration.Unavailable(t, "OPENSEARCH UNAVAILABLE: no node could be started (see the log above)")
			}
			spec.Options["endpoint"] = node.URL
			spec.Options["index"] = strings.ReplaceAll(spec.Name, "_", "-")
			spec.Options["retry_initial_backoff"] = "20ms"
		},
		Refresh: func(t *testing.T, spec connector.TableSpec) {
			req, err := http.NewRequest(http.MethodPost, node.URL+"/"+spec.Options["index"]+"/_refresh?ignore_unavailable=true", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("refreshing %s: %v", spec.Options["index"], err)
			}
			resp.Body.Close()
			if resp.StatusCode >= 300 && resp.StatusCode != http.StatusNotFound {
				t.Fatalf("refreshing %s: HTTP %d", spec.Options["index"], resp.StatusCode)
			}
		},
	}
}

// TestRegistry runs the suite over every connector in the registry, and
// the toy connector added with one line.
func TestRegistry(t *testing.T) {
	conformance.Run(t, append(registry.All(), toy.Factory()), openSearch())
}
