package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sluice/internal/formatver"
)

// TestDowngradeRefusal: a binary meeting a catalog or a checkpoint file
// in a format version newer than it reads refuses at start, naming the
// file, its version and the oldest binary that reads it, and leaves the
// file as it was rather than misread it.
func TestDowngradeRefusal(t *testing.T) {
	const reader = "0.x (commit f00dfee or later)"
	// newer rewrites the JSON file at p as written in the next version.
	newer := func(t *testing.T, p, versionKey string, next int) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.TrimSpace(string(b))
		s = strings.Replace(s, "{", `{"`+versionKey+`": `+strconv.Itoa(next)+`, "format_reader": "`+reader+`", `, 1)
		if versionKey == "version" {
			s = strings.Replace(s, `"version": 1,`, "", 1)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return s
	}
	check := func(t *testing.T, err error, p string, next int, written string) {
		t.Helper()
		if err == nil {
			t.Fatal("a newer format was read")
		}
		t.Log(err)
		for _, want := range []string{filepath.Base(p), "format version " + strconv.Itoa(next), "needs sluice " + reader} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
		}
		if b, _ := os.ReadFile(p); string(b) != written {
			t.Errorf("%s changed to %s", p, b)
		}
	}

	t.Run("catalog", func(t *testing.T) {
		root := compatDataDir(t, "3ebcb6b")
		p := filepath.Join(root, "data", "catalog.json")
		next := formatver.Catalog.Current() + 1
		written := newer(t, p, "version", next)
		eng, err := Open(Options{DataDir: filepath.Join(root, "data")})
		if err == nil {
			eng.Close()
		}
		check(t, err, p, next, written)
	})

	// The state files are binary: their version is in the commit.
	t.Run("checkpoint state", func(t *testing.T) {
		root := compatDataDir(t, "3ebcb6b")
		p := filepath.Join(root, "data", "checkpoints", "counts", "commits", "1")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		next := formatver.State.Current() + 1
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), `"deltas":1`, `"deltas":1,"state_format":`+strconv.Itoa(next), 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		eng, err := Open(Options{DataDir: filepath.Join(root, "data")})
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		_, err = eng.Execute(context.Background(), "START STREAM counts")
		if err == nil || !strings.Contains(err.Error(), "state/1/window_aggregate-0.delta is operator state format version "+strconv.Itoa(next)) {
			t.Fatalf("START STREAM: %v, want a refusal of the state", err)
		}
		t.Log(err)
	})

	for _, tc := range []struct {
		file   string
		format *formatver.Format
	}{
		{"offsets/1", formatver.Offsets},
		{"commits/1", formatver.Commits},
		{"metadata", formatver.Metadata},
		{"sources/0/log/1", formatver.SeenFiles},
	} {
		t.Run("checkpoint "+tc.file, func(t *testing.T) {
			root := compatDataDir(t, "3ebcb6b")
			p := filepath.Join(root, "data", "checkpoints", "counts", filepath.FromSlash(tc.file))
			next := tc.format.Current() + 1
			written := newer(t, p, "format_version", next)
			eng, err := Open(Options{DataDir: filepath.Join(root, "data")})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			_, err = eng.Execute(context.Background(), "START STREAM counts")
			check(t, err, p, next, written)
		})
	}
}
