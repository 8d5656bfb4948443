package server

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sluice/internal/testutil/natsserver"
)

// TestConsoleScaleOut: a keyed stream shared by workers (workers = 2,
// partitions = 4) reports its worker slot, the partitions this server
// owns and each worker's share in the streams API, and its console card
// shows them: a strip of the partitions with this server's marked and a
// table of workers. A stream this server runs alone has no scale_out.
func TestConsoleScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS")
	}
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("s3events", "s3.events"); err != nil {
		t.Fatal(err)
	}
	f := newAuthFixture(t, nil)
	in := filepath.Join(f.dir, "k")
	ev := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 2; i++ {
		writeFile(t, filepath.Join(in, fmt.Sprintf("f%d.json", i)),
			fmt.Sprintf(`{"id": %d, "status": %d, "ts": "%s"}`+"\n", i, i%2, ev.Add(time.Duration(i)*time.Minute).Format("2006-01-02 15:04:05")))
	}
	sql := func(q string) { f.do(200, "/_plugins/_sql", "alice", "alice-pw", q) }
	sql("CREATE TABLE src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION '" + in + "/'")
	sql("CREATE TABLE agg (w TIMESTAMP, status INT, n BIGINT) USING json LOCATION '" + filepath.Join(f.dir, "agg") + "/'")
	sql("INSERT STREAM INTO agg SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status " +
		"WITH (name = 'ks', trigger = '100 milliseconds', workers = 2, partitions = 4, lock_ttl = '3 seconds', output_mode = 'append', " +
		"discovery = 'notifications', discovery_backfill = 'false', queue = '" + ns.URL + "/s3events/ks?ack_wait=1s', checkpoint_location = '" + filepath.Join(f.dir, "cp") + "')")
	sql("CREATE TABLE raw (id BIGINT) USING json LOCATION '" + filepath.Join(f.dir, "raw") + "/'")
	sql("INSERT STREAM INTO raw SELECT id FROM t WITH (name = 'alone', trigger = '100 milliseconds')")
	for i := 0; i < 2; i++ {
		msg := fmt.Sprintf(`{"Records":[{"eventVersion":"2.1","eventSource":"aws:s3","eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"lake"},"object":{"key":"f%d.json","size":10,"eTag":"e%d"}}}]}`, i, i)
		if err := ns.Publish("s3.events", []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}

	var s StreamJSON
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := json.Unmarshal(f.get(200, APIStreamsPath+"/ks", "bob", "bob-pw"), &s); err != nil {
			t.Fatal(err)
		}
		// This one server takes every partition once the lease of the
		// absent second worker's share is free to take.
		if so := s.ScaleOut; so != nil && so.Partitions == 4 && len(so.Owners) > 0 && len(so.Mine) > 0 {
			break
		}
	}
	so := s.ScaleOut
	if so == nil || so.Workers != 2 || so.Worker != 0 || so.Partitions != 4 || len(so.Mine) == 0 || so.Live < 1 || so.Queue == nil {
		raw, _ := json.Marshal(so)
		t.Fatalf("ks scale_out: %s", raw)
	}
	self := 0
	for _, o := range so.Owners {
		if o.Self {
			self = o.Partitions
		}
	}
	if self != len(so.Mine) {
		t.Errorf("this server holds %d partitions by the owners, %v by its own list", self, so.Mine)
	}
	var alone StreamJSON
	if err := json.Unmarshal(f.get(200, APIStreamsPath+"/alone", "bob", "bob-pw"), &alone); err != nil || alone.ScaleOut != nil {
		t.Errorf("a stream run alone: scale_out %+v (%v)", alone.ScaleOut, err)
	}

	chromium := chromiumPath(t)
	tab := newTab(t, startChromium(t, chromium), "bob", "bob-pw")
	tab.do(t, "loading the console", chromedp.Navigate(f.url+ConsolePath), chromedp.WaitVisible(chromedp.CSS(`#card-ks .scaleout .parts`)))
	tab.waitText(t, `#card-ks .scaleout-head`, "the worker line", func(s string) bool {
		return strings.HasPrefix(s, "Workers this server is worker 0 of 2 · ") && strings.Contains(s, " of 4 partitions")
	})
	if n := tab.count(t, `#card-ks .part`); n != 4 {
		t.Errorf("%d partitions shown, want 4", n)
	}
	mine := tab.count(t, `#card-ks .part.mine`)
	if mine < 1 {
		t.Errorf("no partition marked as this server's")
	}
	owners := tab.waitText(t, `#card-ks table.owners tbody`, "the workers", func(s string) bool { return strings.Contains(s, "(this server)") })
	if !strings.Contains(owners, "\t"+strconv.Itoa(mine)) {
		t.Errorf("workers table %q does not give this server's %d partitions", owners, mine)
	}
	if n := tab.count(t, `#card-alone .scaleout:not([hidden])`); n != 0 {
		t.Errorf("a stream run alone shows a workers panel")
	}
	tab.noProblems(t, "read user")
}
