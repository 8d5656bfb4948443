package ppl

import (
	"fmt"
	"strings"

	"sluice/internal/sql"
)

// lookup enriches rows from a lookup table: a LEFT JOIN on the mapping
// fields; replace (or output) sets the output fields to the matched
// values, append only fills the ones that are NULL.
func (t *translator) lookup(c *Lookup) error {
	at := c.At
	srcCols, err := t.columns()
	if err != nil {
		return err
	}
	lq := &sql.Query{At: at, Body: &sql.Select{At: at, Items: []*sql.SelectItem{star(at)}, From: &sql.TableName{At: at, Name: c.Table}}}
	lkCols, err := t.cols(lq)
	if err != nil {
		return err
	}
	src := t.sub(at)
	*t.n++
	lk := &sql.TableName{At: at, Name: c.Table, Alias: "_lk" + strings.TrimPrefix(src.Alias, "_p")}
	var on sql.Expr
	isKey := map[string]bool{}
	for _, k := range c.Keys {
		lc, ok := find(lkCols, k.Name)
		if !ok {
			return errAt(k.At, "lookup table %s has no field %s", c.Table, k.Name)
		}
		isKey[lc] = true
		sName, sAt := k.Name, k.At
		if k.As != "" {
			sName, sAt = k.As, k.AsAt
		}
		sc, ok, err := t.resolve(sName)
		if err != nil {
			return err
		}
		if !ok {
			return errAt(sAt, "field %s not found", sName)
		}
		eq := &sql.Binary{At: k.At, Op: sql.OpEq, L: col(sAt, src.Alias, sc), R: col(k.At, lk.Alias, lc)}
		if on == nil {
			on = eq
		} else {
			on = &sql.Binary{At: k.At, Op: sql.OpAnd, L: on, R: eq}
		}
	}
	type out struct {
		in, name string
		at       sql.Pos
	}
	var outs []out
	if len(c.Cols) == 0 {
		for _, lc := range lkCols {
			if !isKey[lc] {
				outs = append(outs, out{in: lc, name: lc, at: at})
			}
		}
	}
	for _, f := range c.Cols {
		lc, ok := find(lkCols, f.Name)
		if !ok {
			return errAt(f.At, "lookup table %s has no field %s", c.Table, f.Name)
		}
		name := lc
		if f.As != "" {
			name = f.As
		}
		outs = append(outs, out{in: lc, name: name, at: f.At})
	}
	var items []*sql.SelectItem
	used := make([]bool, len(outs))
	for _, sc := range srcCols {
		var e sql.Expr = col(at, src.Alias, sc)
		for i, o := range outs {
			if strings.EqualFold(o.name, sc) {
				used[i] = true
				lv := col(o.at, lk.Alias, o.in)
				if c.Append {
					e = &sql.Call{At: o.at, Name: "coalesce", Args: []sql.Expr{e, lv}}
				} else {
					e = lv
				}
			}
		}
		items = append(items, item(e, sc))
	}
	for i, o := range outs {
		if used[i] {
			continue
		}
		if c.Append && len(c.Cols) > 0 {
			return errAt(o.at, "lookup append: field %s does not exist to append to", o.name)
		}
		items = append(items, item(col(o.at, lk.Alias, o.in), o.name))
	}
	t.set(&sql.Select{At: at, Items: items, From: &sql.Join{At: at, Kind: sql.JoinLeft, L: src, R: lk, On: on}})
	return nil
}

var joinKinds = map[string]sql.JoinKind{"inner": sql.JoinInner, "left": sql.JoinLeft, "right": sql.JoinRight,
	"full": sql.JoinFull, "cross": sql.JoinCross}

// join combines the rows so far (left) with a table or subsearch (right).
// With on/where, fields both sides have are named alias.field (l.a and
// r.a); with a field list, the keys appear once and the right side's
// other duplicates replace the left's (overwrite=true, the default).
func (t *translator) join(c *Join) error {
	at := c.At
	kind, ok := joinKinds[c.Kind]
	semi := c.Kind == "semi" || c.Kind == "anti"
	if !ok && !semi {
		return errAt(at, "%s joins are not supported yet", c.Kind)
	}
	leftCols, err := t.columns()
	if err != nil {
		return err
	}
	la := c.LeftAlias
	if la == "" {
		la = t.self
	}
	var right sql.TableExpr
	var rightCols []string
	ra := c.RightAlias
	if ra == "" {
		ra = c.Right.Alias
	}
	if c.Right.Sub != nil {
		rt := &translator{cols: t.cols, schema: t.schema, n: t.n}
		rq, err := rt.pipeline(c.Right.Sub)
		if err != nil {
			return err
		}
		if ra == "" {
			ra = rt.self
		}
		if rightCols, err = t.cols(rq); err != nil {
			return err
		}
		right = &sql.SubqueryTable{At: c.RightAt, Query: rq, Alias: ra}
	} else {
		if ra == "" {
			ra = c.Right.Table
		}
		rq := &sql.Query{At: c.RightAt, Body: &sql.Select{At: c.RightAt, Items: []*sql.SelectItem{star(c.RightAt)}, From: &sql.TableName{At: c.RightAt, Name: c.Right.Table}}}
		if rightCols, err = t.cols(rq); err != nil {
			return err
		}
		right = &sql.TableName{At: c.RightAt, Name: c.Right.Table, Alias: ra}
	}
	if strings.EqualFold(la, ra) {
		la = "_left"
	}
	left := &sql.SubqueryTable{At: at, Query: t.q, Alias: la}

	eqOn := func(keys []string, kat sql.Pos) sql.Expr {
		var on sql.Expr
		for _, k := range keys {
			eq := &sql.Binary{At: kat, Op: sql.OpEq, L: col(kat, la, k), R: col(kat, ra, k)}
			if on == nil {
				on = eq
			} else {
				on = &sql.Binary{At: kat, Op: sql.OpAnd, L: on, R: eq}
			}
		}
		return on
	}
	var on sql.Expr
	var usingKeys []string
	switch {
	case c.On != nil:
		if keys, ok := bareFields(c.On); ok {
			for _, k := range keys {
				if _, ok := find(leftCols, k); !ok {
					return errAt(c.On.Pos(), "join field %s is not on the left side", k)
				}
				if _, ok := find(rightCols, k); !ok {
					return errAt(c.On.Pos(), "join field %s is not on the right side", k)
				}
			}
			on = eqOn(keys, c.On.Pos())
		} else {
			on = c.On
		}
	default:
		for _, f := range c.Fields {
			if _, ok := find(leftCols, f.Name); !ok {
				return errAt(f.At, "join field %s is not on the left side", f.Name)
			}
			if _, ok := find(rightCols, f.Name); !ok {
				return errAt(f.At, "join field %s is not on the right side", f.Name)
			}
			usingKeys = append(usingKeys, f.Name)
		}
		if len(usingKeys) == 0 {
			for _, lc := range leftCols {
				if _, ok := find(rightCols, lc); ok {
					usingKeys = append(usingKeys, lc)
				}
			}
			if len(usingKeys) == 0 {
				return errAt(at, "join: the two sides have no field in common")
			}
		}
		on = eqOn(usingKeys, at)
	}
	if c.Max > 0 {
		if right, err = t.joinMax(c, right, ra, usingKeys, rightCols); err != nil {
			return err
		}
	}
	if semi {
		return t.semiJoin(c, left, right, la, ra, on, leftCols)
	}
	if kind == sql.JoinCross && on != nil {
		kind = sql.JoinInner
	}

	var items []*sql.SelectItem
	leftMap, rightMap := map[string]string{}, map[string]string{}
	if usingKeys != nil {
		isKey := map[string]bool{}
		for _, k := range usingKeys {
			isKey[strings.ToLower(k)] = true
			var e sql.Expr = col(at, la, k)
			switch kind {
			case sql.JoinRight:
				e = col(at, ra, k)
			case sql.JoinFull:
				e = &sql.Call{At: at, Name: "coalesce", Args: []sql.Expr{col(at, la, k), col(at, ra, k)}}
			}
			items = append(items, item(e, k))
		}
		for _, lc := range leftCols {
			if isKey[strings.ToLower(lc)] {
				continue
			}
			if rc, dup := find(rightCols, lc); dup && !c.NoOverwrite {
				items = append(items, item(col(at, ra, rc), lc))
				continue
			}
			items = append(items, item(col(at, la, lc), lc))
		}
		for _, rc := range rightCols {
			if _, dup := find(leftCols, rc); !dup {
				items = append(items, item(col(at, ra, rc), rc))
			}
		}
	} else {
		for _, lc := range leftCols {
			name := lc
			if _, dup := find(rightCols, lc); dup {
				name = la + "." + lc
			}
			leftMap[strings.ToLower(lc)] = name
			items = append(items, item(col(at, la, lc), name))
		}
		for _, rc := range rightCols {
			name := rc
			if _, dup := find(leftCols, rc); dup {
				name = ra + "." + rc
			}
			rightMap[strings.ToLower(rc)] = name
			items = append(items, item(col(at, ra, rc), name))
		}
	}
	t.set(&sql.Select{At: at, Items: items, From: &sql.Join{At: at, Kind: kind, L: left, R: right, On: on}})
	if t.aliases == nil {
		t.aliases = map[string]map[string]string{}
	}
	for _, a := range []string{la, t.self} {
		t.aliases[strings.ToLower(a)] = leftMap
	}
	for _, a := range []string{ra, c.Right.Alias, c.Right.Table} {
		if a != "" {
			t.aliases[strings.ToLower(a)] = rightMap
		}
	}
	if usingKeys != nil {
		for k := range t.aliases {
			t.aliases[k] = nil
		}
	}
	return nil
}

// bareFields reads join criteria written as field names only (on a, on
// a AND b): an equi-join on those common fields.
func bareFields(e sql.Expr) ([]string, bool) {
	switch x := e.(type) {
	case *sql.ColumnRef:
		if len(x.Parts) == 1 {
			return x.Parts, true
		}
	case *sql.Binary:
		if x.Op == sql.OpAnd {
			l, ok1 := bareFields(x.L)
			r, ok2 := bareFields(x.R)
			if ok1 && ok2 {
				return append(l, r...), true
			}
		}
	}
	return nil, false
}

// semiJoin keeps the left rows that have (semi) or lack (anti) a match:
// a join with the right side's distinct keys, which the equality
// conditions between the two sides name.
func (t *translator) semiJoin(c *Join, left *sql.SubqueryTable, right sql.TableExpr, la, ra string, on sql.Expr, leftCols []string) error {
	at := c.At
	var lks, rks []sql.Expr
	var split func(e sql.Expr) error
	split = func(e sql.Expr) error {
		b, ok := e.(*sql.Binary)
		if ok && b.Op == sql.OpAnd {
			if err := split(b.L); err != nil {
				return err
			}
			return split(b.R)
		}
		if ok && b.Op == sql.OpEq {
			l, lok := b.L.(*sql.ColumnRef)
			r, rok := b.R.(*sql.ColumnRef)
			if lok && rok {
				if side(r, ra, c.Right.Table) && !side(l, ra, c.Right.Table) {
					lks, rks = append(lks, l), append(rks, r)
					return nil
				}
				if side(l, ra, c.Right.Table) && !side(r, ra, c.Right.Table) {
					lks, rks = append(lks, r), append(rks, l)
					return nil
				}
			}
		}
		return errAt(e.Pos(), "%s join: want equalities between a left field and a right field (%s.f), joined by AND", c.Kind, ra)
	}
	if on == nil {
		return errAt(at, "%s join needs a condition", c.Kind)
	}
	if err := split(on); err != nil {
		return err
	}
	keys := &sql.Select{At: at, Distinct: true, From: right}
	var cond sql.Expr
	for i := range rks {
		k := fmt.Sprintf("__k%d", i)
		keys.Items = append(keys.Items, item(rks[i], k))
		eq := &sql.Binary{At: at, Op: sql.OpEq, L: lks[i], R: col(at, "_sj", k)}
		if cond == nil {
			cond = eq
		} else {
			cond = &sql.Binary{At: at, Op: sql.OpAnd, L: cond, R: eq}
		}
	}
	keys.Items = append(keys.Items, item(&sql.Literal{At: at, Kind: sql.LitBool, Value: "TRUE"}, "__m"))
	kind := sql.JoinInner
	var where sql.Expr
	if c.Kind == "anti" {
		kind = sql.JoinLeft
		where = &sql.Is{At: at, X: col(at, "_sj", "__m"), Is: sql.IsNull}
	}
	var items []*sql.SelectItem
	for _, lc := range leftCols {
		items = append(items, item(col(at, la, lc), lc))
	}
	sub := &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: keys}, Alias: "_sj"}
	t.set(&sql.Select{At: at, Items: items, From: &sql.Join{At: at, Kind: kind, L: left, R: sub, On: cond}, Where: where})
	return nil
}

// side reports whether a field reference is qualified by the right
// side's alias or table.
func side(r *sql.ColumnRef, alias, table string) bool {
	return len(r.Parts) > 1 && (strings.EqualFold(r.Parts[0], alias) || strings.EqualFold(r.Parts[0], table))
}

// joinMax keeps, per combination of the join fields, the first max rows
// of the right table in its natural order (file and row order), so each
// left row meets at most max of them. Only the field-list form over a
// file table has both the keys and that order.
func (t *translator) joinMax(c *Join, right sql.TableExpr, ra string, keys, rightCols []string) (sql.TableExpr, error) {
	at := c.At
	if c.Right.Sub != nil || keys == nil {
		return nil, errAt(at, "join max=%d needs the join-field-list form over a table (join max=n a, b t2)", c.Max)
	}
	rt := &translator{cols: t.cols, schema: t.schema, n: t.n}
	rt.set(&sql.Select{At: c.RightAt, Items: []*sql.SelectItem{star(c.RightAt)}, From: &sql.TableName{At: c.RightAt, Name: c.Right.Table}})
	order, ok, err := rt.naturalOrder(at)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errAt(at, "join max=%d: table %s has no natural order (it is no file table)", c.Max, c.Right.Table)
	}
	var part []sql.Expr
	for _, k := range keys {
		part = append(part, col(at, k))
	}
	rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, PartitionBy: part, OrderBy: order}}
	// The window goes beside named columns (a window beside * is refused).
	var items []*sql.SelectItem
	for _, rc := range rightCols {
		items = append(items, item(col(at, rc), rc))
	}
	inner := &sql.Select{At: at, Items: items, From: &sql.TableName{At: c.RightAt, Name: c.Right.Table},
		Qualify: &sql.Binary{At: at, Op: sql.OpLe, L: rn, R: intLit(at, c.Max)}}
	return &sql.SubqueryTable{At: c.RightAt, Query: &sql.Query{At: at, Body: inner}, Alias: ra}, nil
}
