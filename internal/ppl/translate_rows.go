package ppl

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
)

// appendRows is UNION ALL BY NAME: the input's fields, then the
// subsearch's new ones; each side has NULL for the fields it lacks.
func (t *translator) appendRows(c *Append) error {
	at := c.At
	cols, err := t.columns()
	if err != nil {
		return err
	}
	st := &translator{cols: t.cols, schema: t.schema, n: t.n}
	sq, err := st.pipeline(c.Sub)
	if err != nil {
		return err
	}
	subCols, err := st.columns()
	if err != nil {
		return err
	}
	t.unionByName(at, t.q, cols, sq, subCols)
	return nil
}

// unionByName makes the current query l's rows then r's, fields matched
// by name: l's, then r's new ones, NULL where a side has none.
func (t *translator) unionByName(at sql.Pos, l *sql.Query, cols []string, r *sql.Query, subCols []string) {
	all := append([]string{}, cols...)
	for _, sc := range subCols {
		if _, ok := find(cols, sc); !ok {
			all = append(all, sc)
		}
	}
	side := func(q *sql.Query, have []string) *sql.Select {
		*t.n++
		from := &sql.SubqueryTable{At: at, Query: q, Alias: fmt.Sprintf("_p%d", *t.n)}
		var items []*sql.SelectItem
		for _, name := range all {
			if c, ok := find(have, name); ok {
				items = append(items, item(col(at, from.Alias, c), name))
			} else {
				items = append(items, item(&sql.Literal{At: at, Kind: sql.LitNull, Value: "NULL"}, name))
			}
		}
		return &sql.Select{At: at, Items: items, From: from}
	}
	t.q = &sql.Query{At: at, Body: &sql.SetOp{At: at, Op: sql.SetUnion, All: true, L: side(l, cols), R: side(r, subCols)}}
	t.names = all
}

// appendPipe appends the rows of its commands run over the input's rows:
// the input becomes a CTE, the source of both sides of a union by name.
func (t *translator) appendPipe(c *AppendPipe) error {
	at := c.At
	cols, err := t.columns()
	if err != nil {
		return err
	}
	*t.n++
	name := fmt.Sprintf("_ap%d", *t.n)
	cte := &sql.CTE{At: at, Name: name, Query: t.q}
	// The subpipeline's queries name the CTE: bind them under it.
	within := func(q *sql.Query) *sql.Query {
		*t.n++
		return &sql.Query{At: at, With: []*sql.CTE{cte}, Body: &sql.Select{At: at, Items: []*sql.SelectItem{star(at)},
			From: &sql.SubqueryTable{At: at, Query: q, Alias: fmt.Sprintf("_p%d", *t.n)}}}
	}
	st := &translator{n: t.n, cols: func(q *sql.Query) ([]string, error) { return t.cols(within(q)) }}
	if t.schema != nil {
		st.schema = func(q *sql.Query) (*arrow.Schema, error) { return t.schema(within(q)) }
	}
	sq, err := st.pipeline(&Pipeline{At: at, Source: &Source{At: at, Table: name}, Commands: c.Commands})
	if err != nil {
		return err
	}
	subCols, err := st.columns()
	if err != nil {
		return err
	}
	main := &sql.Query{At: at, Body: &sql.Select{At: at, Items: []*sql.SelectItem{star(at)}, From: &sql.TableName{At: at, Name: name}}}
	t.unionByName(at, main, cols, sq, subCols)
	t.q.With = []*sql.CTE{cte}
	return nil
}

// expand gives a row per element of an array field, the element in the
// field's place (under the alias, if any); a NULL or empty array keeps
// its row with NULL (explode_outer).
func (t *translator) expand(c *Expand) error {
	at := c.At
	cols, err := t.columns()
	if err != nil {
		return err
	}
	f, ok, err := t.resolve(c.Field.Name)
	if err != nil {
		return err
	}
	if !ok {
		return errAt(c.Field.At, "field %s not found", c.Field.Name)
	}
	name := f
	if c.As != "" {
		name = c.As
	}
	from := t.sub(at)
	var items []*sql.SelectItem
	for _, cc := range cols {
		switch {
		case cc == f:
			var arr sql.Expr = col(c.Field.At, from.Alias, f)
			if c.Limit > 0 {
				arr = &sql.Call{At: c.Field.At, Name: "slice", Args: []sql.Expr{arr, intLit(at, 1), intLit(at, c.Limit)}}
			}
			items = append(items, item(&sql.Call{At: c.Field.At, Name: "explode_outer", Args: []sql.Expr{arr}}, name))
		case strings.EqualFold(cc, name):
			// A field named like the alias gives way to it.
		default:
			items = append(items, item(col(at, from.Alias, cc), cc))
		}
	}
	t.set(&sql.Select{At: at, Items: items, From: from})
	return nil
}

// flatten adds a struct field's fields as fields of their own, in
// lexicographic order of their names (or named by the aliases, in that
// order); the struct stays. A field of that name already is replaced.
func (t *translator) flatten(c *Flatten) error {
	if t.schema == nil {
		return errAt(c.At, "flatten needs the types of its input")
	}
	s, err := t.schema(t.q)
	if err != nil {
		return err
	}
	f, ok, err := t.resolve(c.Field.Name)
	if err != nil {
		return err
	}
	if !ok {
		return errAt(c.Field.At, "field %s not found", c.Field.Name)
	}
	var st *arrow.StructType
	for _, fl := range s.Fields() {
		if fl.Name == f {
			st, _ = fl.Type.(*arrow.StructType)
		}
	}
	if st == nil {
		return errAt(c.Field.At, "flatten: %s is not a struct", c.Field.Name)
	}
	keys := make([]string, st.NumFields())
	for i, fl := range st.Fields() {
		keys[i] = fl.Name
	}
	sort.Strings(keys)
	names := keys
	if c.As != nil {
		if len(c.As) != len(keys) {
			var got []string
			for _, a := range c.As {
				got = append(got, a.Name)
			}
			return errAt(c.As[0].At, "flatten: %d aliases for the %d fields of %s (%s): %s", len(c.As), len(keys), c.Field.Name, strings.Join(keys, ", "), strings.Join(got, ", "))
		}
		names = nil
		for _, a := range c.As {
			names = append(names, a.Name)
		}
	}
	var exprs []sql.Expr
	for _, k := range keys {
		exprs = append(exprs, &sql.FieldAccess{At: c.Field.At, X: col(c.Field.At, f), Name: k})
	}
	return t.replaceOrAppend(c.At, names, exprs)
}

// appendCol pastes the rows of appendcol's commands (run over the
// pipeline's source) beside the input's, row by row: each side is
// numbered in its sort order (without one, in the order of all its
// fields) and the two are full-joined on the numbers, so the shorter
// side is padded with NULLs. A field both have is the input's, or the
// subsearch's where it has a row (override=true).
func (t *translator) appendCol(c *AppendCol) error {
	at := c.At
	cols, err := t.columns()
	if err != nil {
		return err
	}
	if t.source == nil {
		return errAt(at, "appendcol needs a source= pipeline, not | union or | multisearch")
	}
	st := &translator{cols: t.cols, schema: t.schema, n: t.n}
	sq, err := st.pipeline(&Pipeline{At: at, Source: t.source, Commands: c.Commands})
	if err != nil {
		return err
	}
	subCols, err := st.columns()
	if err != nil {
		return err
	}
	numbered := func(q *sql.Query, cols []string, order []*sql.OrderItem, n string) *sql.SubqueryTable {
		if len(order) == 0 {
			for _, cc := range cols {
				order = append(order, &sql.OrderItem{At: at, Expr: col(at, cc)})
			}
		}
		*t.n++
		from := &sql.SubqueryTable{At: at, Query: q, Alias: fmt.Sprintf("_p%d", *t.n)}
		var items []*sql.SelectItem
		for _, cc := range cols {
			items = append(items, item(col(at, from.Alias, cc), cc))
		}
		rn := &sql.Call{At: at, Name: "row_number", Over: &sql.WindowSpec{At: at, OrderBy: order}}
		items = append(items, item(rn, n))
		*t.n++
		return &sql.SubqueryTable{At: at, Query: &sql.Query{At: at, Body: &sql.Select{At: at, Items: items, From: from}}, Alias: fmt.Sprintf("_p%d", *t.n)}
	}
	lOrder, _, err := t.currentOrder("appendcol")
	if err != nil {
		return err
	}
	if keys, ok, err := t.sortKeys(at, cols); err != nil {
		return err
	} else if ok {
		lOrder = keys
	}
	rOrder, _, err := st.currentOrder("appendcol")
	if err != nil {
		return err
	}
	if t.q.Limit == nil && t.q.Offset == nil {
		t.q.OrderBy = nil
	}
	if sq.Limit == nil && sq.Offset == nil {
		sq.OrderBy = nil
	}
	l, r := numbered(t.q, cols, lOrder, "__l"), numbered(sq, subCols, rOrder, "__r")
	var items []*sql.SelectItem
	for _, cc := range cols {
		var e sql.Expr = col(at, l.Alias, cc)
		if sc, ok := find(subCols, cc); ok && c.Override {
			e = &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: &sql.Is{At: at, X: col(at, r.Alias, "__r"), Not: true, Is: sql.IsNull}, Then: col(at, r.Alias, sc)}}, Else: e}
		}
		items = append(items, item(e, cc))
	}
	for _, sc := range subCols {
		if _, ok := find(cols, sc); !ok {
			items = append(items, item(col(at, r.Alias, sc), sc))
		}
	}
	on := &sql.Binary{At: at, Op: sql.OpEq, L: col(at, l.Alias, "__l"), R: col(at, r.Alias, "__r")}
	t.set(&sql.Select{At: at, Items: items, From: &sql.Join{At: at, Kind: sql.JoinFull, L: l, R: r, On: on}})
	t.q.OrderBy = []*sql.OrderItem{{At: at, Expr: &sql.Call{At: at, Name: "coalesce", Args: []sql.Expr{col(at, l.Alias, "__l"), col(at, r.Alias, "__r")}}}}
	return nil
}

// regex keeps the rows whose field matches the pattern anywhere (rlike;
// != keeps those that do not); a NULL field matches neither.
func (t *translator) regex(c *Regex) error {
	if _, err := regexp.Compile(c.Pattern); err != nil {
		return errAt(c.PatAt, "regex pattern: %v", err)
	}
	f, err := t.ref(c.Field)
	if err != nil {
		return err
	}
	var cond sql.Expr = &sql.Call{At: c.PatAt, Name: "rlike", Args: []sql.Expr{f, strLit(c.PatAt, c.Pattern)}}
	if c.Not {
		cond = &sql.Unary{At: c.At, Op: sql.OpNot, X: cond}
	}
	return t.where(&Where{At: c.At, Cond: cond})
}

// mvCombine groups the rows by every field but one and collects that
// field's values (NULLs left out, in input order) into an array in its
// place (collect_list). nomv joins an array's elements with newlines in
// place (array_join, NULLs left out).
func (t *translator) mvCombine(c *MvCombine) error {
	at := c.At
	f, ok, err := t.resolve(c.Field.Name)
	if err != nil {
		return err
	}
	if !ok {
		return errAt(c.Field.At, "field %s not found", c.Field.Name)
	}
	if c.NoMv {
		e := &sql.Call{At: at, Name: "array_join", Args: []sql.Expr{col(c.Field.At, f), strLit(at, "\n")}}
		return t.replaceOrAppend(at, []string{f}, []sql.Expr{e})
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	from := t.sub(at)
	var items []*sql.SelectItem
	var groups []sql.Expr
	for _, cc := range cols {
		if cc == f {
			items = append(items, item(&sql.Call{At: c.Field.At, Name: "collect_list", Args: []sql.Expr{col(c.Field.At, from.Alias, f)}}, f))
			continue
		}
		items = append(items, item(col(at, from.Alias, cc), cc))
		groups = append(groups, col(at, from.Alias, cc))
	}
	t.set(&sql.Select{At: at, Items: items, From: from, GroupBy: groups})
	return nil
}
