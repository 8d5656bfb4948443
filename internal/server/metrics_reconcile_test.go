package server

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"sluice/internal/testutil/natsserver"
)

// TestMetricsReconcile: a notification stream whose publisher lost one
// event reads the file through a reconcile listing and counts it in
// /metrics (the epoch counter and the queue's kind) and DESCRIBE STREAM.
// The events go straight to JetStream over a local table.
func TestMetricsReconcile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS")
	}
	ns := natsserver.StartTB(t)
	if err := ns.AddStream("s3events", "s3.events"); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, 0)
	f.sql(200, "CREATE TABLE src (id BIGINT) USING json LOCATION '"+f.in+"/k/'")
	f.sql(200, "CREATE TABLE raw (id BIGINT) USING json LOCATION '"+f.out+"-raw/'")
	f.sql(200, "INSERT STREAM INTO raw SELECT id FROM src WITH (name = 'rc', trigger = '100 milliseconds', "+
		"discovery = 'notifications', discovery_backfill = 'false', reconcile_interval = '500ms', "+
		"queue = '"+ns.URL+"/s3events/rc?ack_wait=1s', checkpoint_location = '"+filepath.Join(f.dir, "cp")+"')")
	time.Sleep(200 * time.Millisecond) // the stream's start: files before it are backfill's, which is off
	for i := 0; i < 3; i++ {
		writeFile(t, filepath.Join(f.in, "k", fmt.Sprintf("f%d.json", i)), fmt.Sprintf(`{"id": %d}`+"\n", i))
		if i == 1 {
			continue // its event is lost
		}
		msg := fmt.Sprintf(`{"Records":[{"eventVersion":"2.1","eventSource":"aws:s3","eventName":"ObjectCreated:Put","s3":{"bucket":{"name":"lake"},"object":{"key":"k/f%d.json","size":10}}}]}`, i)
		if err := ns.Publish("s3.events", []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	rc := map[string]string{"stream": "rc"}
	var m map[string]*dto.MetricFamily
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		m = f.scrape()
		if labelled(m, "sluice_stream_input_files_total", rc) == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("read %v files, want 3", labelled(m, "sluice_stream_input_files_total", rc))
		}
	}
	if got := labelled(m, "sluice_stream_reconciled_files_total", rc); got != 1 {
		t.Errorf("reconciled_files_total = %v, want 1", got)
	}
	if got := labelled(m, "sluice_stream_queue_messages_total", map[string]string{"stream": "rc", "kind": "reconciled"}); got != 1 {
		t.Errorf("queue_messages_total{kind=reconciled} = %v, want 1", got)
	}
	desc := map[string]string{}
	for _, r := range f.sql(200, "DESCRIBE STREAM rc").Datarows {
		if len(r) >= 2 {
			desc[fmt.Sprint(r[0])] = fmt.Sprint(r[1])
		}
	}
	if desc["reconciled_files"] != "1" || desc["queue_reconciled"] != "1" || desc["reconcile_interval"] != "500ms" {
		t.Errorf("DESCRIBE STREAM %v", desc)
	}
}
