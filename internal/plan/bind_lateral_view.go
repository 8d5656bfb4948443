package plan

import "sluice/internal/sql"

// bindLateralView binds Input LATERAL VIEW [OUTER] generator(...) t AS
// c, ...: Input's columns, then the generated ones as t's.
func (b *Binder) bindLateralView(lv *sql.LateralView) (Node, *scope, error) {
	input, sc, err := b.bindFrom(lv.Input)
	if err != nil {
		return nil, nil, err
	}
	return b.bindLateral(lv.Call, lv.Outer, lv.Table, lv.Columns, input, sc)
}
