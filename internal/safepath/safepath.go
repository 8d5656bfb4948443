// Package safepath keeps names that users give (tables, views, streams)
// from turning into paths outside the directory they are meant for.
//
// Two rules, applied at different moments:
//
//   - CheckName runs when a name enters the catalog: a name with a path
//     separator, "..", NUL or a control character is refused, so a view
//     called `../..` never exists.
//   - Join runs whenever a path is derived from a root and names, right
//     before anything is written or deleted there: the result must lie
//     strictly inside the root, whatever the names (a catalog written by
//     an older version may still hold a bad one).
//
// For example:
//
//	p, err := safepath.Join(dataDir, "indexes", name) // name "x" → <dataDir>/indexes/x
//	_, err = safepath.Join(dataDir, "indexes", "../..") // error: escapes the data directory
package safepath

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// ErrEscapes is wrapped by Join when the joined path would not lie
// strictly inside the root.
var ErrEscapes = errors.New("escapes the directory it belongs in")

// ErrBadName is wrapped by CheckName.
var ErrBadName = errors.New("invalid name")

// CheckName accepts a name that can safely become one path segment: not
// empty, not "." or "..", without '/', '\\', "..", NUL or any control
// character.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: a name cannot be empty", ErrBadName)
	case name == ".":
		return fmt.Errorf("%w %q: a name cannot be \".\"", ErrBadName, name)
	case strings.Contains(name, ".."):
		return fmt.Errorf("%w %q: a name cannot contain \"..\"", ErrBadName, name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%w %q: a name cannot contain '/' or '\\'", ErrBadName, name)
	}
	for _, r := range name {
		if r == 0 || unicode.IsControl(r) {
			return fmt.Errorf("%w %q: a name cannot contain NUL or control characters", ErrBadName, name)
		}
		if r == unicode.ReplacementChar {
			return fmt.Errorf("%w %q: a name must be valid UTF-8", ErrBadName, name)
		}
	}
	return nil
}

// Join joins root and elems, each elem a single checked name, and
// returns an error wrapping ErrEscapes unless the result is strictly
// inside root. root itself is made absolute and cleaned first.
func Join(root string, elems ...string) (string, error) {
	if root == "" {
		return "", fmt.Errorf("joining %q: %w (no root directory)", strings.Join(elems, "/"), ErrEscapes)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("joining %q: %w", strings.Join(elems, "/"), err)
	}
	for _, e := range elems {
		if err := CheckName(e); err != nil {
			return "", fmt.Errorf("path under %s: %w: %w", abs, ErrEscapes, err)
		}
	}
	p := filepath.Join(append([]string{abs}, elems...)...)
	if !Within(abs, p) {
		return "", fmt.Errorf("path %s: %w %s", p, ErrEscapes, abs)
	}
	return p, nil
}

// Within reports whether p lies strictly inside root (both cleaned and
// made absolute; symbolic links are not resolved).
func Within(root, p string) bool {
	r, err := filepath.Abs(root)
	if err != nil {
		return false
	}
	q, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, q)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return false
	}
	return true
}
