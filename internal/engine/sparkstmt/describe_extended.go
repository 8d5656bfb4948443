package sparkstmt

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// createdBy fills Spark's "Created By" row.
const createdBy = "Sluice"

// sparkTime is how Spark's DESCRIBE EXTENDED prints a time
// (java.util.Date's toString), in UTC.
func sparkTime(t time.Time) string {
	if t.IsZero() {
		return "UNKNOWN"
	}
	return t.UTC().Format("Mon Jan 02 15:04:05 MST 2006")
}

// describeColumn is DESCRIBE t col in Spark's layout: one row per fact
// of the column; EXTENDED adds the column statistics rows (NULL until
// ANALYZE TABLE ... FOR COLUMNS computed them).
func describeColumn(t *catalog.Table, f arrow.Field, extended bool) *Result {
	comment := columnComment(t, f.Name)
	if comment == "" {
		comment = "NULL"
	}
	rows := [][]string{{"col_name", f.Name}, {"data_type", types.CatalogString(f.Type)}, {"comment", comment}}
	if extended {
		rows = append(rows, columnStatsRows(t, f.Name)...)
	}
	return stringRows([]string{"info_name", "info_value"}, rows)
}

// describeTableExtended is DESCRIBE {EXTENDED | FORMATTED} t in Spark's
// layout: the columns, "# Partition Information" when partitioned, then
// "# Detailed Table Information". Options are redacted as everywhere
// (sql.RedactValue); path is the Location row, not an option.
func (e *Runner) describeTableExtended(t *catalog.Table) *Result {
	rows := describeColumns(t)
	rows = append(rows, []string{"", "", ""}, []string{"# Detailed Table Information", "", ""})
	for _, d := range e.tableDetail(t) {
		rows = append(rows, []string{d[0], d[1], ""})
	}
	return stringRows([]string{"col_name", "data_type", "comment"}, rows)
}

// tableDetail are Spark's "# Detailed Table Information" rows of a
// table, also SHOW TABLE EXTENDED's information.
func (e *Runner) tableDetail(t *catalog.Table) [][2]string {
	db, name := catalog.SplitStored(t.Spec.Name)
	kind := "EXTERNAL"
	if e.h.IsManaged(t) {
		kind = "MANAGED"
	}
	detail := [][2]string{
		{"Catalog", catalog.CatalogNames[0]},
		{"Database", db},
		{"Table", name},
		{"Created Time", sparkTime(t.Created)},
		{"Last Access", "UNKNOWN"},
		{"Created By", createdBy},
		{"Type", kind},
		{"Provider", t.Spec.Using},
	}
	if t.Comment != "" {
		detail = append(detail, [2]string{"Comment", t.Comment})
	}
	if len(t.Properties) > 0 {
		detail = append(detail, [2]string{"Table Properties", sparkProperties(t.Properties)})
	}
	if t.Stats != nil {
		detail = append(detail, [2]string{"Statistics", statsText(t.Stats)})
	}
	if t.Spec.Location != "" {
		detail = append(detail, [2]string{"Location", sparkLocation(t.Spec.Location)})
	}
	opts := map[string]string{}
	for k, v := range t.Spec.Options {
		if !strings.EqualFold(k, "path") {
			opts[k] = v
		}
	}
	if len(opts) > 0 {
		detail = append(detail, [2]string{"Storage Properties", sparkProperties(opts)})
	}
	if len(t.Spec.PartitionBy) > 0 {
		detail = append(detail, [2]string{"Partition Provider", "Catalog"})
	}
	return detail
}

// sparkProperties prints properties as Spark's DESCRIBE does,
// [k1=v1, k2=v2], sorted by key, secrets redacted.
func sparkProperties(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + redact(k, m[k])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// describeColumns are DESCRIBE's column rows, then Spark's "# Partition
// Information" section when the table is partitioned. A column's
// comment is its COMMENT, and the watermark's column says so (Sluice's
// own note); NULL when there is neither, as in Spark.
func describeColumns(t *catalog.Table) [][]string {
	var rows [][]string
	for _, f := range t.Spec.Schema.Fields() {
		c := columnComment(t, f.Name)
		if t.Watermark != nil && strings.EqualFold(t.Watermark.Column, f.Name) {
			c = strings.TrimPrefix(c+"; watermark: "+t.Watermark.Expr, "; ")
		}
		rows = append(rows, []string{f.Name, types.CatalogString(f.Type), orNull(c)})
	}
	if len(t.Spec.PartitionBy) > 0 {
		rows = append(rows, []string{"# Partition Information", "", ""}, []string{"# col_name", "data_type", "comment"})
		for _, p := range t.Spec.PartitionBy {
			typ := ""
			for _, f := range t.Spec.Schema.Fields() {
				if strings.EqualFold(f.Name, p) {
					typ = types.CatalogString(f.Type)
				}
			}
			rows = append(rows, []string{p, typ, orNull(columnComment(t, p))})
		}
	}
	return rows
}

// describeTableColumn is DESCRIBE [EXTENDED] t col.
func (e *Runner) describeTableColumn(t *catalog.Table, s *sql.DescribeTable) (*Result, error) {
	for _, f := range t.Spec.Schema.Fields() {
		if strings.EqualFold(f.Name, s.Column) {
			return describeColumn(t, f, s.Extended), nil
		}
	}
	return nil, usererr.Errorf(usererr.NotFound, "DESCRIBE %s: no column %s", t.Spec.Name, s.Column)
}
