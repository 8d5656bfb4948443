package storage

import (
	"path/filepath"
	"strings"
)

// NormalizeLocation makes local paths absolute, so the table still works
// when a later invocation runs from another directory.
func NormalizeLocation(loc string) string {
	if loc == "" || strings.Contains(loc, "://") {
		return loc
	}
	if abs, err := filepath.Abs(loc); err == nil {
		if strings.HasSuffix(loc, "/") && !strings.HasSuffix(abs, "/") {
			abs += "/"
		}
		return abs
	}
	return loc
}
