package engine

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestProgressTotals: the totals progress reports against are the files
// listed for the query's probe side (a join's build side is read before
// and is not counted), and every one of them is reported done.
func TestProgressTotals(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	var size int64
	for i, body := range []string{`{"uid": 1}` + "\n", `{"uid": 2}` + "\n" + `{"uid": 1}` + "\n"} {
		size += int64(len(body))
		if err := os.WriteFile(filepath.Join(logs, []string{"a.json", "b.json"}[i]), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	users := filepath.Join(dir, "users.json")
	if err := os.WriteFile(users, []byte(`{"uid": 1, "name": "ann"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var last Progress
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Progress: func(p Progress) {
		mu.Lock()
		last = p
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	mustExecAll(t, eng,
		"CREATE TABLE logs (uid BIGINT) USING json LOCATION '"+logs+"'",
		"CREATE TABLE users (uid BIGINT, name STRING) USING json LOCATION '"+users+"'")
	if got := queryRows(t, eng, "SELECT l.uid, u.name FROM logs l JOIN users u ON l.uid = u.uid"); len(got) != 2 {
		t.Fatalf("rows %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if last.FilesTotal != 2 || last.BytesTotal != size || last.FilesDone != 2 || last.RowsRead != 3 {
		t.Errorf("final progress %+v, want 2 of 2 files, %d bytes, 3 rows", last, size)
	}
}
