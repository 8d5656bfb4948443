package catalog

import (
	"encoding/json"

	"sluice/internal/sql"
)

// sparkQuotesVersion is the catalog format whose stored SQL (objects'
// statements, the "query" of their options, watermark expressions) is
// written in Spark's string escaping: a quote in a literal is \', and ”
// is two adjacent literals. Older files wrote ” for a quote; load reads
// their SQL through sql.UpgradeLegacyText, so it keeps its meaning, and
// the next save writes it the new way.
const sparkQuotesVersion = 3

// upgradeSQL rewrites one stored SQL text of a file older than
// sparkQuotesVersion.
func upgradeSQL(text string) string {
	up, _ := sql.UpgradeLegacyText(text)
	return up
}

// upgradeOptionsSQL rewrites the SQL strings of an object's options: a
// materialized view's or stream's stored "query", a view's
// "id_expression" (flint/options.go).
func upgradeOptionsSQL(raw json.RawMessage) (json.RawMessage, error) {
	return walkJSON(raw, "", func(_, key, v string) string {
		if key == "query" || key == "id_expression" {
			return upgradeSQL(v)
		}
		return v
	})
}

// holdsSQL says whether the catalog stores SQL text, which only a
// binary of sparkQuotesVersion or later reads right.
func (c *Catalog) holdsSQL() bool {
	if len(c.objects) > 0 {
		return true
	}
	for _, t := range c.tables {
		if t.Watermark != nil {
			return true
		}
	}
	return false
}
