package backup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/safepath"
	"sluice/internal/served"
	"sluice/internal/storage"
)

// RestoreOptions say what to restore where.
type RestoreOptions struct {
	// Src is the store holding the backup, under Prefix.
	Src    storage.Store
	Prefix string
	// DataDir is the data dir to restore into: missing or empty, unless
	// Force, which replaces what a backup holds (catalog, secrets,
	// checkpoints, indexes, tables, queries) and keeps the rest. The
	// caller keeps a server off it meanwhile.
	DataDir string
	Force   bool
}

// covered are the data dir's entries a backup replaces.
var covered = []string{"catalog.json", catalog.SecretsFile, "checkpoints", "indexes", "tables", "queries"}

// Restore brings the backup at o.Src back into o.DataDir: it refuses a
// manifest (or a format it lists) newer than this binary reads, checks
// each file's size and SHA-256 as it writes it, and points the
// catalog's paths into the backed-up data dir at the new one.
func Restore(ctx context.Context, o RestoreOptions) (*Manifest, error) {
	where := strings.TrimSuffix(o.Src.String()+"/"+o.Prefix, "/") + "/" + ManifestName
	rc, err := o.Src.Open(ctx, o.Prefix+ManifestName)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("restoring: %s is missing: not a backup, or one that did not finish", where)
	}
	if err != nil {
		return nil, fmt.Errorf("restoring: reading %s: %w", where, err)
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("restoring: reading %s: %w", where, err)
	}
	m, err := decodeManifest(where, data)
	if err != nil {
		return nil, fmt.Errorf("restoring: %w", err)
	}
	dir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return nil, fmt.Errorf("restoring: %w", err)
	}
	if err := prepare(dir, o.Force); err != nil {
		return nil, err
	}
	for _, f := range m.Files {
		if err := restoreFile(ctx, o, dir, f); err != nil {
			return nil, err
		}
	}
	if m.DataDir != "" && m.DataDir != dir {
		if err := relocate(filepath.Join(dir, "catalog.json"), m.DataDir, dir); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// prepare makes dir ready: missing or empty, or emptied of what a
// backup holds when force.
func prepare(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("restoring into %s: %w", dir, err)
	}
	var first string
	for _, e := range entries {
		if e.Name() != served.LockFile { // the lock restore itself holds
			first = e.Name()
			break
		}
	}
	if first == "" {
		return nil
	}
	if !force {
		return fmt.Errorf("restoring into %s: the directory is not empty (%s...): restore into a new or empty directory, or give --force to replace its catalog, secrets, checkpoints and indexes", dir, first)
	}
	for _, name := range covered {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("restoring into %s: removing %s: %w", dir, name, err)
		}
	}
	return nil
}

// restoreFile writes one file beside its place, checks it against the
// manifest and renames it there.
func restoreFile(ctx context.Context, o RestoreOptions, dir string, f File) error {
	dst, err := safepath.Join(dir, strings.Split(f.Path, "/")...)
	if err != nil || f.Path == "" || strings.HasPrefix(f.Path, ".") {
		return fmt.Errorf("restoring: the manifest names %q, outside the data dir", f.Path)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("restoring %s: %w", f.Path, err)
	}
	rc, err := o.Src.Open(ctx, o.Prefix+f.Path)
	if err != nil {
		return fmt.Errorf("restoring %s: %w", f.Path, err)
	}
	defer rc.Close()
	mode := fs.FileMode(f.Mode).Perm()
	if mode == 0 {
		mode = 0o644
	}
	tmp, err := os.OpenFile(dst+".restoring", os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return fmt.Errorf("restoring %s: %w", f.Path, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), rc)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && (n != f.Size || hex.EncodeToString(h.Sum(nil)) != f.SHA256) {
		err = fmt.Errorf("the backup's copy (%d bytes) does not match its manifest (%d bytes, sha256 %s): the backup is damaged", n, f.Size, f.SHA256)
	}
	if err == nil {
		err = os.Rename(dst+".restoring", dst)
	}
	if err != nil {
		os.Remove(dst + ".restoring")
		return fmt.Errorf("restoring %s: %w", f.Path, err)
	}
	return nil
}

// relocate rewrites every path into the old data dir in the catalog
// (checkpoints, index paths, managed tables' locations, and the same
// inside statements' text) to the new one.
func relocate(file, from, to string) error {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("restoring catalog.json: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("restoring catalog.json: %w", err)
	}
	rewrite := func(s string) string {
		if s == from {
			return to
		}
		return strings.ReplaceAll(s, from+string(filepath.Separator), to+string(filepath.Separator))
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return rewrite(x)
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	out, err := json.MarshalIndent(walk(v), "", "  ")
	if err != nil {
		return fmt.Errorf("restoring catalog.json: %w", err)
	}
	tmp := file + ".restoring"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("restoring catalog.json: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("restoring catalog.json: %w", err)
	}
	return nil
}
