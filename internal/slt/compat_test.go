package slt

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCompat runs testdata/compat/**/*.slt: the statements of Spark's and
// OpenSearch Flint's documentation, verbatim but for paths. A file whose
// statements need what Sluice does not build starts with a skip header
// saying why.
func TestCompat(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(testdata, "compat")
	var files []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".slt") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .slt files under %s", root)
	}
	var ran, ranFiles atomic.Int64
	t.Cleanup(func() { t.Logf("ran %d records in %d files", ran.Load(), ranFiles.Load()) })
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel()
			runFile(t, path, filepath.Join("testdata", "compat", rel), testdata, &ran, &ranFiles)
		})
	}
}
