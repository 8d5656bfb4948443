package plan

import (
	"strings"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// sqlShape is what the post-aggregation hook asks of every subtree it
// visits: how many nodes it has and whether it holds an aggregate call.
type sqlShape struct {
	size int
	agg  bool
}

// shapeMemo computes each node's sqlShape once, from its children's. The
// hook visits every subtree of an expression; walking each subtree again
// there made binding a 100,000-term HAVING quadratic.
type shapeMemo map[sql.Expr]sqlShape

func (m shapeMemo) of(e sql.Expr) sqlShape {
	if e == nil {
		return sqlShape{}
	}
	if s, ok := m[e]; ok {
		return s
	}
	s := sqlShape{size: 1}
	if c, ok := e.(*sql.Call); ok && c.Over == nil && expr.IsAggregate(strings.ToLower(c.Name)) {
		s.agg = true
	}
	for _, k := range sqlChildren(e) {
		ks := m.of(k)
		s.size += ks.size
		s.agg = s.agg || ks.agg
	}
	m[e] = s
	return s
}

// keyMatchLimit bounds the size of a subtree worth binding to compare
// with the GROUP BY keys, whose largest has maxKey nodes: binding adds
// casts or folds constants but does not turn a large expression into a
// small key, so larger subtrees are not bound (each would cost its whole
// size, at every level of a long expression).
func keyMatchLimit(maxKey int) int { return 4*maxKey + 16 }
