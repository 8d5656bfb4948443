package engine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// dirContents reads every file under dir, to show a refused restart
// wrote nothing.
func dirContents(t *testing.T, dir string) string {
	t.Helper()
	var parts []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		parts = append(parts, p+"\n"+string(data))
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\n")
}

// TestStreamStateMatchesPlanOnRestart restarts a windowed count with an
// incompatible query (another group key: refused, nothing run or
// written) and with a compatible one (another WHERE in front, another
// projection after: it resumes from its window state).
func TestStreamStateMatchesPlanOnRestart(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	writeFile(t, filepath.Join(in, "a.json"), `{"status": 500, "host": "h1", "ts": "2026-11-30T10:01:00Z"}
{"status": 200, "host": "h2", "ts": "2026-11-30T10:02:00Z"}
{"status": 500, "host": "h2", "ts": "2026-11-30T10:03:00Z"}
`)
	writeFile(t, filepath.Join(in, "b.json"), `{"status": 500, "host": "h3", "ts": "2026-11-30T10:04:00Z"}
{"status": 200, "host": "h1", "ts": "2026-11-30T10:07:00Z"}
`)
	writeFile(t, filepath.Join(in, "c.json"), `{"status": 500, "host": "h1", "ts": "2026-11-30T10:12:00Z"}
`)
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mustExecAll(t, eng,
		"CREATE TABLE src (status INT, host STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE TABLE out (w TIMESTAMP, status INT, n BIGINT) USING json LOCATION '"+out+"/'",
	)
	with := " WITH (name = 'errors_5m', trigger = 'once', max_files_per_trigger = 1)"
	// Epoch 0 reads a.json; no window closes yet, the counts are state.
	mustExec(t, eng, "INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, status, count(*) FROM src GROUP BY TUMBLE(ts, '5 minutes'), status"+with)
	before := dirContents(t, out)

	_, err = eng.Execute(ctx, "INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, status, count(*) FROM src GROUP BY TUMBLE(ts, '5 minutes'), status, host"+with)
	if err == nil {
		t.Fatal("a restart with other group keys ran")
	}
	cp := filepath.Join(dir, "data", "checkpoints", "errors_5m")
	for _, want := range []string{"stream errors_5m:", "no longer matches checkpoint", cp,
		"window_aggregate-0: group keys were [status INT] and are now [status INT, host STRING]",
		"use a new checkpoint_location or delete the checkpoint"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if after := dirContents(t, out); after != before {
		t.Fatalf("the refused restart changed the sink:\n%s\nwas:\n%s", after, before)
	}
	if desc := strings.Join(queryRows(t, eng, "DESCRIBE STREAM errors_5m"), "\n"); !strings.Contains(desc, "last_epoch 0") {
		t.Fatalf("the refused restart ran an epoch:\n%s", desc)
	}

	// A filter in front and a projection after keep the state: h3's row is
	// filtered, and the 10:00 window still holds epoch 0's counts.
	mustExec(t, eng, "INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, status, count(*) + 0 FROM src WHERE host <> 'h3' GROUP BY TUMBLE(ts, '5 minutes'), status WITH (name = 'errors_5m', trigger = 'available_now', max_files_per_trigger = 1)")
	got := queryRows(t, eng, "SELECT * FROM out")
	want := []string{"2026-11-30 10:00:00 200 1", "2026-11-30 10:00:00 500 2", "2026-11-30 10:05:00 200 1"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("out: %v\nwant %v", got, want)
	}
}

// TestMaterializedViewRecreatedWithOtherKeys: a view created over the
// checkpoint of another with other group keys is refused, and the undo of
// the failed CREATE leaves that checkpoint alone (the new view did not
// write it).
func TestMaterializedViewRecreatedWithOtherKeys(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), `{"status": 500, "host": "h1", "ts": "2026-11-30T10:01:00Z"}
{"status": 503, "host": "h2", "ts": "2026-11-30T10:02:00Z"}
`)
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	cp := "file://" + filepath.ToSlash(filepath.Join(dir, "mvcp"))
	mustExecAll(t, eng,
		"CREATE TABLE logs (status INT, host STRING, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '"+in+"/'",
		"CREATE MATERIALIZED VIEW errors_5m AS SELECT TUMBLE(ts, '5 minutes').start AS w, status, count(*) AS n FROM logs GROUP BY TUMBLE(ts, '5 minutes'), status WITH (auto_refresh = false, checkpoint_location = '"+cp+"')",
	)
	_, err = eng.Execute(context.Background(), "CREATE MATERIALIZED VIEW errors_by_host AS SELECT TUMBLE(ts, '5 minutes').start AS w, status, count(*) AS n FROM logs GROUP BY TUMBLE(ts, '5 minutes'), status, host WITH (auto_refresh = false, checkpoint_location = '"+cp+"')")
	if err == nil {
		t.Fatal("a view with other keys over an existing checkpoint ran")
	}
	for _, want := range []string{"stream mv_errors_by_host:", "group keys were [status INT] and are now [status INT, host STRING]", "new checkpoint_location"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if _, serr := os.Stat(filepath.Join(dir, "mvcp", "commits", "0")); serr != nil {
		t.Fatalf("the failed CREATE removed the other view's checkpoint: %v", serr)
	}
	if _, err := eng.Execute(context.Background(), "REFRESH MATERIALIZED VIEW errors_5m"); err != nil {
		t.Fatalf("the first view no longer refreshes: %v", err)
	}
}
