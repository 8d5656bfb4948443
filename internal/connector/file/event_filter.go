package file

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sluice/internal/storage"
)

// eventVerdict is what one ObjectCreated record of a notification means
// to the table. Every verdict but eventFile needs no epoch: the message is
// acknowledged at once and the record counted (NotifyStats). A record can
// fail an epoch only by the store failing the HEAD for a key that can be
// a file of the table (an unreachable S3), never by what its key says.
type eventVerdict int

const (
	// eventFile: an object the table reads.
	eventFile eventVerdict = iota
	// eventNotFile: a key that can name no file, of any table (keyNamesFile).
	eventNotFile
	// eventFiltered: outside the table's location, or left out by its
	// file rules (hidden names, glob, recursion, path_glob_filter,
	// skip_files, modified_after/before).
	eventFiltered
	// eventGone: the object is no longer there.
	eventGone
)

// keyNamesFile reports whether an object key can name a data file: not a
// folder marker ("sub/", what a console's "Create folder" puts), without
// an empty, '.' or '..' segment ("a//b.json", "/x.json"), and without a
// NUL byte. S3 accepts such keys, but no store here can read them
// (storage's key check refuses the segments, a posix path cannot spell
// any of them: Versity answers a HEAD with a NUL with a 500), so a HEAD
// for one would fail every epoch and its message would never be
// acknowledged.
func keyNamesFile(key string) bool {
	if key == "" || strings.HasSuffix(key, "/") || strings.IndexByte(key, 0) >= 0 {
		return false
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// statEvent judges one record: each spelling of its key (eventKeys) is
// checked by name first, so only a key the table could read costs a HEAD;
// the first that exists is the file. Otherwise the verdict is the most
// telling of the spellings': gone (a readable key whose object was
// deleted) over filtered over not a file.
func (s *StreamSource) statEvent(ctx context.Context, ev objectEvent) (fileEntry, eventVerdict, error) {
	verdict := eventNotFile
	for _, k := range ev.Keys {
		if !strings.HasPrefix(k, s.loc.base) {
			// Another table's business, whatever the key looks like.
			verdict = max(verdict, eventFiltered)
			continue
		}
		if !keyNamesFile(k) {
			continue
		}
		if _, ok := s.loc.acceptKey(k, &s.sopts); !ok {
			verdict = max(verdict, eventFiltered)
			continue
		}
		o, err := s.loc.store.Stat(ctx, k)
		if errors.Is(err, storage.ErrNotFound) {
			verdict = eventGone
			continue
		}
		if err != nil {
			return fileEntry{}, 0, fmt.Errorf("table %s: reading %s: %w", s.spec.Name, s.loc.keyURI(k), err)
		}
		if o.Key == "" {
			o.Key = k
		}
		f, ok := s.loc.accept(o, &s.sopts)
		if !ok {
			return fileEntry{}, eventFiltered, nil
		}
		return f, eventFile, nil
	}
	return fileEntry{}, verdict, nil
}
