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

// reconcileInterval is the test streams' reconcile_interval.
const reconcileInterval = time.Second

// reconcileScenario is notifyScenario whose later objects (every third)
// land without their event: written into the gateway's posix root
// behind its back, as if the publisher had lost it. Only reconcile
// listings can find them; dropped counts them.
func reconcileScenario(t *testing.T, nFiles int) (*scenario, *int) {
	ns, srv := needNotify(t)
	bucket := newBucket(t, srv, "reconcile")
	dir := t.TempDir()
	s := notifyScenarioIn(t, ns, srv, bucket, dir, nFiles)
	dropped := new(int)
	local := filepath.Join(dir, "in")
	s.more = func(t *testing.T, from, n int) {
		t.Helper()
		writeInputsFrom(t, local, from, n, 50)
		for i := from; i < from+n; i++ {
			name := fmt.Sprintf("f%03d.json", i)
			data, err := os.ReadFile(filepath.Join(local, name))
			if err != nil {
				t.Fatal(err)
			}
			if i%3 != 2 {
				putNotified(t, srv, bucket, "in/"+name, data)
				continue
			}
			p := filepath.Join(srv.Dir, bucket, "in", name)
			if err := os.WriteFile(p+".tmp", data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(p+".tmp", p); err != nil { // never half there
				t.Fatal(err)
			}
			*dropped++
		}
		waitEvents(t, ns)
	}
	s.stmt = strings.Replace(s.stmt, "discovery = 'notifications'",
		fmt.Sprintf("discovery = 'notifications', reconcile_interval = '%s', reconcile_full_every = 4", reconcileInterval), 1)
	return s, dropped
}

// reconciledFiles is DESCRIBE STREAM's reconciled_files (0 when absent).
func reconciledFiles(t *testing.T, s *scenario) string {
	t.Helper()
	eng, err := engine.Open(engine.Options{DataDir: s.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, q := range s.session {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := resultRows(t, eng, "DESCRIBE STREAM feed")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if k, v, _ := strings.Cut(r, "|"); k == "reconciled_files" {
			return v
		}
	}
	return "0"
}

// TestCrashRecoveryReconcile: a notification stream whose publisher
// loses every third event, straight through and SIGKILLed at crash
// points and random moments: a run started one reconcile interval after
// the last objects landed reads every one of them, the stream equals
// the batch INSERT row for row (nothing lost, nothing read twice), and
// reconciled_files is the number of events lost, however the runs died.
func TestCrashRecoveryReconcile(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(map[bool]string{false: "straight", true: "killed"}[crash], func(t *testing.T) {
			s, dropped := reconcileScenario(t, 6)
			t0 := time.Now()
			if crash {
				killed, finished := s.killLoop(t, 12, 45)
				t.Logf("%d kills, %d runs caught up before the end, %d files (%d without events), done in %s",
					killed, finished, s.files, *dropped, time.Since(t0))
			} else {
				s.catchUp(t)
				s.more(t, s.files, 9)
				s.files += 9
				s.catchUp(t)
			}
			// The objects without events are found by the first run that
			// starts a reconcile interval after they landed.
			time.Sleep(reconcileInterval + 100*time.Millisecond)
			s.catchUp(t)
			s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
			s.compare(t, s.files*50*3/5)
			if got := reconciledFiles(t, s); got != fmt.Sprint(*dropped) || *dropped == 0 {
				t.Fatalf("reconciled_files = %s, want %d (the events dropped)", got, *dropped)
			}
		})
	}
}
