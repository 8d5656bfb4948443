package crashtest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ostest "sluice/internal/testutil/opensearch"
)

// TestWorkersSearchClusterNodeLoss: two `sluice sql` workers write a
// stateless stream through a 3-node OpenSearch cluster (an index of 3
// shards with 1 replica; the sink's endpoint names all three) while one
// node is SIGKILLed, and a worker too during that outage. Files
// uploaded meanwhile reach the index (the lost primaries' replicas are
// promoted), no worker exits by itself, and once the node is back the
// index equals a batch INSERT over every file: no row lost, none twice
// (the documents are named by write id, epoch and row, so a replay
// overwrites). The stall from the node's kill to the rows of the files
// uploaded then is logged.
func TestWorkersSearchClusterNodeLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts a 3-node OpenSearch cluster, NATS and an S3 server")
	}
	cl := ostest.StartClusterTB(t, 3)
	o := newOutage(t, "nats")
	index := fmt.Sprintf("feed-cluster-%d", bucketN.Add(1))
	osDo(t, cl.Nodes[0].URL, "PUT", "/"+index, `{"settings": {"number_of_shards": 3, "number_of_replicas": 1}}`)
	osDo(t, cl.Nodes[0].URL, "GET", "/_cluster/health/"+index+"?wait_for_status=green&timeout=60s", "")
	o.tables[1] = "CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING opensearch OPTIONS (endpoint '" +
		cl.Endpoints() + "', index '" + index + "', retry_max_time '2 minutes')"
	o.s = &scenario{dataDir: filepath.Join(o.dir, "check-search"), session: o.session}
	o.s.exec(t, o.tables...)
	f := newFleet(t, o.bin, o.dir, sqlScript(o.session, o.tables, []string{o.stmt()}))
	ws := []*worker{f.start(), f.start()}
	state := func() string { return ws[0].stderr.String() + "\n" + ws[1].stderr.String() }

	o.upload(t, 3)
	o.waitRows(t, "before the node loss", state)
	f.alive(ws)

	victim := cl.Nodes[2]
	if err := victim.Kill(); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	o.upload(t, 3)
	time.Sleep(300 * time.Millisecond)
	f.kill(ws[0]) // a worker too, while the node is down
	ws[0] = f.start()
	o.upload(t, 2)
	o.waitRows(t, "with an OpenSearch node down", state)
	t.Logf("stall with an OpenSearch node killed: %s from the kill to the rows of the 5 files uploaded after it (a worker killed meanwhile)",
		time.Since(t0).Round(time.Millisecond))
	f.alive(ws)

	if err := victim.Restart(); err != nil {
		t.Fatal(err)
	}
	o.upload(t, 3)
	o.waitRows(t, "after the node is back", state)
	f.alive(ws)
	time.Sleep(1200 * time.Millisecond) // a late duplicate would show
	o.compare(t)
	if s := state(); strings.Contains(s, "panic") {
		t.Fatalf("a worker panicked: %s", s)
	}
}
