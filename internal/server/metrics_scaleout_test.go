package server

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"sluice/internal/testutil/natsserver"
)

// labelled is the value of name's series whose labels include want; -1
// when absent.
func labelled(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	fam := fams[name]
	if fam == nil {
		return -1
	}
	for _, m := range fam.Metric {
		hit := 0
		for _, l := range m.Label {
			if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
				hit++
			}
		}
		if hit != len(want) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		}
	}
	return -1
}

// TestMetricsScaleOut: a keyed (windowed) stream shared by workers,
// reading a NATS notification queue, shows its worker slot, queue
// counters and backlog, and partition ownership in /metrics, the same
// numbers DESCRIBE STREAM shows. The S3 events are published straight to
// JetStream: the table is on local disk, no gateway needed.
func TestMetricsScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS")
	}
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("s3events", "s3.events"); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, 0)
	ev := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 2; i++ {
		writeFile(t, filepath.Join(f.in, "k", fmt.Sprintf("f%d.json", i)),
			fmt.Sprintf(`{"id": %d, "status": %d, "ts": "%s"}`+"\n", i, i%2, ev.Add(time.Duration(i)*time.Minute).Format("2006-01-02 15:04:05")))
	}
	f.sql(200, "CREATE TABLE src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION '"+f.in+"/k/'")
	f.sql(200, "CREATE TABLE agg (w TIMESTAMP, status INT, n BIGINT) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO agg SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status "+
		"WITH (name = 'ks', trigger = '100 milliseconds', workers = 2, partitions = 4, lock_ttl = '3 seconds', output_mode = 'append', "+
		"discovery = 'notifications', discovery_backfill = 'false', queue = '"+ns.URL+"/s3events/ks?ack_wait=1s', checkpoint_location = '"+filepath.Join(f.dir, "cp")+"')")
	// A plain (stateless) stream shared by workers, its own consumer of
	// the same events: slot and queue series, no partitions.
	f.sql(200, "CREATE TABLE raw (id BIGINT) USING json LOCATION '"+f.out+"-raw/'")
	f.sql(200, "INSERT STREAM INTO raw SELECT id FROM src WITH (name = 'pl', trigger = '100 milliseconds', workers = 3, "+
		"discovery = 'notifications', discovery_backfill = 'false', queue = '"+ns.URL+"/s3events/pl?ack_wait=1s', checkpoint_location = '"+filepath.Join(f.dir, "cppl")+"')")
	for i := 0; i < 2; i++ {
		msg := fmt.Sprintf(`{"Records":[{"eventVersion":"2.1","eventSource":"aws:s3","eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"lake"},"object":{"key":"f%d.json","size":10,"eTag":"e%d"}}}]}`, i, i)
		if err := ns.Publish("s3.events", []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ns.Publish("s3.events", []byte("not json")); err != nil {
		t.Fatal(err)
	}

	ks := map[string]string{"stream": "ks"}
	kind := func(k string) map[string]string { return map[string]string{"stream": "ks", "kind": k} }
	var m map[string]*dto.MetricFamily
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		m = f.scrape()
		if labelled(m, "sluice_stream_queue_messages_total", kind("received")) == 3 &&
			labelled(m, "sluice_stream_partitions_owned", nil) >= 0 && labelled(m, "sluice_stream_keyed_watermark_seconds", ks) == float64(ev.Add(time.Minute-10*time.Second).Unix()) &&
			labelled(m, "sluice_stream_queue_backlog", map[string]string{"stream": "ks", "state": "unacked"}) == 0 &&
			labelled(m, "sluice_stream_queue_messages_total", map[string]string{"stream": "pl", "kind": "new_files"}) == 2 &&
			labelled(m, "sluice_stream_queue_messages_total", map[string]string{"stream": "pl", "kind": "malformed"}) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no scale-out series in time: received %v, owned %v, keyed watermark %v",
				labelled(m, "sluice_stream_queue_messages_total", kind("received")), labelled(m, "sluice_stream_partitions_owned", nil),
				labelled(m, "sluice_stream_keyed_watermark_seconds", ks))
		}
	}
	desc := map[string]string{}
	for _, r := range f.sql(200, "DESCRIBE STREAM ks").Datarows {
		if len(r) >= 2 {
			desc[fmt.Sprint(r[0])] = fmt.Sprint(r[1])
		}
	}
	if desc["worker"] != "0 of 2" {
		t.Errorf("DESCRIBE STREAM worker %q, want 0 of 2", desc["worker"])
	}
	if got := labelled(m, "sluice_stream_worker_info", map[string]string{"stream": "ks", "worker": "0", "workers": "2"}); got != 1 {
		t.Errorf("worker_info{worker=0,workers=2} = %v", got)
	}
	if got := labelled(m, "sluice_stream_worker_epochs", map[string]string{"stream": "ks", "worker": "0"}); got < 1 {
		t.Errorf("worker_epochs = %v", got)
	}
	for k, want := range map[string]float64{"received": 3, "new_files": 2, "malformed": 1, "foreign": 0, "duplicates": 0} {
		if got := labelled(m, "sluice_stream_queue_messages_total", kind(k)); got != want {
			t.Errorf("queue_messages_total{kind=%s} = %v, want %v", k, got, want)
		}
	}
	if got := labelled(m, "sluice_stream_queue_backlog", map[string]string{"stream": "ks", "state": "pending"}); got != 0 {
		t.Errorf("queue_backlog{pending} = %v, want 0", got)
	}
	me := desc["keyed_worker"]
	if me == "" {
		t.Fatalf("DESCRIBE STREAM has no keyed_worker: %v", desc)
	}
	if got := labelled(m, "sluice_stream_partitions_owned", map[string]string{"stream": "ks", "worker": me}); got != 4 ||
		desc["keyed_partitions"] != "4 of 4: 0,1,2,3" {
		t.Errorf("partitions_owned{worker=%s} = %v, DESCRIBE keyed_partitions %q; want all 4", me, got, desc["keyed_partitions"])
	}
	if got := labelled(m, "sluice_stream_partitions_total", ks); got != 4 {
		t.Errorf("partitions_total = %v, want 4", got)
	}
	if got := labelled(m, "sluice_stream_live_workers", ks); got != 1 || desc["keyed_live_workers"] != "1" {
		t.Errorf("live_workers = %v, DESCRIBE %q; want 1", got, desc["keyed_live_workers"])
	}
	if got := labelled(m, "sluice_stream_keyed_total", kind("partials")); got < 1 || !strings.Contains(desc["keyed_stats"], fmt.Sprintf("partials %d,", int(got))) {
		t.Errorf("keyed_total{kind=partials} = %v, DESCRIBE keyed_stats %q", got, desc["keyed_stats"])
	}
	if got := labelled(m, "sluice_stream_keyed_file_ids", ks); got < 0 {
		t.Error("keyed_file_ids missing")
	}
	if got := labelled(m, "sluice_stream_keyed_total", kind("forgotten")); got < 0 {
		t.Error("keyed_total{kind=forgotten} missing")
	}
	// The newest event is 10:01, the delay 10 s.
	wm := time.Unix(int64(labelled(m, "sluice_stream_keyed_watermark_seconds", ks)), 0).UTC()
	if want := ev.Add(time.Minute - 10*time.Second); !wm.Equal(want) || !strings.HasPrefix(desc["keyed_watermark"], want.Format("2006-01-02 15:04:05")) {
		t.Errorf("keyed watermark %v, DESCRIBE %q; want %v", wm, desc["keyed_watermark"], want)
	}
	if got := labelled(m, "sluice_stream_worker_info", map[string]string{"stream": "pl", "worker": "0", "workers": "3"}); got != 1 {
		t.Errorf("worker_info of pl = %v", got)
	}
	if got := labelled(m, "sluice_stream_queue_messages_total", map[string]string{"stream": "pl", "kind": "malformed"}); got != 1 {
		t.Errorf("queue_messages_total{stream=pl,kind=malformed} = %v, want 1", got)
	}
	if labelled(m, "sluice_stream_partitions_total", map[string]string{"stream": "pl"}) != -1 ||
		labelled(m, "sluice_stream_partitions_owned", map[string]string{"stream": "pl"}) != -1 {
		t.Error("partition series for a stream that is not keyed")
	}
	// Stopped, a stream runs no slot here.
	f.sql(200, "STOP STREAM pl")
	for deadline := time.Now().Add(10 * time.Second); labelled(f.scrape(), "sluice_stream_worker_info", map[string]string{"stream": "pl"}) != -1; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("worker_info of a stopped stream")
		}
	}
}
