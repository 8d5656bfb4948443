package natsserver

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"sluice/internal/testutil/integration"
)

// Cluster is a JetStream cluster of embedded servers routed to each
// other on loopback, each with a store of its own.
type Cluster struct {
	Servers []*Server
	// URL lists every server's client URL, as a queue URL takes them
	// (nats://h:p1,h:p2,...).
	URL string
}

// StartCluster starts n servers (3 for a quorum that survives one
// loss) and waits until JetStream has a meta leader; they stop on
// cleanup.
func StartCluster(tb testing.TB, n int) *Cluster {
	tb.Helper()
	c, err := StartClusterIn(tb.TempDir(), n)
	if c != nil {
		tb.Cleanup(c.Stop)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// StartClusterIn is StartCluster outside a test: the servers' stores
// live under dir, and Stop ends them.
func StartClusterIn(dir string, n int) (*Cluster, error) {
	ports := make([]int, n)
	for i := range ports {
		p, err := integration.FreePort()
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	routes := make([]string, n)
	for i, p := range ports {
		routes[i] = "nats://127.0.0.1:" + strconv.Itoa(p)
	}
	c := &Cluster{}
	var urls []string
	for i := range n {
		s, err := StartWith(filepath.Join(dir, fmt.Sprintf("n%d", i+1)), func(o *server.Options) {
			o.ServerName = fmt.Sprintf("n%d", i+1)
			o.Cluster = server.ClusterOpts{Name: "sluice-test", Host: "127.0.0.1", Port: ports[i]}
			o.Routes = server.RoutesFromStr(strings.Join(routes, ","))
		})
		if err != nil {
			return c, err
		}
		c.Servers = append(c.Servers, s)
		urls = append(urls, strings.TrimPrefix(s.URL, "nats://"))
	}
	c.URL = "nats://" + strings.Join(urls, ",")
	return c, c.waitMeta(30 * time.Second)
}

// Stop stops every server.
func (c *Cluster) Stop() {
	for _, s := range c.Servers {
		s.Stop()
	}
}

// waitMeta waits until the cluster answers JetStream account info,
// which needs a meta leader.
func (c *Cluster) waitMeta(within time.Duration) error {
	return WithJetStream(c.URL, nil, func(js jetstream.JetStream) error {
		deadline := time.Now().Add(within)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, err := js.AccountInfo(ctx)
			cancel()
			if err == nil {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("jetstream cluster has no meta leader after %s: %w", within, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}

// AddStream creates a stream with replicas replicas capturing subjects.
func (c *Cluster) AddStream(name string, replicas int, subjects ...string) error {
	return WithJetStream(c.URL, nil, func(js jetstream.JetStream) error {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: subjects, Storage: jetstream.FileStorage, Replicas: replicas})
		return err
	})
}

// StreamLeader is the index in Servers of the node leading stream name.
func (c *Cluster) StreamLeader(name string) (int, error) {
	leader := ""
	err := WithJetStream(c.URL, nil, func(js jetstream.JetStream) error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, err := js.Stream(ctx, name)
		if err != nil {
			return err
		}
		info, err := st.Info(ctx)
		if err != nil {
			return err
		}
		if info.Cluster != nil {
			leader = info.Cluster.Leader
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for i := range c.Servers {
		if leader == fmt.Sprintf("n%d", i+1) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("stream %s has no leader (%q)", name, leader)
}

// StreamMsgs is how many messages stream name holds, asked of any node
// that answers.
func (c *Cluster) StreamMsgs(name string) (uint64, error) {
	var n uint64
	err := WithJetStream(c.URL, nil, func(js jetstream.JetStream) error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, err := js.Stream(ctx, name)
		if err != nil {
			return err
		}
		info, err := st.Info(ctx)
		if err != nil {
			return err
		}
		n = info.State.Msgs
		return nil
	})
	return n, err
}
