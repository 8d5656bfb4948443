package ppl

import (
	"sluice/internal/sql"
)

// union makes the rows the input's (mid-pipeline; none at the start of a
// query) then each dataset's, fields matched by name (UNION ALL, NULL
// where a side has none), at most maxout of them. multisearch's rows
// come newest first when they have an @timestamp, as OpenSearch merges
// its subsearches into one timeline.
func (t *translator) union(c *Union) error {
	at := c.At
	var cols []string
	if t.q != nil {
		var err error
		if cols, err = t.columns(); err != nil {
			return err
		}
	}
	for _, set := range c.Sets {
		st := &translator{cols: t.cols, schema: t.schema, n: t.n}
		sq, err := st.pipeline(set)
		if err != nil {
			return err
		}
		subCols, err := st.columns()
		if err != nil {
			return err
		}
		if t.q == nil {
			t.q, t.names = sq, subCols
		} else {
			t.unionByName(at, t.q, cols, sq, subCols)
		}
		cols = t.names
	}
	if c.Multi {
		if ts, ok := find(cols, "@timestamp"); ok {
			t.set(&sql.Select{At: at, Items: []*sql.SelectItem{star(at)}, From: t.sub(at)})
			t.q.OrderBy = []*sql.OrderItem{{At: at, Expr: col(at, ts), Desc: true}}
		}
	}
	if c.MaxOut > 0 {
		if t.q.Limit != nil || t.q.Offset != nil || t.q.OrderBy == nil {
			t.set(&sql.Select{At: at, Items: []*sql.SelectItem{star(at)}, From: t.sub(at)})
		}
		t.q.Limit = intLit(at, c.MaxOut)
	}
	return nil
}
