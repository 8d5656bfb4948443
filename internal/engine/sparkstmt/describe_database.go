package sparkstmt

import (
	"context"
	"fmt"
	"maps"
	"os/user"
	"path/filepath"
	"slices"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
)

// DescribeDatabase is Spark's DESCRIBE DATABASE [EXTENDED] db: catalog,
// namespace, comment, location and owner, and with EXTENDED the
// properties (redacted). A database without LOCATION keeps its managed
// tables in the data dir's tables/ folder, which is its location.
func (e *Runner) DescribeDatabase(ctx context.Context, s *sql.DescribeDatabase) (*Result, error) {
	name, err := e.h.DatabaseOf(ctx, s.Name)
	if err != nil {
		return nil, fmt.Errorf("DESCRIBE DATABASE: %w", err)
	}
	dbs, err := e.catalog.Databases()
	if err != nil {
		return nil, fmt.Errorf("DESCRIBE DATABASE %s: %w", name, err)
	}
	d := &catalog.Database{Name: name}
	for _, x := range dbs {
		if x.Name == name {
			d = x
		}
	}
	comment, loc := d.Comment, d.Location
	if name == catalog.DefaultDatabase && comment == "" {
		comment = "default database"
	}
	if loc == "" && e.h.DataDir() != "" {
		loc = filepath.Join(e.h.DataDir(), "tables") + string(filepath.Separator)
	}
	owner := ""
	if u, err := user.Current(); err == nil {
		owner = u.Username
	}
	rows := [][]string{
		{"Catalog Name", catalog.CatalogNames[0]},
		{"Namespace Name", name},
		{"Comment", comment},
		{"Location", sql.RedactText(loc)},
		{"Owner", owner},
	}
	if s.Extended {
		// Spark prints them as ((k1,v1), (k2,v2)), sorted by key.
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(d.Properties)) {
			parts = append(parts, "("+k+","+redact(k, d.Properties[k])+")")
		}
		props := ""
		if len(parts) > 0 {
			props = "(" + strings.Join(parts, ", ") + ")"
		}
		rows = append(rows, []string{"Properties", props})
	}
	return stringRows([]string{"info_name", "info_value"}, rows), nil
}

// ShowCatalogs is SHOW CATALOGS: the one catalog there is, by Spark's
// name for it.
func ShowCatalogs(s *sql.ShowCatalogs) *Result {
	var rows [][]string
	if s.Like == "" || likeSpark(s.Like, catalog.CatalogNames[0]) {
		rows = append(rows, []string{catalog.CatalogNames[0]})
	}
	return stringRows([]string{"catalog"}, rows)
}

// ShowCurrentNamespace is SHOW CURRENT NAMESPACE: the catalog and the
// session's database.
func (e *Runner) ShowCurrentNamespace(ctx context.Context) *Result {
	return stringRows([]string{"catalog", "namespace"}, [][]string{{catalog.CatalogNames[0], e.currentDB(ctx)}})
}
