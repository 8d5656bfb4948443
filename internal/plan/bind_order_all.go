package plan

import (
	"sluice/internal/expr"
	"sluice/internal/sql"
)

// bindOrderAll sorts n, a query's result, by ORDER BY ALL: on every
// output column, left to right, each in o's direction and null order.
func bindOrderAll(n Node, o *sql.OrderItem) Node {
	fs := n.Schema().Fields()
	keys := make([]SortKey, len(fs))
	for i, f := range fs {
		keys[i] = sortKey(o, expr.Col(i, f.Name, f.Type))
	}
	return &Sort{Input: n, Keys: keys}
}
