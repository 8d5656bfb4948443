package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSkippingIndexRewriteKeepingSizeAndMTime: a file rewritten with its
// size and mtime kept (cp -p, rsync -a) is another version to the
// skipping index (its ctime and inode tell), so it is read, not skipped
// by the statistics of what it held before.
func TestSkippingIndexRewriteKeepingSizeAndMTime(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	a := filepath.Join(in, "a.json")
	writeFile(t, a, `{"v": 1}`+"\n")
	writeFile(t, filepath.Join(in, "b.json"), `{"v": 2}`+"\n")
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	mustExecAll(t, eng,
		"CREATE TABLE t (v BIGINT) USING json LOCATION '"+in+"/'",
		"CREATE SKIPPING INDEX ON t (v MIN_MAX)",
	)
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, same mtime, other content: as `cp -p` of another file.
	time.Sleep(10 * time.Millisecond) // the ctime moves on
	tmp := a + ".tmp"
	writeFile(t, tmp, `{"v": 7}`+"\n")
	if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, a); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(queryRows(t, eng, "SELECT v FROM t WHERE v = 7"), " "); got != "7" {
		t.Errorf("v = 7 found %q, want the rewritten file's row", got)
	}
	// Rewritten in place (same inode), size and mtime kept again.
	if err := os.WriteFile(a, []byte(`{"v": 8}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	mustExecAll(t, eng, "REFRESH SKIPPING INDEX ON t")
	if got := strings.Join(queryRows(t, eng, "SELECT v FROM t WHERE v = 8"), " "); got != "8" {
		t.Errorf("v = 8 found %q, want the file rewritten in place", got)
	}
}
