package backup

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/formatver"
	"sluice/internal/storage"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// dataDir is a data dir whose stream s has committed epoch 1 and
// planned 2 and 3 (3 half done: its state is written), with a keyed
// partition that committed 0.
func dataDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "data")
	writeFiles(t, dir, map[string]string{
		"catalog.json":                        `{"streams": {"checkpoint": "` + dir + `/checkpoints/s", "q": "FROM '` + dir + `/tables/t/'"}}`,
		"secrets.json":                        `{}`,
		"checkpoints/s/metadata":              `{"id":"x"}`,
		"checkpoints/s/status":                `running`,
		"checkpoints/s/stop":                  `stop 1`,
		"checkpoints/s/.lock":                 ``,
		"checkpoints/s/offsets/0":             `o0`,
		"checkpoints/s/offsets/1":             `o1`,
		"checkpoints/s/offsets/2":             `o2`,
		"checkpoints/s/offsets/3":             `o3`,
		"checkpoints/s/commits/0":             `c0`,
		"checkpoints/s/commits/1":             `c1`,
		"checkpoints/s/state/0/agg-0":         `s0`,
		"checkpoints/s/state/1/agg-0.delta":   `s1`,
		"checkpoints/s/state/2/agg-0.delta":   `s2`,
		"checkpoints/s/sources/0/log/0":       `l0`,
		"checkpoints/s/sources/0/log/1":       `l1`,
		"checkpoints/s/sources/0/log/2":       `l2`,
		"checkpoints/s/keyed/meta.json":       `{}`,
		"checkpoints/s/keyed/p0/offsets/0":    `k0`,
		"checkpoints/s/keyed/p0/offsets/1":    `k1`,
		"checkpoints/s/keyed/p0/offsets/2":    `k2`,
		"checkpoints/s/keyed/p0/commits/0":    `kc0`,
		"checkpoints/s/keyed/p0/state/0/part": `ks0`,
		"checkpoints/s/keyed/p0/state/1/part": `ks1`,
		"tables/t/part-0.json":                `{}`,
		"tmp/spill-1":                         `x`,
		".serve.json":                         `{}`,
	})
	return dir
}

func take(t *testing.T, dir string) (*storage.LocalStore, *Manifest) {
	t.Helper()
	dest, err := storage.NewLocalStore(filepath.Join(t.TempDir(), "backup"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Take(context.Background(), Options{DataDir: dir, Dest: dest, Binary: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return dest, m
}

// TestCheckpointAsOfLastCommit: each checkpoint is copied as a crash
// right after its last commit would leave it; an epoch planned after it
// stays planned, not done, and nothing of a later one is copied.
func TestCheckpointAsOfLastCommit(t *testing.T) {
	_, m := take(t, dataDir(t))
	var got []string
	for _, f := range m.Files {
		got = append(got, f.Path)
	}
	want := []string{
		"catalog.json",
		"checkpoints/s/commits/0", "checkpoints/s/commits/1",
		"checkpoints/s/keyed/meta.json",
		"checkpoints/s/keyed/p0/commits/0", "checkpoints/s/keyed/p0/offsets/0", "checkpoints/s/keyed/p0/offsets/1",
		"checkpoints/s/keyed/p0/state/0/part",
		"checkpoints/s/metadata",
		"checkpoints/s/offsets/0", "checkpoints/s/offsets/1", "checkpoints/s/offsets/2",
		"checkpoints/s/sources/0/log/0", "checkpoints/s/sources/0/log/1",
		"checkpoints/s/state/0/agg-0", "checkpoints/s/state/1/agg-0.delta",
		"checkpoints/s/status",
		"secrets.json",
		"tables/t/part-0.json",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	cps := map[string]int64{}
	for _, c := range m.Checkpoints {
		cps[c.Path] = c.LastCommit
	}
	if len(cps) != 2 || cps["checkpoints/s"] != 1 || cps["checkpoints/s/keyed/p0"] != 0 {
		t.Errorf("checkpoints: %+v", m.Checkpoints)
	}
}

func TestRestore(t *testing.T) {
	ctx := context.Background()
	old := dataDir(t)
	src, _ := take(t, old)
	if _, err := Take(ctx, Options{DataDir: old, Dest: src, Binary: "test"}); err == nil || !strings.Contains(err.Error(), "already holds a backup") {
		t.Fatalf("a second backup into the first: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "new")
	m, err := Restore(ctx, RestoreOptions{Src: src, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path))); err != nil {
			t.Errorf("restored: %v", err)
		}
	}
	cat, _ := os.ReadFile(filepath.Join(dir, "catalog.json"))
	if strings.Contains(string(cat), old) || !strings.Contains(string(cat), dir+"/checkpoints/s") || !strings.Contains(string(cat), "FROM '"+dir+"/tables/t/'") {
		t.Errorf("the catalog is not pointed at the new data dir: %s", cat)
	}
	if fi, err := os.Stat(filepath.Join(dir, "secrets.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("secrets.json restored as %v (%v), want 0600", fi.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoints/s/offsets/3")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("offsets/3 restored: %v", err)
	}

	if _, err := Restore(ctx, RestoreOptions{Src: src, DataDir: dir}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a restore into a non-empty dir: %v", err)
	}
	writeFiles(t, dir, map[string]string{"checkpoints/stale/offsets/0": "x", "notes.txt": "mine"})
	if _, err := Restore(ctx, RestoreOptions{Src: src, DataDir: dir, Force: true}); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoints/stale")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--force kept a checkpoint the backup does not have: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("--force removed a file no backup covers: %v", err)
	}

	// A damaged file is caught.
	writeFiles(t, src.Root(), map[string]string{"checkpoints/s/commits/1": "c9"})
	if _, err := Restore(ctx, RestoreOptions{Src: src, DataDir: filepath.Join(t.TempDir(), "d")}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a damaged backup: %v", err)
	}
}

// TestRestoreRefusesNewer: a manifest, or a format it lists, newer
// than this binary reads is refused before anything is written.
func TestRestoreRefusesNewer(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
	}{
		{"manifest", func(m map[string]any) { m["format_version"] = formatver.Backup.Current() + 1 }},
		{"commits", func(m map[string]any) {
			for _, f := range m["formats"].([]any) {
				if f := f.(map[string]any); f["name"] == formatver.Commits.Name {
					f["version"], f["reader"] = formatver.Commits.Current()+1, "0.x (commit fffffff or later)"
				}
			}
		}},
		{"unknown format", func(m map[string]any) {
			m["formats"] = append(m["formats"].([]any), map[string]any{"name": "wormhole", "version": 1})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, _ := take(t, dataDir(t))
			p := filepath.Join(src.Root(), ManifestName)
			data, _ := os.ReadFile(p)
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			tc.edit(m)
			data, _ = json.Marshal(m)
			writeFiles(t, src.Root(), map[string]string{ManifestName: string(data)})
			dir := filepath.Join(t.TempDir(), "new")
			_, err := Restore(context.Background(), RestoreOptions{Src: src, DataDir: dir})
			if err == nil || !strings.Contains(err.Error(), "needs") {
				t.Fatalf("Restore = %v, want a refusal naming the binary it needs", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "catalog.json")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused restore wrote the catalog: %v", err)
			}
		})
	}
}
