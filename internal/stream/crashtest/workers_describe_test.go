package crashtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/engine"
)

// resultRows runs q on eng and returns its last result's rows, cells
// joined by '|'.
func resultRows(t *testing.T, eng *engine.Engine, q string) ([]string, error) {
	t.Helper()
	res, err := eng.Execute(context.Background(), q)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, b := range res[len(res)-1].Batches {
		for r := 0; r < int(b.NumRows()); r++ {
			var cells []string
			for c := 0; c < int(b.NumCols()); c++ {
				cells = append(cells, b.Column(c).ValueStr(r))
			}
			out = append(out, strings.Join(cells, "|"))
		}
	}
	return out, nil
}

// TestWorkersDescribe: DESCRIBE STREAM of a running worker names its
// slot and the queue's backlog; workers refuse a stateful query and a
// listing source.
func TestWorkersDescribe(t *testing.T) {
	ns, srv := needNotify(t)
	bucket := fmt.Sprintf("describe%d-%d", os.Getpid(), bucketN.Add(1))
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := notifyScenarioIn(t, ns, srv, bucket, dir, 3)
	eng, err := engine.Open(engine.Options{DataDir: s.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, q := range append(append([]string{}, s.session...), s.setup...) {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	queue := fmt.Sprintf("%s/s3events/%s?ack_wait=1s", ns.URL, bucket)
	for stmt, want := range map[string]string{
		"INSERT STREAM INTO out SELECT count(*), status, max(msg) FROM src GROUP BY status WITH (name = 'agg', workers = 2, output_mode = 'complete', " +
			"discovery = 'notifications', queue = '" + queue + "', checkpoint_location = '" + filepath.Join(dir, "cpagg") + "')": "cannot run output_mode = 'complete'",
		"INSERT STREAM INTO out SELECT id, status, msg FROM src WITH (name = 'lst', workers = 2, checkpoint_location = '" + filepath.Join(dir, "cplst") + "')": "needs discovery = 'notifications'",
	} {
		if _, err := eng.Execute(context.Background(), stmt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", stmt, err, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := eng.Execute(ctx, "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 "+
			"WITH (name = 'feed', trigger = '200 milliseconds', workers = 2, discovery = 'notifications', queue = '"+queue+"', "+
			"checkpoint_location = '"+filepath.Join(dir, "cp")+"')")
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		rows, _ := resultRows(t, eng, "DESCRIBE STREAM feed")
		desc := map[string]string{}
		for _, r := range rows {
			k, v, _ := strings.Cut(r, "|")
			desc[k] = v
		}
		if desc["worker"] == "0 of 2" && desc["queue_backlog_pending"] == "0" && desc["queue_backlog_unacked"] == "0" && desc["rows_out"] != "0" && desc["rows_out"] != "" {
			if strings.Contains(desc["queue"], srv.SecretKey) {
				t.Errorf("queue row leaks a secret: %s", desc["queue"])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("DESCRIBE STREAM: %v", desc)
		}
		time.Sleep(100 * time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the stream did not stop")
	}
}
