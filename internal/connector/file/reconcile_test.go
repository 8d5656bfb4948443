package file

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// quietPut writes an object into the gateway's posix root behind its
// back: the object is there, its event never is (the publisher lost it).
func (r *notifyRig) quietPut(bucket, key string) {
	r.t.Helper()
	p := filepath.Join(r.s3.Dir, bucket, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{\"id\": 1}\n"), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// TestReconcileFindsLostEvents: objects that land without their event
// are read within a reconcile interval, once each, and counted; objects
// notified and listed both are read once; a restart resumes from the
// high-water mark in the checkpoint; a late key below the mark is found
// by the periodic full listing.
func TestReconcileFindsLostEvents(t *testing.T) {
	r := newNotifyRig(t, "1s")
	var mu sync.Mutex
	var warnings []string
	opts := map[string]string{"reconcile_interval": "1s", "reconcile_full_every": "3", "max_files_per_trigger": "2"}
	ss := r.source(opts, -1)
	ss.Warnf = func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		warnings = append(warnings, fmt.Sprintf(f, a...))
	}
	defer ss.Close()
	// The backfill (empty): what follows is the queue's and reconcile's.
	if off, keys := latestKeys(t, ss); off != nil {
		t.Fatalf("backfill read %v", keys)
	}
	r.put("lake", "in/a.json")
	r.quietPut("lake", "in/b.json")
	r.put("lake", "in/c.json")
	r.quietPut("lake", "in/d.json")
	r.quietPut("lake", "in/e.json")
	read := map[string]int{}
	var epoch int64
	t0 := time.Now()
	drain(t, ss, &epoch, read, 5, 10*time.Second)
	took := time.Since(t0)
	st, _ := ss.NotifyStats()
	if st.Reconciled != 3 || st.Files != 2 {
		t.Fatalf("reconciled %d, notified %d (want 3 and 2); stats %+v", st.Reconciled, st.Files, st)
	}
	t.Logf("5 files (3 without events) read in %s", took)
	// Nothing more, however many reconciles run.
	time.Sleep(2500 * time.Millisecond)
	for i := 0; i < 5; i++ {
		if off, keys := latestKeys(t, ss); off != nil {
			t.Fatalf("read again: %v", keys)
		}
		time.Sleep(300 * time.Millisecond)
	}
	mu.Lock()
	if len(warnings) == 0 || !strings.Contains(warnings[0], "found 3 file(s) the notifications missed") {
		t.Errorf("warnings %q", warnings)
	}
	mu.Unlock()
	var m reconcileMark
	if err := ss.readJSON(context.Background(), ss.reconcileKey(), &m); err != nil {
		t.Fatal(err)
	}
	if m.HighWater != "in/e.json" || m.Version != 1 || m.Listings < 2 {
		t.Fatalf("mark %+v", m)
	}
	desc := map[string]string{}
	for _, kv := range ss.StreamDescription() {
		desc[kv[0]] = kv[1]
	}
	if desc["queue_reconciled"] != "3" || desc["reconcile_interval"] != "1s" {
		t.Errorf("DESCRIBE rows %v", desc)
	}
	qs, _ := ss.QueueStatus()
	if c := qs.Counts[len(qs.Counts)-1]; c.Kind != "reconciled" || c.N != 3 {
		t.Errorf("queue counts %v", qs.Counts)
	}

	// A restart: the mark comes back from the checkpoint; a new key past
	// it and a late one below it (an older name uploaded now) are both
	// found, the late one by a full listing.
	ss.Close()
	ss2 := r.source(opts, epoch-1)
	defer ss2.Close()
	if got := ss2.notify.rc.mark.HighWater; got != "in/e.json" {
		t.Fatalf("restored mark %q", got)
	}
	r.quietPut("lake", "in/f.json")
	r.quietPut("lake", "in/0-late.json")
	r.put("lake", "in/g.json")
	drain(t, ss2, &epoch, read, 8, 15*time.Second)
	for k, n := range read {
		if n != 1 {
			t.Errorf("%s read %d times", k, n)
		}
	}
	if st, _ := ss2.NotifyStats(); st.Reconciled != 2 {
		t.Fatalf("after restart reconciled %d, want 2; stats %+v", st.Reconciled, st)
	}
}

// TestReconcileOptions: the interval's default, off, and what is refused.
func TestReconcileOptions(t *testing.T) {
	o, err := parseSourceOptions(map[string]string{})
	if err != nil || o.ReconcileInterval != 5*time.Minute || o.ReconcileFullEvery != 12 {
		t.Fatalf("defaults %v %v %v", o.ReconcileInterval, o.ReconcileFullEvery, err)
	}
	for _, off := range []string{"0", "off", "OFF"} {
		if o, err := parseSourceOptions(map[string]string{"reconcile_interval": off}); err != nil || o.ReconcileInterval != 0 {
			t.Errorf("%q: %v %v", off, o.ReconcileInterval, err)
		}
	}
	if o, err := parseSourceOptions(map[string]string{"reconcile_interval": "10 minutes"}); err != nil || o.ReconcileInterval != 10*time.Minute {
		t.Errorf("10 minutes: %v %v", o.ReconcileInterval, err)
	}
	for k, v := range map[string]string{"reconcile_interval": "soon", "reconcile_full_every": "-1"} {
		if _, err := parseSourceOptions(map[string]string{k: v}); err == nil {
			t.Errorf("%s = %q accepted", k, v)
		}
	}
}

// TestReconcileWaitsForRedelivery: after a crash, the dead run's
// messages are out until the queue's deadline; a reconcile meanwhile
// would take their files for lost. It waits, and the file comes by its
// redelivered event, not counted as reconciled.
func TestReconcileWaitsForRedelivery(t *testing.T) {
	r := newNotifyRig(t, "3s")
	opts := map[string]string{"reconcile_interval": "200ms"}
	ss := r.source(opts, -1)
	defer ss.Close()
	if off, keys := latestKeys(t, ss); off != nil {
		t.Fatalf("backfill read %v", keys)
	}
	r.put("lake", "in/a.json")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if off, keys := latestKeys(t, ss); off != nil {
			if strings.Join(keys, ",") != "in/a.json" {
				t.Fatalf("planned %v", keys)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no event for in/a.json")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // past the grace and the interval
	ss.Close()                         // killed before the epoch committed
	ss2 := r.source(opts, -1)
	defer ss2.Close()
	read := map[string]int{}
	var epoch int64
	drain(t, ss2, &epoch, read, 1, 15*time.Second)
	if st, _ := ss2.NotifyStats(); st.Reconciled != 0 || st.Files != 1 {
		t.Fatalf("reconciled %d, notified %d: want 0 and 1", st.Reconciled, st.Files)
	}
}

// TestReconcileYoungFiles: a file modified within the grace (half the
// interval here) is left to its event and the mark stays before it, but
// the listing goes on past it; the next reconcile takes it. The clock is
// the source's, the files' times are set on the gateway's disk.
func TestReconcileYoungFiles(t *testing.T) {
	r := newNotifyRig(t, "1s")
	t0 := time.Now()
	var mu sync.Mutex
	clock := t0
	ss := clockedSource(t, r, map[string]string{"reconcile_interval": "10s"}, -1, func() time.Time { mu.Lock(); defer mu.Unlock(); return clock })
	defer ss.Close()
	if off, keys := latestKeys(t, ss); off != nil {
		t.Fatalf("backfill read %v", keys)
	}
	put := func(key string, mtime time.Time) { r.quietPutAt("lake", key, mtime) }
	put("in/a.json", t0.Add(-time.Hour))
	put("in/b-young.json", t0.Add(8*time.Second))
	put("in/m.json", t0.Add(-time.Hour))
	mark := func() string {
		var m reconcileMark
		if err := ss.readJSON(context.Background(), ss.reconcileKey(), &m); err != nil {
			t.Fatal(err)
		}
		return m.HighWater
	}
	mu.Lock()
	clock = t0.Add(10 * time.Second) // due; b-young is 2s old, a and m an hour
	mu.Unlock()
	read := map[string]int{}
	var epoch int64
	drain(t, ss, &epoch, read, 2, 5*time.Second)
	if read["in/a.json"] != 1 || read["in/m.json"] != 1 {
		t.Fatalf("first reconcile read %v, want a and m", read)
	}
	if got := mark(); got != "in/a.json" {
		t.Fatalf("mark %q, want in/a.json (before the young file)", got)
	}
	mu.Lock()
	clock = t0.Add(20 * time.Second)
	mu.Unlock()
	drain(t, ss, &epoch, read, 3, 5*time.Second)
	if read["in/b-young.json"] != 1 {
		t.Fatalf("second reconcile read %v", read)
	}
	if st, _ := ss.NotifyStats(); st.Reconciled != 3 || st.Reconciles != 2 {
		t.Fatalf("stats %+v", st)
	}
	if got := mark(); got != "in/m.json" {
		t.Fatalf("mark %q, want in/m.json", got)
	}
}

func merged(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// clockedSource is notifyRig.source on the clock now.
func clockedSource(t *testing.T, r *notifyRig, opts map[string]string, committed int64, now func() time.Time) *StreamSource {
	t.Helper()
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "land", Using: "json", Location: "s3://lake/in/",
		Options: merged(r.opts, opts), Schema: schema(arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true})})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		t.Fatal(err)
	}
	ss.Warnf = func(string, ...any) {}
	ss.Now = now
	if err := ss.Recover(context.Background(), r.area, committed); err != nil {
		t.Fatal(err)
	}
	return ss
}

// quietPutAt is quietPut with the object's modification time set.
func (r *notifyRig) quietPutAt(bucket, key string, mtime time.Time) {
	r.t.Helper()
	r.quietPut(bucket, key)
	if err := os.Chtimes(filepath.Join(r.s3.Dir, bucket, filepath.FromSlash(key)), mtime, mtime); err != nil {
		r.t.Fatal(err)
	}
}

// TestReconcileRestartOpen: a run killed after a reconcile took a file
// but before its epoch committed leaves the mark open; the next run
// reconciles at once, not an interval later, and counts the file once.
func TestReconcileRestartOpen(t *testing.T) {
	r := newNotifyRig(t, "1s")
	t0 := time.Now()
	opts := map[string]string{"reconcile_interval": "10s"}
	ss := clockedSource(t, r, opts, -1, func() time.Time { return t0 })
	if off, keys := latestKeys(t, ss); off != nil {
		t.Fatalf("backfill read %v", keys)
	}
	r.quietPutAt("lake", "in/a.json", t0.Add(-time.Hour))
	ss.Now = func() time.Time { return t0.Add(10 * time.Second) }
	if _, keys := latestKeys(t, ss); strings.Join(keys, ",") != "in/a.json" {
		t.Fatalf("reconcile planned %v", keys)
	}
	ss.Close() // killed before the epoch committed (nor were its offsets written)
	ss2 := clockedSource(t, r, opts, -1, func() time.Time { return t0.Add(11 * time.Second) })
	defer ss2.Close()
	read := map[string]int{}
	var epoch int64
	drain(t, ss2, &epoch, read, 1, 5*time.Second)
	if st, _ := ss2.NotifyStats(); st.Reconciled != 1 {
		t.Fatalf("stats %+v", st)
	}
	var m reconcileMark
	if err := ss2.readJSON(context.Background(), ss2.reconcileKey(), &m); err != nil {
		t.Fatal(err)
	}
	if m.Open || m.HighWater != "in/a.json" {
		t.Fatalf("mark %+v", m)
	}
}
