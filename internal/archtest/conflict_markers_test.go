package archtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoMergeConflictMarkers: no tracked text file keeps the lines a
// failed merge leaves (one once sat in the README for a session).
func TestNoMergeConflictMarkers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		t.Skipf("no git checkout: %v", err)
	}
	markers := [][]byte{[]byte("<<<<<<< "), []byte(">>>>>>> ")}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !textFile(f) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the work tree
		}
		for i, line := range bytes.Split(data, []byte("\n")) {
			for _, m := range markers {
				if bytes.HasPrefix(line, m) {
					t.Errorf("%s:%d: a merge conflict marker: %.40s", f, i+1, line)
				}
			}
		}
	}
}

// textFile: the kinds of files a merge can leave markers in that the
// build would not catch.
func textFile(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".md", ".slt", ".sql", ".sh", ".py", ".toml", ".yaml", ".yml", ".json", ".txt", ".html", ".js", ".css":
		return true
	}
	return false
}
