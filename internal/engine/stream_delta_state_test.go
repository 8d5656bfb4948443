package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// deltaStateRun streams 40 one-file epochs through a 1-minute tumbling
// update aggregate whose 10-minute watermark delay keeps ~10 windows
// open, restarting the engine every `restartEvery` epochs (0: one straight
// run), into a JSON table (every update row kept). It returns the rows
// written and the count of full and delta state files the checkpoint
// holds at the end.
func deltaStateRun(t *testing.T, restartEvery int) (rows []string, full, deltas int) {
	t.Helper()
	const files, per = 40, 150
	dir := t.TempDir()
	in, data := filepath.Join(dir, "in"), filepath.Join(dir, "data")
	base := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for f := 0; f < files; f++ {
		var sb strings.Builder
		for r := 0; r < per; r++ {
			id := f*per + r
			// A second a row with up to 40 s of disorder.
			ts := base.Add(time.Duration(id)*time.Second - time.Duration(id*7919%40)*time.Second)
			fmt.Fprintf(&sb, "{\"ts\": %q, \"k\": \"k%d\", \"v\": %d}\n", ts.Format(time.RFC3339), id%7, id%13)
		}
		writeFile(t, filepath.Join(in, fmt.Sprintf("f%03d.json", f)), sb.String())
	}
	eng, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng,
		"CREATE TABLE src (ts TIMESTAMP, k STRING, v BIGINT, WATERMARK FOR ts AS ts - INTERVAL 10 MINUTES) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'")
	q := "INSERT STREAM INTO out SELECT TUMBLE(ts, '1 minute').start, k, count(*), sum(v) FROM src GROUP BY TUMBLE(ts, '1 minute'), k WITH (name = 'd', output_mode = 'update', trigger = '%s', max_files_per_trigger = 1)"
	if restartEvery == 0 {
		mustExecAll(t, eng, fmt.Sprintf(q, "available_now"))
	} else {
		for i := 0; i < files+2; i++ {
			e, err := Open(Options{DataDir: data})
			if err != nil {
				t.Fatal(err)
			}
			mustExecAll(t, e, fmt.Sprintf(q, "once"))
		}
	}
	_ = filepath.WalkDir(data, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), "/state/") {
			if strings.HasSuffix(p, ".delta") {
				deltas++
			} else {
				full++
			}
		}
		return nil
	})
	return queryRows(t, eng, "SELECT w, k, n, s FROM out"), full, deltas
}

// TestStreamDeltaStateRestartsEqualStraight: over 40 epochs the window
// aggregate's state is saved as deltas with full snapshots in between;
// restarting (restore = full snapshot + deltas) before every epoch
// writes exactly the rows of one straight run.
func TestStreamDeltaStateRestartsEqualStraight(t *testing.T) {
	straight, full, deltas := deltaStateRun(t, 0)
	if full < 2 || deltas < 20 {
		t.Fatalf("straight run saved %d full snapshots and %d deltas: want compactions between deltas", full, deltas)
	}
	restarted, _, _ := deltaStateRun(t, 1)
	if len(straight) == 0 || strings.Join(restarted, "\n") != strings.Join(straight, "\n") {
		t.Fatalf("restarted run wrote %d rows, straight %d:\n%s\nvs\n%s", len(restarted), len(straight),
			strings.Join(restarted, "\n"), strings.Join(straight, "\n"))
	}
}
