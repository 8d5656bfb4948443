package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Resolve turns a location into a store and the prefix (or key) inside it.
//
// Accepted forms:
//
//	/abs/path, rel/path, ./x   local paths (~/x is the home directory)
//	file:///abs/path           local, absolute
//	file://rel/path, file:rel  local, relative (lenient)
//	s3://bucket/prefix         S3 or S3-compatible, configured by opts
//	mem://name/prefix          the process-wide MemStore called name
//
// For local paths the store is rooted at the deepest existing directory
// that contains no glob character (* ? [) and the rest of the path is
// returned '/'-separated, glob and trailing '/' kept as given:
//
//	an existing directory /data/logs or /data/logs/  -> root /data/logs, ""
//	an existing file      /data/logs/a.json          -> root /data/logs, "a.json" (a key: Stat it)
//	a glob                /data/logs/*/x*.json.gz    -> root /data/logs, "*/x*.json.gz"
//	a missing directory   /data/logs/year=2026/      -> root /data/logs, "year=2026/"
//	                      (when /data/logs exists but year=2026 does not)
//
// Note a returned file key is also a prefix of "a.json.gz"; callers that
// want one file should Stat it rather than List. For s3:// and mem:// the
// store is the bucket (or named store) and everything after it is returned
// unchanged, globs included. GlobPrefix gives the literal part to List.
func Resolve(ctx context.Context, uri string, opts Options) (Store, string, error) {
	if uri == "" {
		return nil, "", errors.New("resolving location: empty location")
	}
	scheme, rest, hasScheme := strings.Cut(uri, "://")
	if !hasScheme {
		if after, ok := strings.CutPrefix(uri, "file:"); ok {
			return resolveLocal(after)
		}
		if i := strings.IndexByte(uri, ':'); i > 1 && !strings.ContainsAny(uri[:i], `/\.`) {
			return nil, "", fmt.Errorf("resolving %q: unsupported location scheme %q (want a path, file://, s3:// or mem://)", uri, uri[:i])
		}
		return resolveLocal(uri)
	}
	switch strings.ToLower(scheme) {
	case "file":
		// file:///abs has rest "/abs"; file://localhost/abs is the same;
		// file://rel is not valid URI syntax but people write it.
		if after, ok := strings.CutPrefix(rest, "localhost/"); ok {
			rest = "/" + after
		}
		return resolveLocal(rest)
	case "s3", "s3a":
		bucket, prefix, _ := strings.Cut(rest, "/")
		if bucket == "" {
			return nil, "", fmt.Errorf("resolving %q: missing bucket name", uri)
		}
		st, err := NewS3Store(ctx, bucket, opts)
		if err != nil {
			return nil, "", fmt.Errorf("resolving s3://%s: %w", bucket, err)
		}
		return st, prefix, nil
	case "mem":
		name, prefix, _ := strings.Cut(rest, "/")
		if name == "" {
			return nil, "", fmt.Errorf("resolving %q: missing memory store name", uri)
		}
		return NamedMemStore(name), prefix, nil
	default:
		return nil, "", fmt.Errorf("resolving %q: unsupported location scheme %q (want a path, file://, s3:// or mem://)", uri, scheme)
	}
}

var (
	memStoresMu sync.Mutex
	memStores   = map[string]*MemStore{}
)

// NamedMemStore returns the process-wide MemStore called name, creating
// it on first use. Tests share data between components with it through
// "mem://name/..." locations.
func NamedMemStore(name string) *MemStore {
	memStoresMu.Lock()
	defer memStoresMu.Unlock()
	m, ok := memStores[name]
	if !ok {
		m = NewMemStore(name)
		memStores[name] = m
	}
	return m
}

// DropMemStore forgets the named MemStore, so a test can start clean.
func DropMemStore(name string) {
	memStoresMu.Lock()
	defer memStoresMu.Unlock()
	delete(memStores, name)
}

func resolveLocal(p string) (Store, string, error) {
	if p == "" {
		p = "."
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		// Shells expand ~ but a quoted LOCATION '~/data' reaches us as is.
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, "", fmt.Errorf("resolving %q: %w", p, err)
		}
		p = home + p[1:]
	}
	trailing := strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator))
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, "", fmt.Errorf("resolving %q: %w", p, err)
	}
	// Walk down the components while they are literal and existing
	// directories; everything from the first miss on is the prefix.
	vol := filepath.VolumeName(abs)
	parts := strings.Split(filepath.ToSlash(abs[len(vol):]), "/")
	root := vol + string(filepath.Separator)
	i := 0
	for ; i < len(parts); i++ {
		if parts[i] == "" {
			continue
		}
		if IsGlob(parts[i]) {
			break
		}
		next := filepath.Join(root, parts[i])
		fi, err := os.Stat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				break
			}
			return nil, "", fmt.Errorf("resolving %q: %w", p, err)
		}
		if !fi.IsDir() {
			break // a file: its parent is the root and its name the key
		}
		root = next
	}
	var rest []string
	for _, s := range parts[i:] {
		if s != "" {
			rest = append(rest, s)
		}
	}
	prefix := strings.Join(rest, "/")
	if trailing && prefix != "" {
		prefix += "/"
	}
	st, err := NewLocalStore(root)
	if err != nil {
		return nil, "", err
	}
	return st, prefix, nil
}

// IsGlob reports whether s contains a glob metacharacter (* ? [).
func IsGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// GlobPrefix returns the literal part of a pattern before its first glob
// character: the prefix to List before matching keys with path.Match.
// For a pattern with no glob it returns the pattern itself.
//
//	GlobPrefix("logs/2026-*/part-*.json") == "logs/2026-"
func GlobPrefix(pattern string) string {
	if i := strings.IndexAny(pattern, "*?[\\"); i >= 0 {
		return pattern[:i]
	}
	return pattern
}
