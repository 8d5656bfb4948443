package crashtest

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWorkersClusterNodeLoss: two workers (in `sluice serve`) over an R3
// events stream of a 3-node JetStream cluster ride out a kill of the
// node leading that stream: files uploaded while it is down reach the
// sink (the other two keep a quorum), no worker exits, and after the
// node is back the sink equals a batch INSERT over every file, none
// read twice. The stall, from an upload during the outage to its rows
// in the sink, is logged.
func TestWorkersClusterNodeLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts a 3-node NATS cluster and an S3 server")
	}
	o := newOutage(t, "nats-cluster")
	o.upload(t, 3)
	remote, _ := serveProcessURL(t, o.bin, filepath.Join(o.dir, "served"), "--stream-retry-initial", "200ms", "--stream-retry-max", "1s")
	remote(script(append(append(append([]string{}, o.session...), o.tables...), o.stmt())...))
	state := func() string { return remote("DESCRIBE STREAM feed") }
	o.waitRows(t, "before the node loss", state)

	o.down()
	t0 := time.Now()
	waitLeader(t, o, 30*time.Second)
	o.upload(t, 3)
	o.waitRows(t, "with the leading node down", state)
	t.Logf("stall with the events stream's leader down: %s from the kill to the rows of files uploaded once a new leader was elected", time.Since(t0).Round(time.Millisecond))
	if d := state(); !strings.Contains(d, "state,running") {
		t.Errorf("DESCRIBE STREAM with a node down: %s, want running", d)
	}

	if err := o.up(); err != nil {
		t.Fatal(err)
	}
	o.upload(t, 3)
	o.waitRows(t, "after the node is back", state)
	if d := state(); !strings.Contains(d, "state,running") {
		t.Errorf("DESCRIBE STREAM after the node is back: %s, want running", d)
	}
	time.Sleep(1200 * time.Millisecond) // a late duplicate would show
	o.compare(t)
}

// TestWorkersClusterQuorumLoss: the same workers through a quorum loss
// (two of the three nodes down): no worker exits (the stream retries,
// DESCRIBE STREAM says so), and once the nodes are back files uploaded
// then reach the sink, which equals a batch INSERT.
func TestWorkersClusterQuorumLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts a 3-node NATS cluster and an S3 server")
	}
	o := newOutage(t, "nats-cluster")
	o.upload(t, 3)
	remote, _ := serveProcessURL(t, o.bin, filepath.Join(o.dir, "served"), "--stream-retry-initial", "200ms", "--stream-retry-max", "1s")
	remote(script(append(append(append([]string{}, o.session...), o.tables...), o.stmt())...))
	state := func() string { return remote("DESCRIBE STREAM feed") }
	o.waitRows(t, "before the quorum loss", state)

	down := []int{0, 1}
	for _, i := range down {
		o.cluster.Servers[i].Down()
	}
	time.Sleep(quorumLoss)
	if d := state(); !strings.Contains(d, "state,running") && !strings.Contains(d, "state,retrying") {
		t.Fatalf("DESCRIBE STREAM during the quorum loss: %s, want running or retrying", d)
	}
	for _, i := range down {
		if err := o.cluster.Servers[i].Up(); err != nil {
			t.Fatal(err)
		}
	}
	waitLeader(t, o, 30*time.Second)
	t0 := time.Now()
	o.upload(t, 3)
	o.waitRows(t, "after the quorum is back", state)
	t.Logf("after a %s quorum loss: rows of new files %s after the events stream had a leader again", quorumLoss, time.Since(t0).Round(time.Millisecond))
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(state(), "state,running"); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not running again: %s", state())
		}
	}
	time.Sleep(1200 * time.Millisecond)
	o.compare(t)
}

// quorumLoss is how long the quorum-loss test keeps two nodes down: the
// 20 s a user measured, long enough for every JetStream request to fail
// several times over.
const quorumLoss = 20 * time.Second

// waitLeader waits until the events stream has a leader. The gateway
// publishes without acknowledgement: events sent while the stream has
// none are lost (reconciliation finds those files: the reconcile
// tests), so uploads wait for one.
func waitLeader(t *testing.T, o *outage, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(200 * time.Millisecond) {
		_, err := o.cluster.StreamLeader("s3events")
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the events stream has no leader after %s: %v", within, err)
		}
	}
}
