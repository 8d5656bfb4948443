package storage

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file truncated between listing and reading, or while being read,
// used to read as a shorter but complete-looking file.
func TestOpenCheckedFindsAChangedFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, _ := NewLocalStore(dir)
	body := strings.Repeat("0123456789\n", 1000)
	listed := func() ObjectInfo {
		put(t, st, "f.json", body)
		info, err := st.Stat(ctx, "f.json")
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	wantChanged := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "file changed while being read") || !strings.Contains(err.Error(), "f.json") {
			t.Fatalf("%s: err %v, want ErrChanged naming f.json", what, err)
		}
	}

	// Unchanged: every byte, no error.
	info := listed()
	rc, err := OpenChecked(ctx, st, info.Key, info.Size)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(rc); err != nil || string(b) != body {
		t.Fatalf("unchanged file: %d bytes, err %v", len(b), err)
	}
	rc.Close()

	// Truncated after the listing, before the open.
	info = listed()
	if err := os.Truncate(filepath.Join(dir, "f.json"), 100); err != nil {
		t.Fatal(err)
	}
	rc, err = OpenChecked(ctx, st, info.Key, info.Size)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(rc)
	rc.Close()
	wantChanged("truncated before open", err)

	// Grown since the listing (a file fixed before a stream's replay): read whole.
	info = listed()
	put(t, st, "f.json", body+body)
	rc, err = OpenChecked(ctx, st, info.Key, info.Size)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(rc); err != nil || len(b) != 2*len(body) {
		t.Fatalf("grown file: %d bytes, err %v", len(b), err)
	}
	rc.Close()

	// Truncated while being read.
	info = listed()
	rc, err = OpenChecked(ctx, st, info.Key, info.Size)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, 50)); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "f.json"), 100); err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(rc)
	rc.Close()
	wantChanged("truncated while read", err)

	// Appended to while being read: the bytes are not one version.
	info = listed()
	rc, err = OpenChecked(ctx, st, info.Key, info.Size)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, 50)); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "f.json"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("more\n")
	f.Close()
	_, err = io.ReadAll(rc)
	rc.Close()
	wantChanged("appended while read", err)

	// A store without local file state still gets the length check.
	mem := NewMemStore("m")
	put(t, mem, "f.json", body[:100])
	rc, err = OpenChecked(ctx, mem, "f.json", int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(rc)
	wantChanged("short object", err)
}
