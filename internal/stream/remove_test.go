package stream

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/storage"
)

func writeFiles(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func localCheckpoint(t *testing.T, dir string) *Checkpoint {
	t.Helper()
	st, err := storage.NewLocalStore(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	return &Checkpoint{Store: st, Prefix: filepath.Base(dir) + "/"}
}

func TestRemoveCheckpointLocal(t *testing.T) {
	root := t.TempDir()
	cp := filepath.Join(root, "cp")
	writeFiles(t, cp, "offsets/0", "commits/0", "state/0/0", "sources/0/seen/0", ".lock", "stop", ".sluice-tmp-123")
	if err := RemoveCheckpoint(context.Background(), localCheckpoint(t, cp)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("checkpoint folder still there: %v", err)
	}
	// A checkpoint that is not there is already removed.
	if err := RemoveCheckpoint(context.Background(), localCheckpoint(t, cp)); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveCheckpointRefusesForeignFiles(t *testing.T) {
	root := t.TempDir()
	cp := filepath.Join(root, "mine")
	writeFiles(t, cp, "offsets/0", "commits/0", "notes.txt", "photos/cat.jpg")
	err := RemoveCheckpoint(context.Background(), localCheckpoint(t, cp))
	if !errors.Is(err, ErrForeignFiles) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("err = %v, want ErrForeignFiles naming notes.txt", err)
	}
	for _, n := range []string{"offsets/0", "commits/0", "notes.txt", "photos/cat.jpg"} {
		if _, err := os.Stat(filepath.Join(cp, n)); err != nil {
			t.Errorf("%s was touched: %v", n, err)
		}
	}
}

func TestRemoveCheckpointKeepsSymlinkTargets(t *testing.T) {
	root := t.TempDir()
	cp := filepath.Join(root, "cp")
	outside := filepath.Join(root, "precious")
	writeFiles(t, outside, "keep.txt")
	writeFiles(t, cp, "offsets/0")
	if err := os.Symlink(outside, filepath.Join(cp, "state")); err != nil {
		t.Fatal(err)
	}
	if err := RemoveCheckpoint(context.Background(), localCheckpoint(t, cp)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(outside, "keep.txt")); err != nil {
		t.Fatalf("symlink target lost: %v", err)
	}
}

func TestRemoveCheckpointObjectStore(t *testing.T) {
	ctx := context.Background()
	st := storage.NewMemStore("t")
	for _, k := range []string{"cp/offsets/0", "cp/commits/0", "cp/lock", "other/x"} {
		if err := st.Put(ctx, k, strings.NewReader("x"), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := RemoveCheckpoint(ctx, &Checkpoint{Store: st, Prefix: "cp/"}); err != nil {
		t.Fatal(err)
	}
	var left []string
	_ = st.List(ctx, "", "", func(o storage.ObjectInfo) error { left = append(left, o.Key); return nil })
	if strings.Join(left, ",") != "other/x" {
		t.Fatalf("left %v, want only other/x", left)
	}
	_ = st.Put(ctx, "cp2/offsets/0", strings.NewReader("x"), false)
	_ = st.Put(ctx, "cp2/README", strings.NewReader("x"), false)
	if err := RemoveCheckpoint(ctx, &Checkpoint{Store: st, Prefix: "cp2/"}); !errors.Is(err, ErrForeignFiles) {
		t.Fatalf("err = %v, want ErrForeignFiles", err)
	}
}
