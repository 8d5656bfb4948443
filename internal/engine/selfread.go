package engine

import (
	"fmt"
	"os"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/plan"
	"sluice/internal/storage"
)

// checkSelfRead refuses a stream whose query reads the table it writes:
// every epoch would read the rows the previous one wrote and write them
// again, forever. The bound plan is searched, so a read through a view,
// a subquery, a CTE or either side of a join counts, as does another
// table over the same data (the same location, one folder inside the
// other, or the same index path). A materialized view's stream writes the
// view itself, so a view that reads itself is refused the same way.
func (e *Engine) checkSelfRead(stream string, n plan.Node, sink connector.TableSpec) error {
	var err error
	walkScans(n, func(s *plan.Scan) {
		if err != nil {
			return
		}
		if strings.EqualFold(s.Table, sink.Name) {
			err = fmt.Errorf("stream %s: the query reads %s, the table it writes: each epoch would read its own output", stream, sink.Name)
			return
		}
		t, terr := e.catalog.Table(s.Table)
		if terr != nil {
			return
		}
		if sameData(t.Spec, sink) {
			err = fmt.Errorf("stream %s: the query reads %s, which holds the same data as %s, the table it writes: each epoch would read its own output", stream, s.Table, sink.Name)
		}
	})
	return err
}

func walkScans(n plan.Node, fn func(*plan.Scan)) {
	if s, ok := n.(*plan.Scan); ok {
		fn(s)
	}
	for _, c := range n.Children() {
		walkScans(c, fn)
	}
}

// sameData reports whether reading src can see what writing dst stores.
func sameData(src, dst connector.TableSpec) bool {
	if isFileFormat(src.Using) && isFileFormat(dst.Using) {
		return overlaps(src, dst)
	}
	if !strings.EqualFold(src.Using, dst.Using) {
		return false
	}
	switch strings.ToLower(src.Using) {
	case "index":
		p, q := src.Options["path"], dst.Options["path"]
		return p != "" && normalizeLocation(p) == normalizeLocation(q)
	case "opensearch":
		i, j := src.Options["index"], dst.Options["index"]
		return i != "" && strings.EqualFold(i, j) &&
			strings.TrimRight(src.Options["endpoint"], "/") == strings.TrimRight(dst.Options["endpoint"], "/")
	}
	return false
}

// overlaps reports whether a file table's files can include another's:
// the same folder, the source inside the sink's folder, or the sink
// inside a source that reads subfolders (recursive, or a glob).
func overlaps(src, dst connector.TableSpec) bool {
	s, sGlob := folderOf(src.Location)
	d, _ := folderOf(dst.Location)
	if s == "" || d == "" {
		return false
	}
	if isLocalFile(src.Location) {
		// One file: the sink adds files of its own and never rewrites it.
		return false
	}
	if strings.HasPrefix(s, d) {
		return true
	}
	deep := sGlob || !strings.EqualFold(src.Options["recursive"], "false")
	return deep && strings.HasPrefix(d, s)
}

// isLocalFile reports a local location that names an existing file.
func isLocalFile(loc string) bool {
	loc = normalizeLocation(loc)
	if strings.Contains(loc, "://") && !strings.HasPrefix(loc, "file://") {
		return false
	}
	fi, err := os.Stat(strings.TrimPrefix(loc, "file://"))
	return err == nil && fi.Mode().IsRegular()
}

// folderOf is a location as an absolute folder ending in '/' (a glob
// cut before its first wildcard), and whether it had a glob.
func folderOf(loc string) (string, bool) {
	loc = strings.TrimPrefix(normalizeLocation(loc), "file://")
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
