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
func TestSLT(t *testing.T) { runTree(t, "slt") }

// runTree runs every .slt file under testdata/<dir>, each on a fresh
// engine, in parallel. The total is logged (go test -v) so a
// reorganisation of the files can show it ran as many records as before.
func runTree(t *testing.T, dir string) {
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(testdata, dir)
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
			runFile(t, path, filepath.Join("testdata", dir, rel), testdata, &ran, &ranFiles)
		})
	}
}

// restartDirs are the folders whose files run twice: straight through,
// then again on fresh directories with the engine reopened at every
// restart record. Both passes must do the same thing record by record:
// the project's rule that a stream's output survives a crash and restart
// unchanged.
var restartDirs = []string{"streaming/"}

// runFile runs one file (twice under restartDirs) and adds the records
// it ran to ran, once per pass, and itself to files.
func runFile(t *testing.T, path, name, testdata string, ran, files *atomic.Int64) {
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
	rel := strings.TrimPrefix(filepath.ToSlash(name), "testdata/slt/")
	twice := false
	for _, d := range restartDirs {
		twice = twice || strings.HasPrefix(rel, d)
	}
	out := runPass(t, script, testdata, false)
	ran.Add(int64(out.Ran))
	files.Add(1)
	if *update && out.Changed {
		if err := os.WriteFile(path, []byte(out.Updated), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", name)
	}
	report(t, out, "")
	if !twice {
		return
	}
	again := runPass(t, script, testdata, true)
	ran.Add(int64(again.Ran))
	report(t, again, " (restart pass)")
	for _, f := range SamePasses(script, out, again) {
		t.Error(f.Error())
	}
}

// runPass runs script on a fresh engine with its own data and temp
// directories; with restarts, each restart record reopens the engine
// over the same data directory.
func runPass(t *testing.T, script *Script, testdata string, restarts bool) *Outcome {
	dataDir := t.TempDir()
	opts := engine.Options{DataDir: dataDir, Now: func() time.Time { return fixedNow }}
	eng, err := engine.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { eng.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	r := &Runner{Exec: eng, Vars: map[string]string{"TESTDATA": testdata, "TMPDIR": t.TempDir(), "DATADIR": dataDir}}
	if restarts {
		r.Restart = func() (Executor, error) {
			if err := eng.Close(); err != nil {
				return nil, err
			}
			eng, err = engine.Open(opts)
			return eng, err
		}
	}
	return r.Run(ctx, script)
}

// report fails t for every failure of out that -update does not fix.
func report(t *testing.T, out *Outcome, pass string) {
	t.Helper()
	for _, f := range out.Failures {
		if *update && f.Fixed {
			continue
		}
		t.Error(f.Error() + pass)
	}
}
