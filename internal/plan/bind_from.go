package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
)

// bindFrom binds a FROM item to a plan and the scope its columns form.
func (b *Binder) bindFrom(t sql.TableExpr) (Node, *scope, error) {
	if pb, ok := b.prebound[t]; ok {
		delete(b.prebound, t)
		return pb.node, pb.sc, nil
	}
	switch te := t.(type) {
	case *sql.Pivot:
		return b.bindPivot(te)
	case *sql.Unpivot:
		return b.bindUnpivot(te)
	case *sql.TableName:
		if te.Sample != nil {
			return b.bindSample(te)
		}
		if len(te.Columns) > 0 {
			return b.bindRenamedTable(te)
		}
		alias := te.Alias
		if alias == "" {
			// db.t and catalog.db.t are named t in the query, as in Spark.
			parts := sql.SplitName(te.Name)
			alias = parts[len(parts)-1]
		}
		if te.Format != "" {
			return b.bindFiles(te)
		}
		if cte := b.lookupCTE(te.Name); cte != nil {
			// Hide this CTE while binding its own body so a self-reference
			// reads the catalog table of that name, as in Spark.
			n, err := b.bindCTE(cte)
			if err != nil {
				return nil, nil, err
			}
			if len(cte.Columns) > 0 {
				if n, err = renameColumns(n, cte.Columns); err != nil {
					return nil, nil, errAt(cte, "WITH %s(%s): %v", cte.Name, strings.Join(cte.Columns, ", "), err)
				}
			}
			return n, scopeFor(alias, n.Schema(), nil), nil
		}
		if n, sc, ok, err := b.bindView(te, alias); ok {
			return n, sc, err
		}
		if IsIndexPattern(te.Name) {
			return b.bindPattern(te, alias)
		}
		tbl, err := b.tables.ResolveTable(b.ctx, te.Name)
		if err != nil {
			return nil, nil, &Error{Pos: te.Pos(), Msg: err.Error(), Err: err}
		}
		hidden := map[string]bool{}
		for _, h := range tbl.Hidden {
			hidden[h] = true
		}
		scan := &Scan{Table: tbl.Name, Base: tbl.Source, Fields: append([]arrow.Field{}, tbl.Source.Schema().Fields()...)}
		var n Node = scan
		if b.Streaming && !b.streamSeen {
			b.streamSeen = true
			scan.Stream = true
			if tbl.EventTimeColumn != "" {
				idx := -1
				for i, f := range scan.Fields {
					if strings.EqualFold(f.Name, tbl.EventTimeColumn) {
						idx = i
						break
					}
				}
				if idx < 0 || scan.Fields[idx].Type.ID() != arrow.TIMESTAMP {
					return nil, nil, errAt(te, "table %s: watermark column %s is not a TIMESTAMP column", tbl.Name, tbl.EventTimeColumn)
				}
				n = &EventTime{Input: scan, Column: idx, Delay: tbl.WatermarkDelay}
			}
		}
		return n, scopeFor(alias, scan.Schema(), hidden), nil
	case *sql.SubqueryTable:
		n, _, err := b.bindQuery(te.Query)
		if err != nil {
			return nil, nil, err
		}
		if len(te.Columns) > 0 {
			if n, err = renameColumns(n, te.Columns); err != nil {
				return nil, nil, errAt(te, "%s(%s): %v", te.Alias, strings.Join(te.Columns, ", "), err)
			}
		}
		return n, scopeFor(te.Alias, n.Schema(), nil), nil
	case *sql.Join:
		if tf, ok := te.R.(*sql.TableFunction); ok && tf.Lateral {
			return b.bindLateralJoin(te, tf)
		}
		return b.bindJoin(te)
	case *sql.TableFunction:
		return b.bindTableFunction(te)
	case *sql.LateralView:
		return b.bindLateralView(te)
	}
	return nil, nil, errAt(t, "unsupported FROM item %T", t)
}

func (b *Binder) bindCTE(cte *sql.CTE) (Node, error) {
	saved := b.ctes
	// Bind with only the CTEs defined before this one visible.
	var trimmed []map[string]*sql.CTE
	for _, m := range b.ctes {
		cp := map[string]*sql.CTE{}
		for k, v := range m {
			if v != cte {
				cp[k] = v
			}
		}
		trimmed = append(trimmed, cp)
	}
	b.ctes = trimmed
	// A CTE is bound where it is named, but its body sees only its own
	// names, never those of a subquery that reads it.
	savedOuter := b.outer
	b.outer = nil
	defer func() { b.ctes, b.outer = saved, savedOuter }()
	n, _, err := b.bindQuery(cte.Query)
	return n, err
}

func (b *Binder) bindJoin(j *sql.Join) (Node, *scope, error) {
	left, ls, err := b.bindFrom(j.L)
	if err != nil {
		return nil, nil, err
	}
	right, rs, err := b.bindFrom(j.R)
	if err != nil {
		return nil, nil, err
	}
	if j.Natural {
		j = naturalUsing(j, ls, rs)
	}
	kind := map[sql.JoinKind]JoinKind{sql.JoinInner: InnerJoin, sql.JoinLeft: LeftJoin,
		sql.JoinRight: RightJoin, sql.JoinFull: FullJoin, sql.JoinCross: CrossJoin,
		sql.JoinSemi: SemiJoin, sql.JoinAnti: AntiJoin}[j.Kind]
	onAST, subs := j.On, []sql.Expr(nil)
	if onAST != nil && firstSubquery(onAST) != nil {
		if onAST, subs, left, ls, right, rs, err = b.onSubqueries(j, kind, left, ls, right, rs); err != nil {
			return nil, nil, err
		}
	}
	sc := ls.join(rs)
	node := &Join{Left: left, Right: right, Kind: kind}
	var conds []expr.Expr
	switch {
	case onAST != nil:
		on, err := b.bindScalar(onAST, sc)
		if err != nil {
			return nil, nil, err
		}
		if !arrow.TypeEqual(on.Type(), arrow.FixedWidthTypes.Boolean) {
			return nil, nil, errAt(onAST, "JOIN condition must be BOOLEAN, got %s", on.Type())
		}
		conds = expr.SplitConjuncts(on)
	case len(j.Using) > 0:
		for i := range sc.cols {
			c := &sc.cols[i]
			// SELECT * shows a USING key once, as Spark does: the right
			// side's for a RIGHT JOIN (the left one may be NULL there).
			if (i < len(ls.cols)) != (kind == RightJoin) {
				continue
			}
			for _, name := range j.Using {
				if strings.EqualFold(c.Name, name) {
					c.Hidden = true
				}
			}
		}
		for _, name := range j.Using {
			l, err := ls.find("", name)
			if err != nil || l == nil {
				return nil, nil, errAt(j, "USING column %q not found on the left side", name)
			}
			r, err := rs.find("", name)
			if err != nil || r == nil {
				return nil, nil, errAt(j, "USING column %q not found on the right side", name)
			}
			eq, err := expr.Call("=", expr.Col(l.Index, l.Name, l.Type), expr.Col(r.Index+len(ls.cols), r.Name, r.Type))
			if err != nil {
				return nil, nil, errAt(j, "USING %s: %v", name, err)
			}
			conds = append(conds, eq)
		}
	}
	nl := len(ls.cols)
	var residual []expr.Expr
	for _, c := range conds {
		if lk, rk, ok := equiKeys(c, nl); ok {
			node.LeftKeys = append(node.LeftKeys, lk)
			node.RightKeys = append(node.RightKeys, rk)
			continue
		}
		residual = append(residual, c)
	}
	if len(residual) > 0 {
		node.Residual = expr.AndAll(residual)
	}
	if node.Kind == CrossJoin && len(node.LeftKeys) > 0 {
		node.Kind = InnerJoin
	}
	if kind == FullJoin && len(j.Using) > 0 {
		return fullUsing(node, sc, ls, j.Using)
	}
	if kind.LeftOnly() {
		// A semi or anti join gives the left rows only: the right side's
		// columns are gone after it, as in Spark.
		return node, ls, nil
	}
	if len(subs) > 0 {
		if node.Kind == InnerJoin && len(node.LeftKeys) == 0 && node.Residual == nil {
			node.Kind = CrossJoin
		}
		// An inner join's condition is a filter over its rows.
		return b.bindWhere(andAST(subs), node, sc, "JOIN")
	}
	return node, sc, nil
}

// onSubqueries splits the conditions holding subqueries off a JOIN's ON.
// An inner join applies them above the join (returned in subs). An outer
// join computes each subquery as a value on the side whose columns it
// reads, and its condition reads that value: a subquery may not read
// both sides, as in Spark.
func (b *Binder) onSubqueries(j *sql.Join, kind JoinKind, left Node, ls *scope, right Node, rs *scope) (sql.Expr, []sql.Expr, Node, *scope, Node, *scope, error) {
	var plain, subs []sql.Expr
	for _, c := range splitAnd(j.On) {
		if firstSubquery(c) != nil {
			subs = append(subs, c)
		} else {
			plain = append(plain, c)
		}
	}
	if kind == InnerJoin || kind == CrossJoin {
		return andAST(plain), subs, left, ls, right, rs, nil
	}
	var onRight []sql.Expr
	for _, c := range subs {
		var err error
		if n, sc, rerr := b.attachSubqueries([]sql.Expr{c}, right, rs); rerr == nil {
			right, rs = n, sc
			walkSQL(c, func(x sql.Expr) bool {
				if isSubqueryExpr(x) {
					onRight = append(onRight, x)
				}
				return true
			})
		} else if isCancel(rerr) {
			return nil, nil, nil, nil, nil, nil, rerr
		} else if left, ls, err = b.attachSubqueries([]sql.Expr{c}, left, ls); err != nil {
			if isCancel(err) {
				return nil, nil, nil, nil, nil, nil, err
			}
			return nil, nil, nil, nil, nil, nil, errAt(firstSubquery(c), "a subquery in the ON condition of an outer join may read the columns of only one side of the join (%s)", errText(err))
		}
	}
	// The right side's values move past the left side's columns.
	nl := len(ls.cols)
	for _, x := range onRight {
		if v, ok := b.subqueryExprs[x]; ok {
			shift := map[int]int{}
			for _, i := range expr.Columns(v) {
				shift[i] = i + nl
			}
			b.subqueryExprs[x] = expr.Remap(v, shift)
		}
	}
	return j.On, nil, left, ls, right, rs, nil
}

// errText is err's message without its position.
func errText(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Msg
	}
	return err.Error()
}

// fullUsing makes an unqualified USING key of a FULL JOIN read
// coalesce(l.k, r.k), as Spark does: either side may be the NULL one.
// The coalesced key takes the left key's place; the left key itself moves
// to the end, hidden, so l.k still reads the left side.
func fullUsing(node *Join, sc *scope, ls *scope, using []string) (Node, *scope, error) {
	in := node.Schema()
	n := len(sc.cols)
	exprs := make([]expr.Expr, 0, n+len(using))
	names := make([]string, 0, n+len(using))
	for i, f := range in.Fields() {
		exprs = append(exprs, expr.Col(i, f.Name, f.Type))
		names = append(names, f.Name)
	}
	out := &scope{cols: append([]scopeCol{}, sc.cols...)}
	for _, name := range using {
		l, _ := ls.find("", name)
		var r *scopeCol
		for i := len(ls.cols); i < n; i++ {
			if strings.EqualFold(sc.cols[i].Name, name) {
				r = &sc.cols[i]
				break
			}
		}
		if l == nil || r == nil {
			continue
		}
		co, err := expr.Call("coalesce", expr.Col(l.Index, l.Name, l.Type), expr.Col(r.Index, r.Name, r.Type))
		if err != nil {
			return nil, nil, fmt.Errorf("USING %s: %w", name, err)
		}
		orig := out.cols[l.Index]
		exprs[l.Index] = co
		out.cols[l.Index].Table = ""
		out.cols[l.Index].Type = co.Type()
		orig.Index = len(exprs)
		orig.Hidden = true
		exprs = append(exprs, expr.Col(l.Index, l.Name, l.Type))
		names = append(names, l.Name)
		out.cols = append(out.cols, orig)
	}
	return &Project{Input: node, Exprs: exprs, Names: names}, out, nil
}

// equiKeys recognises l = r where l reads only left columns and r only
// right ones (or the reverse), returning the keys over each side's own
// schema.
func equiKeys(c expr.Expr, nl int) (expr.Expr, expr.Expr, bool) {
	call, ok := c.(*expr.CallExpr)
	if !ok || call.Name != "=" || len(call.Args) != 2 {
		return nil, nil, false
	}
	a, bb := call.Args[0], call.Args[1]
	side := func(e expr.Expr) int { // 0 none, 1 left, 2 right, 3 both
		s := 0
		for _, i := range expr.Columns(e) {
			if i < nl {
				s |= 1
			} else {
				s |= 2
			}
		}
		return s
	}
	sa, sb := side(a), side(bb)
	if sa == 2 && sb == 1 {
		a, bb = bb, a
		sa, sb = sb, sa
	}
	if sa != 1 || sb != 2 {
		return nil, nil, false
	}
	shift := map[int]int{}
	for _, i := range expr.Columns(bb) {
		shift[i] = i - nl
	}
	return a, expr.Remap(bb, shift), true
}

// bindValues binds VALUES rows: every row must have the same arity; column
// types widen across rows.
func (b *Binder) bindValues(v *sql.Values) (Node, error) {
	if len(v.Rows) == 0 {
		return nil, errAt(v, "VALUES needs at least one row")
	}
	empty := &scope{}
	rows := make([][]expr.Expr, len(v.Rows))
	width := len(v.Rows[0])
	for i, r := range v.Rows {
		if len(r) != width {
			return nil, errAt(v, "VALUES rows must have the same number of columns: row 1 has %d, row %d has %d", width, i+1, len(r))
		}
		rows[i] = make([]expr.Expr, width)
		for j, e := range r {
			be, err := b.bindScalar(e, empty)
			if err != nil {
				return nil, err
			}
			rows[i][j] = be
		}
	}
	names := make([]string, width)
	ts := make([]arrow.DataType, width)
	for j := 0; j < width; j++ {
		names[j] = "col" + itoa(j+1)
		t := rows[0][j].Type()
		for i := 1; i < len(rows); i++ {
			c, ok := commonType(t, rows[i][j].Type())
			if !ok {
				return nil, errAt(v, "VALUES column %d mixes %s and %s", j+1, typeName(t), typeName(rows[i][j].Type()))
			}
			t = c
		}
		ts[j] = t
		for i := range rows {
			if !arrow.TypeEqual(rows[i][j].Type(), t) {
				c, err := expr.Cast(rows[i][j], t)
				if err != nil {
					return nil, errAt(v, "VALUES column %d: %v", j+1, err)
				}
				rows[i][j] = c
			}
		}
	}
	return NewValues(names, ts, rows), nil
}

// bindSetOp binds UNION, INTERSECT and EXCEPT [ALL]: inputs are cast to
// common column types.
func (b *Binder) bindSetOp(s *sql.SetOp) (Node, error) {
	op := strings.ToUpper(s.Op)
	if op != sql.SetUnion && op != sql.SetIntersect && op != sql.SetExcept {
		return nil, errAt(s, "%s is not supported", s.Op)
	}
	streamSeen := b.streamSeen
	l, err := b.bindBody(s.L)
	if err != nil {
		return nil, err
	}
	r, err := b.bindBody(s.R)
	if err != nil {
		return nil, err
	}
	if op != sql.SetUnion && b.Streaming && !streamSeen && b.streamSeen {
		// Spark refuses these on a stream too: a row's count on either
		// side can change with every epoch.
		return nil, errAt(s, "%s is not supported on a stream; only UNION ALL is", op)
	}
	ls, rs := l.Schema(), r.Schema()
	if ls.NumFields() != rs.NumFields() {
		return nil, errAt(s, "%s inputs have different numbers of columns: %d and %d", op, ls.NumFields(), rs.NumFields())
	}
	ts := make([]arrow.DataType, ls.NumFields())
	for i := range ts {
		c, ok := commonType(ls.Field(i).Type, rs.Field(i).Type)
		if !ok {
			return nil, errAt(s, "%s column %d (%s) mixes %s and %s", op, i+1, ls.Field(i).Name, typeName(ls.Field(i).Type), typeName(rs.Field(i).Type))
		}
		ts[i] = c
	}
	names := make([]string, len(ts))
	for i := range names {
		names[i] = ls.Field(i).Name
	}
	if l, err = castTo(l, names, ts); err != nil {
		return nil, errAt(s, "%v", err)
	}
	if r, err = castTo(r, names, ts); err != nil {
		return nil, errAt(s, "%v", err)
	}
	if op != sql.SetUnion {
		for i, t := range ts {
			if hasMap(t) {
				// As Spark: maps have no equality to count rows by.
				return nil, errAt(s, "%s cannot compare MAP columns: column %d (%s) is %s", op, i+1, names[i], typeName(t))
			}
		}
		return &SetOperation{Op: op, All: s.All, Left: l, Right: r}, nil
	}
	var inputs []Node
	for _, in := range []Node{l, r} {
		if u, ok := in.(*Union); ok && s.All {
			inputs = append(inputs, u.Inputs...)
		} else {
			inputs = append(inputs, in)
		}
	}
	var n Node = &Union{Inputs: inputs}
	if !s.All {
		n = &Distinct{Input: n}
	}
	return n, nil
}

// hasMap reports a MAP type, also inside a struct or array.
func hasMap(t arrow.DataType) bool {
	switch tt := t.(type) {
	case *arrow.MapType:
		return true
	case *arrow.ListType:
		return hasMap(tt.Elem())
	case *arrow.StructType:
		for _, f := range tt.Fields() {
			if hasMap(f.Type) {
				return true
			}
		}
	}
	return false
}

// bindRenamedTable binds t AS x(a, b, ...): the table's visible columns,
// renamed; its hidden ones are not reachable through x.
func (b *Binder) bindRenamedTable(te *sql.TableName) (Node, *scope, error) {
	plain := *te
	plain.Columns = nil
	n, sc, err := b.bindFrom(&plain)
	if err != nil {
		return nil, nil, err
	}
	alias := te.Alias
	if alias == "" {
		parts := sql.SplitName(te.Name)
		alias = parts[len(parts)-1]
	}
	var exprs []expr.Expr
	var names []string
	for _, c := range sc.cols {
		if !c.Hidden {
			exprs = append(exprs, expr.Col(c.Index, c.Name, c.Type))
			names = append(names, c.Name)
		}
	}
	var out Node = n
	if len(exprs) != n.Schema().NumFields() {
		out = &Project{Input: n, Exprs: exprs, Names: names}
	}
	if out, err = renameColumns(out, te.Columns); err != nil {
		return nil, nil, errAt(te, "%s(%s): %v", alias, strings.Join(te.Columns, ", "), err)
	}
	return out, scopeFor(alias, out.Schema(), nil), nil
}

// renameColumns gives n's columns the names of t(a, b, ...), one for each.
func renameColumns(n Node, names []string) (Node, error) {
	sch := n.Schema()
	if len(names) != sch.NumFields() {
		return nil, fmt.Errorf("%d column aliases for %d columns", len(names), sch.NumFields())
	}
	seen := map[string]bool{}
	exprs := make([]expr.Expr, len(names))
	for i, f := range sch.Fields() {
		if seen[strings.ToLower(names[i])] {
			return nil, fmt.Errorf("column alias %s is repeated", names[i])
		}
		seen[strings.ToLower(names[i])] = true
		exprs[i] = expr.Col(i, f.Name, f.Type)
	}
	return &Project{Input: n, Exprs: exprs, Names: append([]string{}, names...)}, nil
}

// castTo projects n to the given names and types, casting where needed.
func castTo(n Node, names []string, ts []arrow.DataType) (Node, error) {
	s := n.Schema()
	same := true
	exprs := make([]expr.Expr, len(ts))
	for i, t := range ts {
		f := s.Field(i)
		var e expr.Expr = expr.Col(i, f.Name, f.Type)
		if !arrow.TypeEqual(f.Type, t) {
			c, err := expr.Cast(e, t)
			if err != nil {
				return nil, err
			}
			e = c
			same = false
		}
		if f.Name != names[i] {
			same = false
		}
		exprs[i] = e
	}
	if same {
		return n, nil
	}
	return &Project{Input: n, Exprs: exprs, Names: names}, nil
}

// naturalUsing is a NATURAL JOIN as the join USING the visible columns
// both sides have, in the left side's order; none makes it a cross join,
// as in Spark.
func naturalUsing(j *sql.Join, ls, rs *scope) *sql.Join {
	c := *j
	c.Natural = false
	for _, l := range ls.cols {
		if l.Hidden {
			continue
		}
		for _, r := range rs.cols {
			if !r.Hidden && strings.EqualFold(l.Name, r.Name) {
				c.Using = append(c.Using, l.Name)
				break
			}
		}
	}
	if len(c.Using) == 0 && c.Kind == sql.JoinInner {
		c.Kind = sql.JoinCross
	}
	return &c
}
