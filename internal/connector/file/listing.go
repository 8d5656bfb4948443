package file

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"sluice/internal/storage"
)

// fileEntry is one data file found by listing: what a split and an offset
// record about it, plus its partition folders.
type fileEntry struct {
	Key  string `json:"key"`
	Size int64  `json:"size"`
	ETag string `json:"etag,omitempty"`
	// MTime is the modification time in microseconds since the epoch: an
	// integer keeps offsets of a million files quick to read back.
	MTime int64 `json:"mtime_us"`
	// Seqs and Listed say, for a shared keyed stream's reader
	// (keyed.go), which queue messages named the file when its epoch was
	// planned and whether the first listing did: a replay of that epoch
	// tags its partials with them. Never in the seen log.
	Seqs   []uint64 `json:"seqs,omitempty"`
	Listed bool     `json:"listed,omitempty"`
	// Reconciled: a reconcile listing found the file, not its event
	// (reconcile.go); kept in the offsets so a replayed epoch counts it
	// once. Never in the seen log.
	Reconciled bool `json:"reconciled,omitempty"`
	// parts are the key's partition folders, in path order.
	parts []partSegment
}

// location is a table's LOCATION resolved against its store.
//
// Three shapes: a single object ("logs/a.json"), a folder ("logs/", all
// files below it) and a glob ("logs/*/a-*.json"). Partition folders are
// read from the part of each key below base, so a table located at
// ".../year=2026/" does not grow a year column.
type location struct {
	store storage.Store
	// uri is the LOCATION as written, for messages and _file.
	uri string
	// prefix is the store-relative text of the location.
	prefix string
	// glob is set when prefix has wildcards.
	glob *glob
	// base is the folder keys are relative to ("" or ending in '/').
	base string
}

// errStopListing ends a listing early; it never escapes this package.
var errStopListing = errors.New("stop listing")

func newLocation(st storage.Store, uri, prefix string) (*location, error) {
	l := &location{store: st, uri: uri, prefix: prefix}
	if hasMeta(prefix) {
		g, err := compileGlob(prefix)
		if err != nil {
			return nil, fmt.Errorf("location %s: %w", uri, err)
		}
		l.glob = g
		l.base = g.prefix[:strings.LastIndexByte(g.prefix, '/')+1]
		return l, nil
	}
	l.base = prefix
	if l.base != "" && !strings.HasSuffix(l.base, "/") {
		l.base += "/"
	}
	return l, nil
}

// keyURI names a key for messages and the _file column: the store's URI
// joined with the key.
func (l *location) keyURI(key string) string {
	return strings.TrimSuffix(l.store.String(), "/") + "/" + key
}

// isHiddenRel reports keys Spark and Hive also ignore: any folder or file
// below the base whose name starts with '.' or '_' (temp files, _SUCCESS,
// _temporary/), and folder marker objects.
func isHiddenRel(rel string) bool {
	if rel == "" || strings.HasSuffix(rel, "/") || strings.HasSuffix(rel, "_$folder$") {
		return true
	}
	for i := 0; i < len(rel); i++ {
		if (i == 0 || rel[i-1] == '/') && (rel[i] == '.' || rel[i] == '_') {
			return true
		}
	}
	return false
}

// accept applies the listing rules to one object: its name's
// (acceptKey), then modified_after and modified_before.
func (l *location) accept(o storage.ObjectInfo, opts *sourceOptions) (fileEntry, bool) {
	parts, ok := l.acceptKey(o.Key, opts)
	if !ok {
		return fileEntry{}, false
	}
	if mt := o.ModTime.UnixMicro(); (opts.ModifiedAfter != 0 && mt <= opts.ModifiedAfter) ||
		(opts.ModifiedBefore != 0 && mt >= opts.ModifiedBefore) {
		return fileEntry{}, false
	}
	return fileEntry{Key: o.Key, Size: o.Size, ETag: o.ETag, MTime: o.ModTime.UnixMicro(), parts: parts}, true
}

// acceptKey applies the rules a key alone decides: below the base, hidden
// names, the glob, recursion, path_glob_filter and skip_files. It returns
// the key's partition values. Notifications apply it before a HEAD.
func (l *location) acceptKey(key string, opts *sourceOptions) ([]partSegment, bool) {
	if !strings.HasPrefix(key, l.base) {
		return nil, false
	}
	rel := key[len(l.base):]
	if isHiddenRel(rel) || (l.glob != nil && !l.glob.Match(key)) {
		return nil, false
	}
	parts := parsePartitionPath(rel)
	if l.glob == nil && !opts.Recursive && strings.Count(rel, "/") > len(parts) {
		// Not recursive: only partition folders may sit between the
		// location and its files.
		return nil, false
	}
	if opts.PathGlobFilter != nil && !opts.PathGlobFilter.Match(path.Base(rel)) {
		return nil, false
	}
	for _, g := range opts.SkipFiles {
		if g.Match(rel) {
			return nil, false
		}
	}
	return parts, true
}

// list returns the location's data files in key order. prefixes, when
// not nil, restricts the listing to those store prefixes (partition
// pruning during listing); they must lie below base.
func (l *location) list(ctx context.Context, opts *sourceOptions, prefixes []string) ([]fileEntry, error) {
	var files []fileEntry
	add := func(o storage.ObjectInfo) error {
		if f, ok := l.accept(o, opts); ok {
			files = append(files, f)
		}
		return nil
	}

	if l.glob == nil && prefixes == nil && l.prefix != "" && !strings.HasSuffix(l.prefix, "/") {
		// Maybe a single object; a folder named without its slash is
		// listed below.
		o, err := l.store.Stat(ctx, l.prefix)
		switch {
		case err == nil:
			return []fileEntry{{Key: o.Key, Size: o.Size, ETag: o.ETag, MTime: o.ModTime.UnixMicro()}}, nil
		case !errors.Is(err, storage.ErrNotFound):
			return nil, storage.WrapOnce("listing", l.uri, err)
		}
	}
	if prefixes == nil {
		prefixes = []string{l.listPrefix()}
	}
	if len(prefixes) > 1 {
		more, err := l.listPrefixes(ctx, opts, prefixes)
		if err != nil {
			return nil, err
		}
		files = append(files, more...)
	} else {
		for _, p := range prefixes {
			if err := l.store.List(ctx, p, "", add); err != nil {
				return nil, storage.WrapOnce("listing", l.uri, err)
			}
		}
	}
	if len(prefixes) > 1 {
		sort.Slice(files, func(i, j int) bool { return files[i].Key < files[j].Key })
		files = dedupe(files)
	}
	if opts.MaxFileAge > 0 && len(files) > 0 {
		// Relative to the newest file, as Spark does, so the answer does
		// not depend on the clock.
		newest := files[0].MTime
		for _, f := range files {
			newest = max(newest, f.MTime)
		}
		cut := newest - opts.MaxFileAge.Microseconds()
		kept := files[:0]
		for _, f := range files {
			if f.MTime >= cut {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	return files, nil
}

func dedupe(files []fileEntry) []fileEntry {
	out := files[:0]
	for i, f := range files {
		if i > 0 && f.Key == files[i-1].Key {
			continue
		}
		out = append(out, f)
	}
	return out
}

// firstFile returns the first data file of the location, or ok == false.
func (l *location) firstFile(ctx context.Context, opts *sourceOptions) (fileEntry, bool, error) {
	var first fileEntry
	found := false
	err := l.store.List(ctx, l.listPrefix(), "", func(o storage.ObjectInfo) error {
		if f, ok := l.accept(o, opts); ok {
			first, found = f, true
			return errStopListing
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopListing) {
		return fileEntry{}, false, storage.WrapOnce("listing", l.uri, err)
	}
	return first, found, nil
}

// listPrefix is where a full listing starts.
func (l *location) listPrefix() string {
	if l.glob != nil {
		return l.glob.prefix
	}
	return l.base
}
