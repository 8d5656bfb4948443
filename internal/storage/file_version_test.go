package storage

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSameVersionAndTrusted(t *testing.T) {
	for _, c := range []struct {
		old, now string
		same     bool
	}{
		{"a5-188672dda0c37000", "a5-188672dda0c37000", true},
		{"a5-188672dda0c37000", "a5-188672dda0c37000-18867-2f1", true}, // written before ctime and inode
		{"a5-188672dda0c37000", "a5-188672dda0c37001-18867-2f1", false},
		{"a5-188672dda0c37000-1-2", "a5-188672dda0c37000-1-3", false},
		{`"9b2cf535f27731c974343645a3985328"`, `"9b2cf535f27731c974343645a3985328"`, true},
		{"abc", "abc-3", false},
	} {
		if got := SameVersion(c.old, c.now); got != c.same {
			t.Errorf("SameVersion(%q, %q) = %v", c.old, c.now, got)
		}
	}
	for v, want := range map[string]bool{"a5-188672dda0c37000": false, "a5-1-2-3": true, `"9b2c"`: true, "9b2cf535f27731c974343645a3985328-3": true, "": false} {
		if Trusted(v) != want {
			t.Errorf("Trusted(%q) = %v", v, !want)
		}
	}
}

// TestLocalVersionSeesRewriteKeepingMTime: a rewrite that keeps size and
// mtime (cp -p) gives another ETag.
func TestLocalVersionSeesRewriteKeepingMTime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(p)
	if fi.Size() != fi2.Size() || !fi.ModTime().Equal(fi2.ModTime()) {
		t.Fatal("size or mtime differ")
	}
	if localVersion(fi) == localVersion(fi2) {
		t.Errorf("ETag %s kept across a rewrite", localVersion(fi))
	}
}
