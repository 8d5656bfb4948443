package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckpointFromPreviousBinary resumes streams from a data dir that
// an earlier binary wrote (testdata/compat/datadirs/<commit>: made.sql run
// by `sluice sql` at that commit, in /tmp/cpfix). A pass-through stream
// must not read its files again, and a windowed one must restore the
// open window it kept in its state (a snapshot plus a delta), so the
// counts span both binaries. Data dirs from 3ebcb6b on also hold a
// materialized view and a covering and a skipping index, refreshed here
// for one more epoch. Each later change of a checkpoint or catalog
// format adds its data dir (see its README) and keeps this passing.
func TestCheckpointFromPreviousBinary(t *testing.T) {
	for _, commit := range []string{"8e1be89", "3ebcb6b"} {
		t.Run(commit, func(t *testing.T) {
			root := compatDataDir(t, commit)
			// The listing knows a file by its size and time: keep them.
			old := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
			for _, f := range []string{"a.json", "b.json"} {
				if err := os.Chtimes(filepath.Join(root, "in", f), old, old); err != nil {
					t.Fatal(err)
				}
			}
			writeFile(t, filepath.Join(root, "in", "c.json"),
				`{"id": 6, "status": 200, "ts": "2026-01-01T00:08:00Z"}`+"\n"+
					`{"id": 7, "status": 200, "ts": "2026-01-01T00:12:00Z"}`+"\n")
			eng, err := Open(Options{DataDir: filepath.Join(root, "data")})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			ctx := context.Background()
			for _, st := range []string{"START STREAM feed", "START STREAM counts"} {
				if _, err := eng.Execute(ctx, st); err != nil {
					t.Fatalf("%s: %v", st, err)
				}
			}
			if got := strings.Join(queryRows(t, eng, "SELECT id FROM feed_out ORDER BY id"), " "); got != "1 2 3 4 5 6 7" {
				t.Errorf("feed_out ids = %s, want each of 1..7 once", got)
			}
			got := strings.Join(queryRows(t, eng, "SELECT w, n FROM counts_out ORDER BY w"), "; ")
			if want := "2026-01-01 00:00:00 3; 2026-01-01 00:05:00 3"; got != want {
				t.Errorf("counts_out = %s, want %s (the 00:05 window holds 2 rows of the old state and 1 new)", got, want)
			}
			// The epochs written now carry their format version; the
			// unversioned ones (version 1) stay, still read, until purged.
			cps := filepath.Join(root, "data", "checkpoints", "counts")
			for _, c := range []struct{ file, want string }{{"commits/0", ""}, {"commits/2", `"format_version":1,`}, {"offsets/2", `"format_version":1,`}} {
				b, err := os.ReadFile(filepath.Join(cps, c.file))
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Contains(string(b), `"format_version"`); got != (c.want != "") || !strings.Contains(string(b), c.want) {
					t.Errorf("%s = %s, want it to carry %q", c.file, b, c.want)
				}
			}
			if commit != "8e1be89" {
				checkFlintFromPreviousBinary(t, eng)
			}
		})
	}
}

// checkFlintFromPreviousBinary refreshes the view and the indexes of a
// data dir from 3ebcb6b on: each goes on from its checkpoint, reading c.json
// alone, so the view's open window and the indexes' rows span both binaries.
func checkFlintFromPreviousBinary(t *testing.T, eng *Engine) {
	t.Helper()
	ctx := context.Background()
	for _, st := range []string{"REFRESH MATERIALIZED VIEW counts_mv", "REFRESH INDEX id_status ON src", "REFRESH SKIPPING INDEX ON src"} {
		if _, err := eng.Execute(ctx, st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	got := strings.Join(queryRows(t, eng, "SELECT w, n FROM counts_mv ORDER BY w"), "; ")
	if want := "2026-01-01 00:00:00 3; 2026-01-01 00:05:00 3"; got != want {
		t.Errorf("counts_mv = %s, want %s", got, want)
	}
	got = strings.Join(queryRows(t, eng, "SELECT id, status FROM flint_spark_catalog_default_src_id_status_index ORDER BY id"), "; ")
	if want := "1 200; 2 404; 3 200; 4 200; 5 500; 6 200; 7 200"; got != want {
		t.Errorf("covering index = %s, want %s", got, want)
	}
	if got := strings.Join(queryRows(t, eng, "SELECT id FROM src WHERE status = 404"), " "); got != "2" {
		t.Errorf("ids with status 404 = %s, want 2 (through the skipping index)", got)
	}
	if got := strings.Join(queryRows(t, eng, "SELECT count(*) FROM flint_spark_catalog_default_src_skipping_index"), " "); got != "3" {
		t.Errorf("skipping index rows = %s, want 3 (one per file)", got)
	}
}

// compatDataDir copies the data dir commit wrote to a temporary root,
// and returns it.
func compatDataDir(t *testing.T, commit string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "root")
	copyFixture(t, filepath.Join("..", "..", "testdata", "compat", "datadirs", commit, "root"), root)
	// The data dir moved: its catalog names the folders it had.
	cat := filepath.Join(root, "data", "catalog.json")
	b, err := os.ReadFile(cat)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cat, []byte(strings.ReplaceAll(string(b), "/tmp/cpfix", root)), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// copyFixture copies the folder tree src to dst, which must not hold any of it.
func copyFixture(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
