package plan

import (
	"sluice/internal/expr"
	"sluice/internal/sql"
)

// BindConstant binds an expression that may name no column, such as a
// value of INSERT's PARTITION (k = value): a column name in it is an
// unknown column.
func (b *Binder) BindConstant(e sql.Expr) (expr.Expr, error) {
	return b.bindScalar(e, &scope{})
}
