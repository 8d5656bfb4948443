package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/formatver"
)

// TestHistoryAcrossRestart: the console's history (samples and epochs)
// is saved in the data dir at Close and read at Open, so a restarted
// server's charts keep their past; the file carries its format version,
// and one of a newer version is not read.
func TestHistoryAcrossRestart(t *testing.T) {
	f := newFixtureWith(t, 6, func(o *Options) { o.HistoryInterval = 50 * time.Millisecond })
	f.sql(200, "CREATE TABLE out (id BIGINT, name STRING) USING json LOCATION '"+f.out+"/'")
	f.sql(200, "INSERT STREAM INTO out SELECT id, name FROM t WITH (name = 'feed', trigger = '20 milliseconds')")
	f.waitCount("out", 6, 10*time.Second)
	var before HistoryJSON
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := json.Unmarshal(f.do("GET", APIStreamsPath+"/feed/history", 200), &before); err != nil {
			t.Fatal(err)
		}
		if len(before.Epochs.Epoch) > 0 && len(before.Time) >= 2 {
			break
		}
	}
	if len(before.Epochs.Epoch) == 0 || len(before.Time) < 2 {
		t.Fatalf("no history before the restart: %+v", before)
	}
	f.post(APIStreamsPath+"/feed/stop", nil, 200)
	f.close()
	path := filepath.Join(f.dir, "data", HistoryFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"format_version":1`) || len(raw) > 1<<20 {
		t.Fatalf("%s: %d bytes, %.200s", HistoryFile, len(raw), raw)
	}

	f.open()
	var after HistoryJSON
	if err := json.Unmarshal(f.do("GET", APIStreamsPath+"/feed/history", 200), &after); err != nil {
		t.Fatal(err)
	}
	if len(after.Time) < len(before.Time) || len(after.Epochs.Epoch) < len(before.Epochs.Epoch) {
		t.Fatalf("after a restart: %d samples, %d epochs (before: %d, %d)", len(after.Time), len(after.Epochs.Epoch), len(before.Time), len(before.Epochs.Epoch))
	}
	if after.Epochs.Epoch[0] != before.Epochs.Epoch[0] || after.Epochs.SinkMS[0] != before.Epochs.SinkMS[0] {
		t.Errorf("epochs changed across the restart: %+v, before %+v", after.Epochs, before.Epochs)
	}

	// A newer binary's file is refused with its reader named, and the
	// server starts with empty charts.
	f.close()
	if err := os.WriteFile(path, []byte(`{"format_version": 99, "format_reader": "0.x (commit fffffff or later)", "streams": {"feed": {"samples": [{"t": 1}]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHistory(time.Second)
	err = h.load(path, time.Now())
	if err == nil || !strings.Contains(err.Error(), "0.x (commit fffffff or later)") || !strings.Contains(err.Error(), formatver.ConsoleHistory.Name) {
		t.Fatalf("loading a newer history: %v", err)
	}
	if len(h.series("feed")) != 0 {
		t.Fatal("a refused history was read")
	}
}
