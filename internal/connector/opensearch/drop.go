package opensearch

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"sluice/internal/connector"
)

// indexPatternPart is a {column|format} part of an index pattern.
var indexPatternPart = regexp.MustCompile(`\{[^}]*\}`)

// DropIndex deletes the table's index (every index of a date pattern, as
// a wildcard), for DROP MATERIALIZED VIEW. A missing index is not an
// error.
func DropIndex(ctx context.Context, spec connector.TableSpec) error {
	o, err := ParseOptions(spec.Options)
	if err != nil {
		return fmt.Errorf("table %s: %w", spec.Name, err)
	}
	cl, err := newClient(ctx, o)
	if err != nil {
		return fmt.Errorf("table %s: %w", spec.Name, err)
	}
	defer cl.Close()
	name := indexPatternPart.ReplaceAllString(o.Index, "*")
	status, body, err := cl.do(ctx, http.MethodDelete, "/"+name+"?ignore_unavailable=true&allow_no_indices=true", nil)
	if err != nil {
		return fmt.Errorf("deleting index %s: %w", name, err)
	}
	if status >= 300 && status != http.StatusNotFound {
		return fmt.Errorf("deleting index %s: %d %s", name, status, truncate(body))
	}
	return nil
}

func truncate(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// SameIndex reports whether two tables write the same index of the same
// cluster (the registry's SameData for opensearch).
func SameIndex(a, b connector.TableSpec) bool {
	i, j := a.Options["index"], b.Options["index"]
	return i != "" && strings.EqualFold(i, j) &&
		strings.TrimRight(a.Options["endpoint"], "/") == strings.TrimRight(b.Options["endpoint"], "/")
}
