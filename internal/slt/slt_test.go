package slt

import (
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sluice/internal/engine"
)

var update = flag.Bool("update", false, "rewrite expected results in testdata/slt in place")

// fixedNow is now() in every .slt file.
var fixedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// TestSLT runs every testdata/slt/**/*.slt file on a fresh engine.
func TestSLT(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(testdata, "slt")
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
	// The total is logged (go test -v) so a reorganisation of the files
	// can show it ran as many records as before.
	var ran atomic.Int64
	t.Cleanup(func() { t.Logf("ran %d records in %d files", ran.Load(), len(files)) })
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel()
			runFile(t, path, filepath.Join("testdata", "slt", rel), testdata, &ran)
		})
	}
}

// runFile runs one file and adds the records it ran to ran.
func runFile(t *testing.T, path, name, testdata string, ran *atomic.Int64) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	script, err := Parse(name, string(text))
	if err != nil {
		t.Fatal(err)
	}
	if script.Skip != "" && os.Getenv("SLT_NOSKIP") == "" {
		t.Skip(script.Skip)
	}
	dataDir := t.TempDir()
	eng, err := engine.Open(engine.Options{
		DataDir: dataDir,
		Now:     func() time.Time { return fixedNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	r := &Runner{Exec: eng, Vars: map[string]string{"TESTDATA": testdata, "TMPDIR": t.TempDir(), "DATADIR": dataDir}}
	out := r.Run(ctx, script)
	ran.Add(int64(out.Ran))
	if *update && out.Changed {
		if err := os.WriteFile(path, []byte(out.Updated), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", name)
	}
	for _, f := range out.Failures {
		if *update && f.Fixed {
			continue
		}
		t.Error(f.Error())
	}
}
