package crashtest

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWorkerQueueOutage: a worker (in `sluice serve`) whose NATS server
// goes down says so in DESCRIBE STREAM (last_error names the queue as
// unreachable), commits no epoch while it cannot acknowledge, retries
// with backoff, and once the server is back reads what landed, the
// sink equal to a batch INSERT.
func TestWorkerQueueOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/sluice, starts NATS and an S3 server")
	}
	o := newOutage(t, "nats")
	o.upload(t, 3)
	remote, url := serveProcessURL(t, o.bin, filepath.Join(o.dir, "served"), "--stream-retry-initial", "200ms", "--stream-retry-max", "1s")
	remote(script(append(append(append([]string{}, o.session...), o.tables...), o.stmt())...))
	describe := func() map[string]string {
		d := map[string]string{}
		for _, line := range strings.Split(remote("DESCRIBE STREAM feed"), "\n") {
			if k, v, ok := strings.Cut(line, ","); ok {
				d[k] = strings.Trim(v, `"`)
			}
		}
		return d
	}
	state := func() string { return fmt.Sprint(describe()) }
	o.waitRows(t, "before the outage", state)

	o.down()
	t0 := time.Now()
	var d map[string]string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		d = describe()
		if strings.Contains(d["last_error"], "queue unreachable") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("DESCRIBE STREAM does not say the queue is unreachable: %v", d)
		}
	}
	t.Logf("%s after the outage began: state %q, last_error %q", time.Since(t0).Round(time.Millisecond), d["state"], d["last_error"])
	before := o.commits()
	time.Sleep(3 * time.Second) // several retries
	if got := o.commits(); got != before {
		t.Errorf("%d epochs committed while the queue was down", got-before)
	}
	d = describe()
	if d["state"] != "retrying" || !strings.Contains(d["last_error"], "unreachable") {
		t.Errorf("DESCRIBE STREAM during the outage: %v, want state retrying and the queue unreachable", d)
	}
	if n, _ := strconv.Atoi(d["queue_unreachable"]); n < 3 {
		t.Errorf("DESCRIBE STREAM counts %q failed runs in 3 s of outage, want several", d["queue_unreachable"])
	}
	if m := metric(t, url, `sluice_stream_queue_unreachable_total{stream="feed"}`); m < 3 {
		t.Errorf("sluice_stream_queue_unreachable_total is %v in 3 s of outage, want several", m)
	}

	if err := o.up(); err != nil {
		t.Fatal(err)
	}
	o.upload(t, 3)
	o.waitRows(t, "after the outage", state)
	for deadline := time.Now().Add(20 * time.Second); describe()["state"] != "running"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not running again: %v", describe())
		}
	}
	time.Sleep(1200 * time.Millisecond)
	o.compare(t)
}

// metric reads one series' value from the server's /metrics (-1 when
// it is missing).
func metric(t *testing.T, url, series string) float64 {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f
		}
	}
	return -1
}
