package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommittedFilesUpToDate regenerates everything into a temp dir and
// compares with the repository's testdata: the files are deterministic,
// so a difference means someone edited one by hand or changed the
// generator without running it.
func TestCommittedFilesUpToDate(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join("..", "..", "..", "testdata")
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if strings.HasSuffix(rel, ".bz2") {
			return nil // made by the system's bzip2, which may differ
		}
		want, err := os.ReadFile(filepath.Join(repo, rel))
		if err != nil {
			t.Errorf("%s: not committed (run go run ./internal/slt/gensample): %v", rel, err)
			return nil
		}
		got, _ := os.ReadFile(path)
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output (run go run ./internal/slt/gensample)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
