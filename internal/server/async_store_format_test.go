package server

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAsyncStoreFormat: a record without a version (written before
// versions) loads as version 1, a record written now carries its
// version, and one newer than this binary reads stops the store from
// opening (the server from starting), naming file, version and reader.
func TestAsyncStoreFormat(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	old := `{"queryId": "aaaaaaaaaaaaaaaa", "sessionId": "s", "lang": "sql", "statement": "SELECT 1", "status": "SUCCESS", "submitted": "` + time.Now().UTC().Format(time.RFC3339) + `"}`
	if err := os.WriteFile(filepath.Join(dir, "aaaaaaaaaaaaaaaa.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := openAsyncStore(dir, time.Hour, log)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := a.get("aaaaaaaaaaaaaaaa"); !ok || r.Status != asyncSuccess {
		t.Fatalf("unversioned record = %+v, %v", r, ok)
	}
	if err := a.put(asyncRecord{ID: "bbbbbbbbbbbbbbbb", Lang: "sql", Status: asyncRunning, Submitted: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "bbbbbbbbbbbbbbbb.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"format_version": 1`) {
		t.Fatalf("record = %s, want its format version", b)
	}
	newer := strings.Replace(string(b), `"format_version": 1`, `"format_version": 2`, 1)
	newer = strings.Replace(newer, `"format_reader": "`, `"format_reader": "0.x (commit f00dfee or later)", "was": "`, 1)
	if err := os.WriteFile(p, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = openAsyncStore(dir, time.Hour, log)
	if err == nil {
		t.Fatal("a newer record was read")
	}
	for _, want := range []string{p, "format version 2", "needs sluice 0.x (commit f00dfee or later)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("openAsyncStore: %v, want it to name %q", err, want)
		}
	}
}
