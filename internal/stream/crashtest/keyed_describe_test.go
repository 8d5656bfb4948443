package crashtest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/engine"
)

// TestKeyedDescribe: DESCRIBE STREAM of a keyed worker shows the
// partitions it owns, every partition's owner and the watermark; a
// complete-mode aggregation is refused, and so is a restart with
// another partition count.
func TestKeyedDescribe(t *testing.T) {
	ns, srv := needNotify(t)
	bucket := newBucket(t, srv, "kdescribe")
	(&keyedUploader{srv: srv, bucket: bucket}).upload(t, 3)
	dir := t.TempDir()
	eng, err := engine.Open(engine.Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, q := range append(s3Session(srv),
		"CREATE TABLE src (id BIGINT, status INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 10 SECONDS) USING json LOCATION 's3://"+bucket+"/in/'",
		"CREATE TABLE out (w TIMESTAMP, status INT, n BIGINT) USING parquet LOCATION '"+filepath.Join(dir, "out")+"/'",
	) {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	name := fmt.Sprintf("kd%d", bucketN.Add(1))
	parts := "8"
	stmt := func(mode string) string {
		return "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, status, count(*) FROM src GROUP BY TUMBLE(ts, '1 minute'), status " +
			"WITH (name = '" + name + "', trigger = '200 milliseconds', workers = 2, partitions = " + parts + ", lock_ttl = '3 seconds', output_mode = '" + mode + "', " +
			"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + filepath.Join(dir, "cp-"+mode) + "')"
	}
	if _, err := eng.Execute(context.Background(), stmt("complete")); err == nil || !strings.Contains(err.Error(), "cannot run output_mode = 'complete'") {
		t.Errorf("complete mode with workers: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := eng.Execute(ctx, stmt("append"))
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	var desc map[string]string
	for {
		rows, _ := resultRows(t, eng, "DESCRIBE STREAM "+name)
		desc = map[string]string{}
		for _, r := range rows {
			k, v, _ := strings.Cut(r, "|")
			desc[k] = v
		}
		me := desc["keyed_worker"]
		if me != "" && desc["keyed_partitions"] == "8 of 8: 0,1,2,3,4,5,6,7" && desc["keyed_owners"] == me+": 0,1,2,3,4,5,6,7" &&
			desc["keyed_live_workers"] == "1" && strings.HasPrefix(desc["keyed_watermark"], "2026-12-01 10:0") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("DESCRIBE STREAM: %v", desc)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got, want := desc["keyed_replicas"], "stream sluice-"+name+" 1, stream sluice-"+name+"-wm 1, bucket sluice-"+name+" 1"; got != want {
		t.Errorf("keyed_replicas %q, want %q (the R1 events stream's count)", got, want)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the stream did not stop")
	}
	parts = "4"
	if _, err := eng.Execute(context.Background(), stmt("append")); err == nil || !strings.Contains(err.Error(), "partitions = 8") {
		t.Errorf("restart with another partition count: %v", err)
	}
}
