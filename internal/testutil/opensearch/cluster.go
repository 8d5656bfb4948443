package opensearch

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sluice/internal/testutil/integration"
)

// Cluster is nodes of one OpenSearch cluster on loopback ports, each
// both cluster-manager eligible and a data node, so any one can be lost
// with the others keeping quorum.
type Cluster struct {
	Nodes []*Node
}

// StartCluster installs (once) and starts n nodes at once (each start
// waits until the cluster has formed, which takes a majority).
func StartCluster(n int) (*Cluster, error) {
	script, err := findScript()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if out, err := run(script, nil, nil, "install"); err != nil {
		return nil, fmt.Errorf("%w: installing: %v: %s", ErrUnavailable, err, out)
	}
	name := fmt.Sprintf("sluice-cluster-%d", os.Getpid())
	c := &Cluster{}
	var seeds, managers []string
	for i := 0; i < n; i++ {
		p, err := integration.FreePort()
		port := strconv.Itoa(p)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		dir, err := os.MkdirTemp("", "sluice-opensearch-")
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		node := fmt.Sprintf("node-%d", i+1)
		seeds = append(seeds, "127.0.0.1:"+port)
		managers = append(managers, node)
		c.Nodes = append(c.Nodes, &Node{Dir: dir, script: script,
			env: []string{"OPENSEARCH_CLUSTER_NAME=" + name, "OPENSEARCH_NODE_NAME=" + node, "OPENSEARCH_TRANSPORT_PORT=" + port}})
	}
	common := []string{"OPENSEARCH_CLUSTER_SEEDS=" + strings.Join(seeds, ","), "OPENSEARCH_CLUSTER_MANAGERS=" + strings.Join(managers, ",")}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, nd := range c.Nodes {
		nd.env = append(nd.env, common...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = nd.start("")
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return c, nil
}

// StartClusterTB starts a cluster for one test and closes it on
// cleanup; when none can be had it ends the test through
// integration.Unavailable (a loud skip, a failure in CI).
func StartClusterTB(tb testing.TB, n int) *Cluster {
	tb.Helper()
	c, err := StartCluster(n)
	if err != nil {
		integration.Unavailable(tb, "%v", err)
	}
	tb.Cleanup(c.Close)
	return c
}

// Endpoints is every node's URL, comma-separated, as a sink's endpoint
// option takes them.
func (c *Cluster) Endpoints() string {
	var urls []string
	for _, n := range c.Nodes {
		urls = append(urls, n.URL)
	}
	return strings.Join(urls, ",")
}

// Close stops every node and removes its directory.
func (c *Cluster) Close() {
	for _, n := range c.Nodes {
		n.Close()
	}
}

// Kill ends the node with SIGKILL, as a crash does; Restart brings it
// back over its data.
func (n *Node) Kill() error {
	data, err := os.ReadFile(n.Dir + "/pid")
	if err != nil {
		return fmt.Errorf("killing the node over %s: %w", n.Dir, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return fmt.Errorf("killing the node over %s: pid file: %w", n.Dir, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("killing node pid %d: %w", pid, err)
	}
	for i := 0; i < 200 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	return os.Remove(n.Dir + "/pid")
}
