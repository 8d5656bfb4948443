package file

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// exists reports whether the location names something that is there: a
// file, or a folder (an empty one counts). For a glob, the folder before
// the first wildcard. Object stores have no folders, so there a location
// exists when some object's key starts with it.
func (l *location) exists(ctx context.Context) (bool, error) {
	key := l.prefix
	if l.glob != nil {
		key = l.base
	}
	key = strings.TrimSuffix(key, "/")
	if ls, ok := l.store.(*storage.LocalStore); ok {
		_, err := os.Stat(filepath.Join(ls.Root(), filepath.FromSlash(key)))
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, os.ErrNotExist):
			return false, nil
		}
		return false, fmt.Errorf("checking location %s: %w", l.uri, err)
	}
	if key != "" {
		if _, err := l.store.Stat(ctx, key); err == nil {
			return true, nil
		}
		key += "/"
	}
	found := false
	err := l.store.List(ctx, key, "", func(storage.ObjectInfo) error {
		found = true
		return errStopListing
	})
	if err != nil && !errors.Is(err, errStopListing) {
		return false, fmt.Errorf("checking location %s: %w", l.uri, err)
	}
	return found, nil
}

// missingError is the error for a location that is not there when the
// table needs its files (to infer a schema).
func (l *location) missingError(table string) error {
	return usererr.Errorf(usererr.NotFound, "table %s: location %s does not exist", table, l.uri)
}

// warnIfMissing tells the user, once per source, that an empty listing
// comes from a location that does not exist rather than from an empty
// folder: a typo in LOCATION must not look like a table with no rows.
func (s *Source) warnIfMissing(ctx context.Context) {
	if s.missingWarned == nil || s.missingWarned.Load() {
		return
	}
	if ok, err := s.loc.exists(ctx); err != nil || ok {
		return
	}
	if s.missingWarned.CompareAndSwap(false, true) {
		connector.Warn(ctx, fmt.Sprintf("table %s: location %s does not exist; reading it as empty", s.spec.Name, s.loc.uri))
	}
}
