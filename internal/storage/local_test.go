package storage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLocalStoreContract(t *testing.T) {
	st, err := NewLocalStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testStoreContract(t, st)
	// No temp files may be left behind by Put, racing or not.
	filepath.WalkDir(st.Root(), func(p string, d os.DirEntry, err error) error {
		if strings.HasPrefix(d.Name(), tempPrefix) {
			t.Errorf("temp file left behind: %s", p)
		}
		return nil
	})
}

func TestLocalStoreDetails(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, _ := NewLocalStore(dir)

	// A temp file of an in-flight Put is never listed, even when the
	// prefix asks for dot-files.
	os.WriteFile(filepath.Join(dir, tempPrefix+"123"), []byte("partial"), 0o644)
	os.WriteFile(filepath.Join(dir, ".keep"), []byte(""), 0o644)
	put(t, st, "x", "1")
	if got := listKeys(t, st, "", ""); len(got) != 1 || got[0] != "x" {
		t.Fatalf("List = %q", got)
	}
	if got := listKeys(t, st, ".", ""); len(got) != 1 || got[0] != ".keep" {
		t.Fatalf("List(\".\") = %q", got)
	}

	// ETag changes when the file changes, is stable when it does not.
	a, _ := st.Stat(ctx, "x")
	b, _ := st.Stat(ctx, "x")
	if a.ETag != b.ETag {
		t.Fatalf("ETag not stable: %q %q", a.ETag, b.ETag)
	}
	put(t, st, "x", "22")
	c, _ := st.Stat(ctx, "x")
	if c.ETag == a.ETag {
		t.Fatalf("ETag did not change after rewrite: %q", c.ETag)
	}

	// A missing root lists nothing, and Put creates it.
	missing, _ := NewLocalStore(filepath.Join(dir, "no", "such"))
	if got := listKeys(t, missing, "", ""); len(got) != 0 {
		t.Fatalf("List on missing root = %q", got)
	}
	put(t, missing, "deep/k", "v")
	if got := listKeys(t, missing, "", ""); len(got) != 1 {
		t.Fatalf("after Put: %q", got)
	}

	// Symlinked directories are followed.
	os.Symlink(filepath.Join(dir, "no"), filepath.Join(dir, "link"))
	if got := listKeys(t, st, "link/", ""); len(got) != 1 || got[0] != "link/such/deep/k" {
		t.Fatalf("List through symlink = %q", got)
	}

	if s := st.String(); s != "file://"+filepath.ToSlash(dir) {
		t.Fatalf("String() = %q", s)
	}
}
