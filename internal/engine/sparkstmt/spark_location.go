package sparkstmt

import (
	"net/url"
	"strings"

	"sluice/internal/sql"
)

// sparkLocation is a table's location as Spark's DESCRIBE EXTENDED and
// SHOW TABLE EXTENDED print it: a local path as a file: URI
// (file:///data/logs, spaces and the like escaped), a trailing slash
// dropped as Hadoop's Path drops it; a URI (s3://, file://) as given,
// its secrets redacted.
func sparkLocation(loc string) string {
	if strings.Contains(loc, "://") {
		scheme, rest, _ := strings.Cut(loc, "://")
		if host, path, ok := strings.Cut(rest, "/"); ok && strings.Trim(path, "/") != "" {
			rest = host + "/" + strings.TrimRight(path, "/")
		}
		return sql.RedactText(scheme + "://" + rest)
	}
	p := loc
	if t := strings.TrimRight(p, "/"); t != "" {
		p = t
	}
	return "file://" + (&url.URL{Path: p}).EscapedPath()
}
