package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"sluice/internal/catalog"
	"sluice/internal/connector/index"
	"sluice/internal/formatver"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// Options say what to back up where.
type Options struct {
	// DataDir is the data dir to copy.
	DataDir string
	// Dest is the store the backup goes to, under Prefix ("" or ending
	// in "/"). A prefix that holds a manifest already is refused.
	Dest   storage.Store
	Prefix string
	// Binary is this binary's version, recorded in the manifest.
	Binary string
}

// maxTries bounds the restarts of one checkpoint's copy while its
// stream commits under it.
const maxTries = 50

// Take backs up o.DataDir into o.Dest and returns the manifest it wrote.
func Take(ctx context.Context, o Options) (*Manifest, error) {
	abs, err := filepath.Abs(o.DataDir)
	if err != nil {
		return nil, fmt.Errorf("backing up: %w", err)
	}
	if _, err := os.Stat(filepath.Join(abs, "catalog.json")); err != nil {
		return nil, usererr.Errorf(usererr.NotFound, "backing up %s: no catalog.json: not a data dir", abs)
	}
	if _, err := o.Dest.Stat(ctx, o.Prefix+ManifestName); err == nil {
		return nil, usererr.Errorf(usererr.Exists, "backing up: %s/%s already holds a backup (%s); give a new destination", o.Dest, o.Prefix, ManifestName)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("backing up: checking the destination: %w", err)
	}
	t := &taker{o: o, dir: abs, m: &Manifest{
		Stamp: formatver.Backup.Stamp(), Binary: o.Binary, Created: time.Now().UTC(),
		DataDir: abs, Formats: currentFormats(),
	}}
	cat, secrets, err := catalog.ReadFiles(abs)
	if err != nil {
		return nil, fmt.Errorf("backing up the catalog: %w", err)
	}
	if err := t.putBytes(ctx, "catalog.json", cat, 0o644); err != nil {
		return nil, err
	}
	if secrets != nil {
		if err := t.putBytes(ctx, catalog.SecretsFile, secrets, 0o600); err != nil {
			return nil, err
		}
	}
	// Checkpoints first, sinks after: see the package doc.
	roots, err := checkpointRoots(filepath.Join(abs, "checkpoints"))
	if err != nil {
		return nil, fmt.Errorf("backing up checkpoints: %w", err)
	}
	for _, r := range roots {
		if err := t.checkpoint(ctx, r, roots); err != nil {
			return nil, err
		}
	}
	if err := t.indexes(ctx); err != nil {
		return nil, err
	}
	for _, d := range []string{"tables", "queries"} {
		if err := t.tree(ctx, filepath.Join(abs, d)); err != nil {
			return nil, fmt.Errorf("backing up %s/: %w", d, err)
		}
	}
	sort.Slice(t.m.Files, func(i, j int) bool { return t.m.Files[i].Path < t.m.Files[j].Path })
	data, err := jsonIndent(t.m)
	if err != nil {
		return nil, err
	}
	if err := o.Dest.Put(ctx, o.Prefix+ManifestName, strings.NewReader(string(data)), true); err != nil {
		return nil, fmt.Errorf("backing up: writing %s: %w", ManifestName, err)
	}
	return t.m, nil
}

type taker struct {
	o   Options
	dir string
	m   *Manifest
}

// rel is p relative to the data dir, '/'-separated.
func (t *taker) rel(p string) string {
	r, _ := filepath.Rel(t.dir, p)
	return filepath.ToSlash(r)
}

func (t *taker) putBytes(ctx context.Context, rel string, data []byte, mode fs.FileMode) error {
	f, err := t.put(ctx, rel, strings.NewReader(string(data)), mode)
	if err != nil {
		return err
	}
	t.m.Files = append(t.m.Files, f)
	return nil
}

// put writes one file to the destination, hashing it on the way.
func (t *taker) put(ctx context.Context, rel string, r io.Reader, mode fs.FileMode) (File, error) {
	h := sha256.New()
	cr := &countReader{r: io.TeeReader(r, h)}
	key := t.o.Prefix + rel
	if err := t.o.Dest.Put(ctx, key, cr, false); err != nil {
		return File{}, fmt.Errorf("backing up %s: %w", rel, err)
	}
	if ls, ok := t.o.Dest.(*storage.LocalStore); ok && mode&0o077 == 0 {
		// The secrets store stays as private in the backup as it was.
		_ = os.Chmod(filepath.Join(ls.Root(), filepath.FromSlash(key)), mode)
	}
	return File{Path: rel, Size: cr.n, SHA256: hex.EncodeToString(h.Sum(nil)), Mode: uint32(mode.Perm())}, nil
}

// putFile copies the file at p; a file gone since it was listed is
// fs.ErrNotExist.
func (t *taker) putFile(ctx context.Context, p string) (File, error) {
	f, err := os.Open(p)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return File{}, err
	}
	return t.put(ctx, t.rel(p), f, fi.Mode().Perm())
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// skipped are files never copied: locks, stop requests, temp files.
func skipped(name string) bool {
	return strings.HasPrefix(name, ".") || name == "lock" || name == "stop"
}

// checkpointRoots lists, depth first, every folder under dir that is a
// checkpoint: one with offsets/ or commits/ (a stream's, a worker
// slot's, a keyed partition's).
func checkpointRoots(dir string) ([]string, error) {
	var roots []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		for _, sub := range []string{"offsets", "commits"} {
			if fi, err := os.Stat(filepath.Join(p, sub)); err == nil && fi.IsDir() {
				roots = append(roots, p)
				break
			}
		}
		return nil
	})
	return roots, err
}

// lastCommit is the newest epoch under root/commits, -1 when none.
func lastCommit(root string) (int64, error) {
	entries, err := os.ReadDir(filepath.Join(root, "commits"))
	if errors.Is(err, fs.ErrNotExist) {
		return -1, nil
	}
	if err != nil {
		return 0, err
	}
	last := int64(-1)
	for _, e := range entries {
		if n, err := strconv.ParseInt(e.Name(), 10, 64); err == nil && n > last {
			last = n
		}
	}
	return last, nil
}

// keep says whether the file rel (inside a checkpoint, '/'-separated)
// belongs to the checkpoint as of commit last.
func keep(rel string, last int64) bool {
	parts := strings.Split(rel, "/")
	epoch := func(s string) (int64, bool) {
		n, err := strconv.ParseInt(strings.TrimSuffix(s, ".json.zst"), 10, 64)
		return n, err == nil
	}
	switch {
	case len(parts) >= 2 && parts[0] == "offsets":
		n, ok := epoch(parts[1])
		return !ok || n <= last+1
	case len(parts) >= 2 && (parts[0] == "commits" || parts[0] == "state"):
		n, ok := epoch(parts[1])
		return !ok || n <= last
	case len(parts) == 4 && parts[0] == "sources" && (parts[2] == "log" || parts[2] == "snapshot"):
		n, ok := epoch(parts[3])
		return !ok || n <= last
	}
	return true
}

// checkpoint copies the checkpoint at root (not the checkpoints nested
// in it, which are roots of their own) as of its last commit, starting
// over when the stream commits or purges during the walk or the copy.
func (t *taker) checkpoint(ctx context.Context, root string, roots []string) error {
	nested := map[string]bool{}
	for _, r := range roots {
		if r != root && strings.HasPrefix(r, root+string(filepath.Separator)) {
			nested[r] = true
		}
	}
	rel := t.rel(root)
	for try := 0; try < maxTries; try++ {
		if try > 0 {
			time.Sleep(time.Duration(try) * 10 * time.Millisecond)
		}
		last, err := lastCommit(root)
		if err != nil {
			return fmt.Errorf("backing up %s: %w", rel, err)
		}
		var paths []string
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p == root {
				return nil
			}
			if d.IsDir() {
				if nested[p] {
					return filepath.SkipDir
				}
				return nil
			}
			r, _ := filepath.Rel(root, p)
			if skipped(d.Name()) || !keep(filepath.ToSlash(r), last) {
				return nil
			}
			paths = append(paths, p)
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("backing up %s: %w", rel, err)
		}
		if again, err := lastCommit(root); err != nil || again != last {
			continue // committed (and maybe purged) during the walk
		}
		files, err := t.copyAll(ctx, paths)
		if errors.Is(err, fs.ErrNotExist) {
			continue // purged or compacted during the copy
		}
		if err != nil {
			return err
		}
		t.m.Files = append(t.m.Files, files...)
		t.m.Checkpoints = append(t.m.Checkpoints, Checkpoint{Path: rel, LastCommit: last})
		return nil
	}
	return fmt.Errorf("backing up %s: its stream committed or purged during each of %d copies; retry the backup", rel, maxTries)
}

func (t *taker) copyAll(ctx context.Context, paths []string) ([]File, error) {
	var out []File
	for _, p := range paths {
		f, err := t.putFile(ctx, p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			return nil, fmt.Errorf("backing up %s: %w", t.rel(p), err)
		}
		out = append(out, f)
	}
	return out, nil
}

// tree copies every file under dir as it is, skipping those gone
// since listed (an async query's expired result).
func (t *taker) tree(ctx context.Context, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || skipped(d.Name()) {
			return nil
		}
		f, err := t.putFile(ctx, p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("backing up %s: %w", t.rel(p), err)
		}
		t.m.Files = append(t.m.Files, f)
		return nil
	})
}

// indexes copies each local index under indexes/ from one Bleve
// snapshot, through a scratch folder outside the data dir.
func (t *taker) indexes(ctx context.Context) error {
	entries, err := os.ReadDir(filepath.Join(t.dir, "indexes"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("backing up indexes: %w", err)
	}
	scratch, err := os.MkdirTemp("", "sluice-backup-")
	if err != nil {
		return fmt.Errorf("backing up indexes: %w", err)
	}
	defer os.RemoveAll(scratch)
	for _, e := range entries {
		if !e.IsDir() || skipped(e.Name()) {
			continue
		}
		src := filepath.Join(t.dir, "indexes", e.Name())
		if _, err := os.Stat(filepath.Join(src, "index_meta.json")); err != nil {
			continue // an empty folder (a dropped index's): no index
		}
		tmp := filepath.Join(scratch, e.Name())
		if err := index.CopyTo(ctx, src, tmp); err != nil {
			return fmt.Errorf("backing up: %w", err)
		}
		err := filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			r, _ := filepath.Rel(tmp, p)
			fh, err := os.Open(p)
			if err != nil {
				return err
			}
			defer fh.Close()
			f, err := t.put(ctx, path.Join("indexes", e.Name(), filepath.ToSlash(r)), fh, 0o644)
			if err != nil {
				return err
			}
			t.m.Files = append(t.m.Files, f)
			return nil
		})
		if err != nil {
			return fmt.Errorf("backing up index %s: %w", e.Name(), err)
		}
	}
	return nil
}
