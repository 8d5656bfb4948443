package registry

import (
	"os"
	"path/filepath"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// SameData reports whether reading src can see what writing dst stores,
// so a stream from src into dst would read its own output. Tables with a
// LOCATION overlap when one's files can include the other's, whatever
// their formats; others ask their connector (Factory.SameData).
func SameData(src, dst connector.TableSpec) bool {
	fs, err1 := Lookup(src.Using)
	fd, err2 := Lookup(dst.Using)
	if err1 != nil || err2 != nil {
		return false
	}
	if fs.NeedsLocation && fd.NeedsLocation {
		return locationsOverlap(src, dst)
	}
	if fs != fd || fs.SameData == nil {
		return false
	}
	return fs.SameData(src, dst)
}

// locationsOverlap: the same folder, the source inside the sink's folder,
// or the sink inside a source that reads subfolders (recursive, or a
// glob). A source that is one file never sees the sink's new files.
func locationsOverlap(src, dst connector.TableSpec) bool {
	s, sGlob := folderOf(src.Location)
	d, _ := folderOf(dst.Location)
	if s == "" || d == "" || isLocalFile(src.Location) {
		return false
	}
	if strings.HasPrefix(s, d) {
		return true
	}
	deep := sGlob || !strings.EqualFold(src.Options["recursive"], "false")
	return deep && strings.HasPrefix(d, s)
}

// absLocation makes a local location absolute, without file://.
func absLocation(loc string) string {
	loc = strings.TrimPrefix(loc, "file://")
	if loc == "" || strings.Contains(loc, "://") {
		return loc
	}
	if abs, err := filepath.Abs(loc); err == nil {
		if strings.HasSuffix(loc, "/") {
			abs += "/"
		}
		return abs
	}
	return loc
}

// isLocalFile reports a local location that names an existing file.
func isLocalFile(loc string) bool {
	loc = absLocation(loc)
	if strings.Contains(loc, "://") {
		return false
	}
	fi, err := os.Stat(loc)
	return err == nil && fi.Mode().IsRegular()
}

// folderOf is a location as a folder ending in '/' (a glob cut before
// its first wildcard), and whether it had a glob.
func folderOf(loc string) (string, bool) {
	loc = absLocation(loc)
	glob := storage.IsGlob(loc)
	if glob {
		loc = storage.GlobPrefix(loc)
		loc = loc[:strings.LastIndexByte(loc, '/')+1]
	}
	if loc != "" && !strings.HasSuffix(loc, "/") {
		loc += "/"
	}
	return loc, glob
}
