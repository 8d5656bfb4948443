// Package opensearch starts a real OpenSearch node for integration tests,
// through scripts/opensearch.sh (which installs it once into a cache
// directory). Start it once per test package, in TestMain:
//
//	var node *ostest.Node
//
//	func TestMain(m *testing.M) {
//		var err error
//		node, err = ostest.Start()
//		if err != nil {
//			log.Printf("%v", err) // "OPENSEARCH UNAVAILABLE: ..."; tests then call integration.Unavailable
//		}
//		code := m.Run()
//		node.Close() // nil-safe
//		os.Exit(code)
//	}
//
// SLUICE_OPENSEARCH_URL points the tests at a node already running
// instead (Stop and Restart are then unavailable).
package opensearch

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
)

// ErrUnavailable wraps every reason no node could be had, so tests can
// tell "skip" from a failure.
var ErrUnavailable = errors.New("OPENSEARCH UNAVAILABLE")

// Node is a running single-node cluster on a loopback port.
type Node struct {
	URL    string // http://127.0.0.1:PORT
	Dir    string // config, data and logs
	port   string
	script string
	shared bool     // an external node: never stopped
	extra  []string // opensearch.yml lines, kept for Restart
	env    []string // a cluster node's OPENSEARCH_CLUSTER_* (cluster.go)
}

// Start installs (once) and starts a node over a fresh directory.
func Start() (*Node, error) {
	if u := os.Getenv("SLUICE_OPENSEARCH_URL"); u != "" {
		return &Node{URL: strings.TrimRight(u, "/"), shared: true}, nil
	}
	return startOwn(nil)
}

// StartWith starts a node of its own (never the shared
// SLUICE_OPENSEARCH_URL one) with static settings added to its
// opensearch.yml, such as "thread_pool.write.queue_size: 1".
func StartWith(settings ...string) (*Node, error) { return startOwn(settings) }

func startOwn(settings []string) (*Node, error) {
	script, err := findScript()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if out, err := run(script, nil, nil, "install"); err != nil {
		return nil, fmt.Errorf("%w: installing: %v: %s", ErrUnavailable, err, out)
	}
	dir, err := os.MkdirTemp("", "sluice-opensearch-")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	n := &Node{Dir: dir, script: script, extra: settings}
	if err := n.start(""); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return n, nil
}

// StartTB starts a node for one test and closes it on cleanup; when none
// can be had it ends the test through integration.Unavailable (a loud
// skip, a failure in CI). With settings, the node is always its own
// (StartWith).
func StartTB(tb testing.TB, settings ...string) *Node {
	tb.Helper()
	start := Start
	if len(settings) > 0 {
		start = func() (*Node, error) { return StartWith(settings...) }
	}
	n, err := start()
	if err != nil {
		integration.Unavailable(tb, "%v", err)
	}
	tb.Cleanup(n.Close)
	return n
}

func (n *Node) start(port string) error {
	args := []string{"start", n.Dir}
	if port != "" {
		args = append(args, port)
	}
	out, err := run(n.script, n.extra, n.env, args...)
	if err != nil {
		return fmt.Errorf("starting: %v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	n.URL = strings.TrimSpace(lines[len(lines)-1])
	if !strings.HasPrefix(n.URL, "http://") {
		return fmt.Errorf("starting: unexpected output %q", out)
	}
	n.port = n.URL[strings.LastIndexByte(n.URL, ':')+1:]
	return nil
}

// Stop stops the node, keeping its data (for Restart).
func (n *Node) Stop() error {
	if n == nil || n.shared {
		return errors.New("cannot stop a shared node")
	}
	if out, err := run(n.script, nil, nil, "stop", n.Dir); err != nil {
		return fmt.Errorf("stopping: %v: %s", err, out)
	}
	return nil
}

// Restart starts a stopped node again on the same port over the same data.
func (n *Node) Restart() error {
	if n == nil || n.shared {
		return errors.New("cannot restart a shared node")
	}
	return n.start(n.port)
}

// Close stops the node and removes its directory; nil-safe.
func (n *Node) Close() {
	if n == nil || n.shared {
		return
	}
	_ = n.Stop()
	os.RemoveAll(n.Dir)
}

// Healthy reports whether the node answers.
func (n *Node) Healthy() bool {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(n.URL + "/_cluster/health")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// JavaOpts are added to the node's JVM options: C1-only compilation
// starts the node (and restarts it) much faster on a small shared
// machine, at some cost in peak throughput; no perf data means no
// /tmp/hsperfdata_* left behind. Benchmarks clear it.
var JavaOpts = "-XX:TieredStopAtLevel=1 -XX:-UsePerfData"

func run(script string, settings, env []string, args ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "OPENSEARCH_EXTRA_JAVA_OPTS="+JavaOpts,
		"OPENSEARCH_EXTRA_SETTINGS="+strings.Join(settings, "\n"))
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		return out.String() + errb.String(), err
	}
	return out.String(), nil
}

// findScript walks up from the working directory to the module root.
func findScript() (string, error) { return integration.Script("opensearch.sh") }
