package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// tempPrefix names the files Put writes before renaming them into place.
// It starts with '.' so a concurrent List skips half-written objects.
const tempPrefix = ".sluice-tmp-"

// LocalStore is a Store over a directory tree. Keys are paths relative to
// the root, '/'-separated.
//
// List skips hidden entries: files and directories whose name starts
// with '.' or '_' (Put's temp files, .git, _SUCCESS markers, _temporary
// dirs), unless the prefix itself names them. Stat and Open still reach
// such keys directly.
type LocalStore struct {
	root string // absolute, cleaned, OS separators
}

var _ Store = (*LocalStore)(nil)

// NewLocalStore returns a store rooted at dir. The directory need not
// exist yet: List on a missing root finds nothing and Put creates it.
func NewLocalStore(dir string) (*LocalStore, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving local store root %q: %w", dir, err)
	}
	return &LocalStore{root: abs}, nil
}

// Root returns the store's absolute root directory.
func (s *LocalStore) Root() string { return s.root }

// String returns "file://" + the absolute root.
func (s *LocalStore) String() string { return "file://" + filepath.ToSlash(s.root) }

func (s *LocalStore) uri(key string) string {
	return "file://" + path.Join(filepath.ToSlash(s.root), key)
}

// path maps a key to a file path, refusing keys that would leave the root.
func (s *LocalStore) path(key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	return filepath.Join(s.root, filepath.FromSlash(key)), nil
}

// checkKey rejects keys that are not plain relative '/'-paths: a leading
// '/', empty or "." or ".." segments. Those would escape the root locally
// and mean different objects on S3 than on disk.
func checkKey(key string) error {
	if key == "" {
		return errors.New("empty object key")
	}
	if strings.HasPrefix(key, "/") {
		return fmt.Errorf("object key %q starts with '/'", key)
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("object key %q has an empty, '.' or '..' segment", key)
		}
	}
	return nil
}

// hidden reports whether List skips an entry name.
func hidden(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// List walks the tree depth first. Inside a directory, a subdirectory "d"
// sorts as "d/" so that the walk yields keys in plain string order: "a-b"
// comes before "a/x" because '-' < '/'. Only one directory's entries are
// held at a time per level.
func (s *LocalStore) List(ctx context.Context, prefix, startAfter string, fn func(ObjectInfo) error) error {
	if strings.HasPrefix(prefix, "/") {
		return fmt.Errorf("listing %s: prefix %q starts with '/'", s, prefix)
	}
	// Start at the directory part of the prefix; the rest filters names.
	dirKey := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirKey = prefix[:i+1]
	}
	// An explicit hidden name in the prefix ("_SUCCESS", ".meta/") is a
	// request for it, so only entries the prefix does not name are hidden.
	namePart := prefix[len(dirKey):]
	showHidden := hidden(namePart)
	if dirKey != "" {
		if err := checkKey(strings.TrimSuffix(dirKey, "/")); err != nil {
			return fmt.Errorf("listing %s: %w", s, err)
		}
	}
	return s.walk(ctx, dirKey, prefix, startAfter, showHidden, s.idsAbove(dirKey), fn)
}

// idsAbove returns the identities of the root and of each directory on
// the way down to dirKey (excluded), so that a listing under a prefix
// stops at the same cycles as a listing of the whole store.
func (s *LocalStore) idsAbove(dirKey string) []dirID {
	if dirKey == "" {
		return nil // the walk starts at the root and adds it itself
	}
	var ids []dirID
	add := func(dir string) {
		if fi, err := os.Stat(dir); err == nil {
			if id, ok := idOf(fi); ok {
				ids = append(ids, id)
			}
		}
	}
	dir := s.root
	add(dir)
	segs := strings.Split(strings.TrimSuffix(dirKey, "/"), "/")
	for _, seg := range segs[:len(segs)-1] {
		dir = filepath.Join(dir, seg)
		add(dir)
	}
	return ids
}

// dirID names a directory by device and inode, so the walk can tell
// that a linked directory is one it is already inside.
type dirID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) (dirID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return dirID{}, false
	}
	return dirID{dev: uint64(st.Dev), ino: st.Ino}, true
}

type dirEntry struct {
	name  string
	sort  string // name, or name+"/" for directories
	isDir bool
}

// walk lists one directory and descends into its subdirectories.
// Symbolic links are followed (a linked data directory lists like a real
// one), but a directory already on the path from the walk's start (by
// device and inode) is not entered again: a link back up the tree
// (a/b -> ..) would otherwise list the same files over and over until the
// path grows too long for the OS. ancestors holds those directories.
func (s *LocalStore) walk(ctx context.Context, dirKey, prefix, startAfter string, showHidden bool, ancestors []dirID, fn func(ObjectInfo) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := filepath.Join(s.root, filepath.FromSlash(dirKey))
	raw, id, err := readDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil // a missing directory simply holds no objects
		}
		return fmt.Errorf("listing %s: %w", s.uri(strings.TrimSuffix(dirKey, "/")), err)
	}
	if id != nil {
		for _, a := range ancestors {
			if a == *id {
				return nil // a cycle: its files are listed where the walk first entered it
			}
		}
		ancestors = append(ancestors[:len(ancestors):len(ancestors)], *id)
	}
	entries := make([]dirEntry, 0, len(raw))
	for _, e := range raw {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			continue // never show a Put in progress, even when asked for dot-files
		}
		if hidden(name) && !showHidden {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			// Follow links so a linked data directory lists like a real one.
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				continue // dangling link: nothing to read
			}
			isDir = fi.IsDir()
		}
		sortKey := name
		if isDir {
			sortKey += "/"
		}
		entries = append(entries, dirEntry{name: name, sort: sortKey, isDir: isDir})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].sort < entries[j].sort })

	for i, e := range entries {
		// A folder of 100,000 files must not outlast a cancel.
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		key := dirKey + e.name
		if e.isDir {
			sub := key + "/"
			// Descend only where the prefix can still match...
			if !strings.HasPrefix(sub, prefix) && !strings.HasPrefix(prefix, sub) {
				continue
			}
			// ...and where some key can sort after startAfter: every key
			// below starts with sub, so if startAfter is past sub without
			// sharing it, the whole subtree is already consumed.
			if startAfter != "" && startAfter >= sub && !strings.HasPrefix(startAfter, sub) {
				continue
			}
			if err := s.walk(ctx, sub, prefix, startAfter, false, ancestors, fn); err != nil {
				return err
			}
			continue
		}
		if !strings.HasPrefix(key, prefix) || key <= startAfter {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, e.name))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // deleted since ReadDir
			}
			return fmt.Errorf("listing %s: %w", s.uri(key), err)
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		if err := fn(localInfo(key, fi)); err != nil {
			return err
		}
	}
	return nil
}

// readDir reads a directory's entries and its identity (nil when the
// platform gives none), both from one open of the directory.
func readDir(dir string) ([]fs.DirEntry, *dirID, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var id *dirID
	if fi, err := f.Stat(); err == nil {
		if !fi.IsDir() {
			return nil, nil, syscall.ENOTDIR
		}
		if d, ok := idOf(fi); ok {
			id = &d
		}
	}
	raw, err := f.ReadDir(-1)
	if err != nil {
		return nil, nil, err
	}
	return raw, id, nil
}

func localInfo(key string, fi fs.FileInfo) ObjectInfo {
	mt := fi.ModTime()
	return ObjectInfo{
		Key:     key,
		Size:    fi.Size(),
		ETag:    localVersion(fi),
		ModTime: mt,
	}
}

// Stat returns the metadata of a regular file; directories are not objects.
func (s *LocalStore) Stat(ctx context.Context, key string) (ObjectInfo, error) {
	p, err := s.path(key)
	if err != nil {
		return ObjectInfo{}, fmt.Errorf("stat %s: %w", s, err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return ObjectInfo{}, s.mapErr("stat", key, err)
	}
	if !fi.Mode().IsRegular() {
		return ObjectInfo{}, fmt.Errorf("stat %s: %w", s.uri(key), ErrNotFound)
	}
	return localInfo(key, fi), nil
}

func (s *LocalStore) mapErr(op, key string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: %w", op, s.uri(key), ErrNotFound)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s %s: %w", op, s.uri(key), ErrAccessDenied)
	}
	if errors.Is(err, syscall.ENOTDIR) {
		// A path component is a file: the key cannot exist.
		return fmt.Errorf("%s %s: %w", op, s.uri(key), ErrNotFound)
	}
	return fmt.Errorf("%s %s: %w", op, s.uri(key), err)
}

// Open streams the file from its start.
func (s *LocalStore) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	return s.OpenRange(ctx, key, 0, -1)
}

// OpenRange seeks to offset and limits the read to length bytes. A range
// past the end reads nothing, as a short read at EOF would.
func (s *LocalStore) OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	if offset < 0 {
		return nil, fmt.Errorf("reading %s: negative offset %d", s.uri(key), offset)
	}
	p, err := s.path(key)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s, err)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, s.mapErr("reading", key, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, s.mapErr("reading", key, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("reading %s: %w", s.uri(key), ErrNotFound)
	}
	if offset > 0 {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("reading %s at %d: %w", s.uri(key), offset, err)
		}
	}
	if length < 0 {
		return f, nil
	}
	return &limitedFile{Reader: io.LimitReader(f, length), f: f}, nil
}

type limitedFile struct {
	io.Reader
	f *os.File
}

func (l *limitedFile) Close() error { return l.f.Close() }

// Put writes a temp file beside the target, fsyncs it, then renames it
// into place (or hard-links it, for ifAbsent: link fails if the target
// exists, which makes the check and the write one atomic step).
func (s *LocalStore) Put(ctx context.Context, key string, data io.Reader, ifAbsent bool) error {
	p, err := s.path(key)
	if err != nil {
		return fmt.Errorf("writing %s: %w", s, err)
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s.mapErr("writing", key, err)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return s.mapErr("writing", key, err)
	}
	// CreateTemp makes the file 0600; data files are shared like any
	// other file the user writes.
	_ = tmp.Chmod(0o644)
	tmpName := tmp.Name()
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if _, err := io.Copy(tmp, ctxReader{ctx: ctx, r: data}); err != nil {
		return fmt.Errorf("writing %s: %w", s.uri(key), err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: sync: %w", s.uri(key), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", s.uri(key), err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("writing %s: %w", s.uri(key), err)
	}
	if ifAbsent {
		err := os.Link(tmpName, p)
		os.Remove(tmpName)
		done = true
		if err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("writing %s: %w", s.uri(key), ErrExists)
			}
			return fmt.Errorf("writing %s: %w", s.uri(key), err)
		}
	} else {
		if err := os.Rename(tmpName, p); err != nil {
			return fmt.Errorf("writing %s: %w", s.uri(key), err)
		}
		done = true
	}
	// Persist the directory entry too, so a checkpoint survives a crash.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Delete removes the file; a missing key is not an error. Empty parent
// directories are left in place: they hold no objects.
func (s *LocalStore) Delete(ctx context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return fmt.Errorf("deleting %s: %w", s, err)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		return s.mapErr("deleting", key, err)
	}
	if fi.IsDir() {
		return nil // not an object
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.mapErr("deleting", key, err)
	}
	return nil
}

// ctxReader stops a long copy when the context is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
