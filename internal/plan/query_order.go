package plan

import "sluice/internal/sql"

// queryOrder is the order a query's result is sorted in: its ORDER BY,
// or the order SORT BY or CLUSTER BY give it. A query runs as one
// partition, where sorting each partition sorts the whole and
// DISTRIBUTE BY moves no row, so those clauses need no other plan.
func queryOrder(q *sql.Query) []*sql.OrderItem {
	if q.Organize != nil {
		return q.Organize.OrderItems()
	}
	return q.OrderBy
}
