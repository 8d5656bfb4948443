package ppl

import (
	"sluice/internal/sql"
)

// naturalOrder is the order rows have without a sort, for the commands
// that need one (streamstats, trendline): a file table's file and row
// order, from its hidden _file and _row columns. Those columns are only
// in scope in the SELECT straight over the table, so the order is known
// while the query is still the source's own rows (a search or where
// filters them in that SELECT); ok is false otherwise, or for a source
// that is no file table.
func (t *translator) naturalOrder(at sql.Pos) ([]*sql.OrderItem, bool, error) {
	return t.naturalOrderOf(at, false)
}

// naturalOrderOf is naturalOrder; with items it also holds for a SELECT
// computing fields (eval, fields) straight over the table, whose ORDER
// BY still sees the table's hidden columns.
func (t *translator) naturalOrderOf(at sql.Pos, items bool) ([]*sql.OrderItem, bool, error) {
	sel, ok := t.plain()
	if !ok || !items && !isStarOnly(sel) || t.schema == nil {
		return nil, false, nil
	}
	tn, ok := sel.From.(*sql.TableName)
	if !ok {
		return nil, false, nil
	}
	file, row := col(at, "_file"), col(at, "_row")
	probe := &sql.Query{At: at, Body: &sql.Select{At: at, Items: []*sql.SelectItem{item(file, ""), item(row, "")}, From: tn}}
	if _, err := t.schema(probe); err != nil {
		// Not a file table: it has no _file and _row.
		return nil, false, nil
	}
	return []*sql.OrderItem{{At: at, Expr: file}, {At: at, Expr: row}}, true, nil
}
