package ppl

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"path"
	"regexp"
	"strings"

	"sluice/internal/sql"
)

// Columns returns the names of a query's output columns, in order. The
// engine implements it by binding the query (hidden columns left out).
type Columns func(q *sql.Query) ([]string, error)

// Translate turns the pipeline into one SQL query: each command wraps
// the query before it as a subquery.
func (p *Pipeline) Translate(cols Columns) (*sql.Query, error) {
	n := 0
	t := &translator{cols: cols, n: &n}
	return t.pipeline(p)
}

// Schema returns a query's output schema (hidden columns left out); the
// engine implements it by binding the query.
type Schema func(q *sql.Query) (*arrow.Schema, error)

// TranslateSchema is Translate for a caller that can give the schema of
// a command's input, which flatten needs (the fields of a struct).
func (p *Pipeline) TranslateSchema(schema Schema) (*sql.Query, error) {
	cols := func(q *sql.Query) ([]string, error) {
		s, err := schema(q)
		if err != nil {
			return nil, err
		}
		names := make([]string, s.NumFields())
		for i, f := range s.Fields() {
			names[i] = f.Name
		}
		return names, nil
	}
	n := 0
	t := &translator{cols: cols, schema: schema, n: &n}
	return t.pipeline(p)
}

type translator struct {
	cols   Columns
	schema Schema // nil when the caller gave only Columns
	n      *int   // subquery aliases, shared with subsearches
	q      *sql.Query
	names  []string // q's columns once asked; nil until then
	// aliases maps a table alias (a join's left = l, source = t as a) to
	// its fields' column names after the join: l.a may be column "l.a"
	// (both sides had an a) or plain "a". A nil map means the alias's
	// fields kept their names.
	aliases map[string]map[string]string
	// self is the name the pipeline's rows go by in a join condition:
	// the source's alias, else its table.
	self string
	// order is the order the rows are in (translate_order.go); nil: none.
	order []*sql.OrderItem
	// source is the pipeline's source, where appendcol's commands start.
	source *Source
	// done are the pipeline's commands translated so far (timewrap reads
	// the timechart and where before it).
	done []Command
}

func (t *translator) pipeline(p *Pipeline) (*sql.Query, error) {
	s := p.Source
	t.source = s
	if s == nil {
		// | union / | multisearch: the first command is the source.
		for i, c := range p.Commands {
			u, ok := c.(*Union)
			if i == 0 && ok {
				if err := t.union(u); err != nil {
					return nil, err
				}
				continue
			}
			if err := t.command(c); err != nil {
				return nil, err
			}
			t.trackOrder(c)
			t.done = append(t.done, c)
		}
		return t.q, nil
	}
	var from sql.TableExpr = &sql.TableName{At: s.At, Name: s.Table}
	if s.Describe {
		d, err := t.describe(s)
		if err != nil {
			return nil, err
		}
		from = d
	}
	t.self = s.Table
	if s.Alias != "" {
		t.self = s.Alias
		t.aliases = map[string]map[string]string{strings.ToLower(s.Alias): nil}
	}
	sel := &sql.Select{At: s.At, Items: []*sql.SelectItem{star(s.At)}, From: from}
	t.set(sel)
	if s.Search != nil {
		if err := t.search(s.Search); err != nil {
			return nil, err
		}
	}
	for _, c := range p.Commands {
		if err := t.command(c); err != nil {
			return nil, err
		}
		t.trackOrder(c)
		t.done = append(t.done, c)
	}
	return t.q, nil
}

func (t *translator) command(c Command) error {
	switch c := c.(type) {
	case *Where:
		return t.where(c)
	case *Fields:
		return t.fields(c)
	case *Eval:
		return t.eval(c)
	case *Stats:
		return t.stats(c)
	case *EventStats:
		return t.eventStats(c)
	case *Sort:
		if err := t.sort(c); err != nil || c.Count == 0 {
			return err
		}
		return t.head(&Head{At: c.At, N: c.Count})
	case *Trendline:
		return t.trendline(c)
	case *Head:
		return t.head(c)
	case *Dedup:
		return t.dedup(c)
	case *Rename:
		return t.rename(c)
	case *Top:
		return t.top(c)
	case *ParseRegex:
		return t.parse(c)
	case *Patterns:
		return t.patterns(c)
	case *FillNull:
		return t.fillNull(c)
	case *Lookup:
		return t.lookup(c)
	case *Join:
		return t.join(c)
	case *Reverse:
		return t.reverse(c)
	case *Timechart:
		return t.timechart(c)
	case *Chart:
		return t.chart(c)
	case *Union:
		return t.union(c)
	case *XYSeries:
		return t.xyseries(c)
	case *Timewrap:
		return t.timewrap(c)
	case *Foreach:
		return t.foreach(c)
	case *StreamStats:
		return t.streamStats(c)
	case *Bin:
		return t.bin(c)
	case *Append:
		return t.appendRows(c)
	case *AppendCol:
		return t.appendCol(c)
	case *AppendPipe:
		return t.appendPipe(c)
	case *Regex:
		return t.regex(c)
	case *Rex:
		return t.rex(c)
	case *MvCombine:
		return t.mvCombine(c)
	case *AddTotals:
		return t.addTotals(c)
	case *Expand:
		return t.expand(c)
	case *Flatten:
		return t.flatten(c)
	case *Replace:
		return t.replace(c)
	case *Transpose:
		return t.transpose(c)
	case *Convert:
		return t.convert(c)
	case *Spath:
		return t.spath(c)
	}
	return errAt(c.pos(), "command %T is not supported", c)
}

// ---------------------------------------------------------------------------
// Building blocks

func star(at sql.Pos) *sql.SelectItem { return &sql.SelectItem{At: at, Expr: &sql.Star{At: at}} }

func col(at sql.Pos, name ...string) *sql.ColumnRef { return &sql.ColumnRef{At: at, Parts: name} }

func item(e sql.Expr, alias string) *sql.SelectItem {
	return &sql.SelectItem{At: e.Pos(), Expr: e, Alias: alias}
}

func intLit(at sql.Pos, n int64) *sql.Literal {
	return &sql.Literal{At: at, Kind: sql.LitInteger, Value: fmt.Sprint(n)}
}

func strLit(at sql.Pos, s string) *sql.Literal {
	return &sql.Literal{At: at, Kind: sql.LitString, Value: s}
}

// sub is the current query as a FROM item under a fresh alias.
func (t *translator) sub(at sql.Pos) *sql.SubqueryTable {
	*t.n++
	return &sql.SubqueryTable{At: at, Query: t.q, Alias: fmt.Sprintf("_p%d", *t.n)}
}

// set makes sel the current query. Its columns are known without
// asking Columns when it is SELECT * over the query before, or when every
// item is named.
func (t *translator) set(sel *sql.Select) {
	prev := t.names
	t.q = &sql.Query{At: sel.At, Body: sel}
	t.names = nil
	if _, sub := sel.From.(*sql.SubqueryTable); sub && len(sel.Items) == 1 && prev != nil {
		if _, ok := sel.Items[0].Expr.(*sql.Star); ok {
			t.names = prev
			return
		}
	}
	names := make([]string, 0, len(sel.Items))
	for _, it := range sel.Items {
		if it.Alias == "" {
			return
		}
		names = append(names, it.Alias)
	}
	t.names = names
}

// columns are the current query's output columns.
func (t *translator) columns() ([]string, error) {
	if t.names != nil {
		return t.names, nil
	}
	if t.cols == nil {
		return nil, fmt.Errorf("PPL: this command needs the columns of its input")
	}
	names, err := t.cols(t.q)
	if err != nil {
		return nil, err
	}
	t.names = names
	return names, nil
}

// find returns the column named name (case-insensitively) and whether
// there is one.
func find(cols []string, name string) (string, bool) {
	for _, c := range cols {
		if strings.EqualFold(c, name) {
			return c, true
		}
	}
	return "", false
}

// resolve maps a field name as written to the column it names: a dotted
// name may be one column ("b.country" after a join, "l.a") or an alias
// and a field (r.b, which is column b).
func (t *translator) resolve(name string) (string, bool, error) {
	cols, err := t.columns()
	if err != nil {
		return "", false, err
	}
	if c, ok := find(cols, name); ok {
		return c, true, nil
	}
	if alias, rest, ok := strings.Cut(name, "."); ok {
		if m, ok := t.aliases[strings.ToLower(alias)]; ok {
			if m == nil {
				c, ok := find(cols, rest)
				return c, ok, nil
			}
			if c, ok := m[strings.ToLower(rest)]; ok {
				if c, ok := find(cols, c); ok {
					return c, true, nil
				}
			}
		}
	}
	return "", false, nil
}

// fix rewrites e's dotted field names that name a column (or an alias's
// field) into that one column; other dotted names stay struct paths.
func (t *translator) fix(e sql.Expr) (sql.Expr, error) {
	var err error
	walk(e, func(r *sql.ColumnRef) {
		if err != nil || len(r.Parts) < 2 {
			return
		}
		c, ok, e := t.resolve(strings.Join(r.Parts, "."))
		if e != nil {
			err = e
		} else if ok {
			r.Parts = []string{c}
		} else if len(r.Parts) > 2 {
			err = t.mapPath(r)
		}
	})
	return e, err
}

// mapPath makes m.a.b over a map column m the lookup of key a.b (the
// keys of spath's auto-extract mode are dotted paths), not m['a']['b'].
func (t *translator) mapPath(r *sql.ColumnRef) error {
	if t.schema == nil {
		return nil
	}
	sch, err := t.schema(t.q)
	if err != nil {
		return err
	}
	for _, f := range sch.Fields() {
		if strings.EqualFold(f.Name, r.Parts[0]) && f.Type.ID() == arrow.MAP {
			r.Parts = []string{r.Parts[0], strings.Join(r.Parts[1:], ".")}
			return nil
		}
	}
	return nil
}

// ref is the column reference for a field name as written, fixed.
func (t *translator) ref(n Name) (sql.Expr, error) {
	return t.fix(col(n.At, strings.Split(n.Name, ".")...))
}

// walk calls fn for every column reference in e.
func walk(e sql.Expr, fn func(*sql.ColumnRef)) {
	switch x := e.(type) {
	case nil:
	case *sql.ColumnRef:
		fn(x)
	case *sql.Unary:
		walk(x.X, fn)
	case *sql.Binary:
		walk(x.L, fn)
		walk(x.R, fn)
	case *sql.Is:
		walk(x.X, fn)
	case *sql.InList:
		walk(x.X, fn)
		for _, y := range x.List {
			walk(y, fn)
		}
	case *sql.Between:
		walk(x.X, fn)
		walk(x.Lo, fn)
		walk(x.Hi, fn)
	case *sql.Like:
		walk(x.X, fn)
		walk(x.Pattern, fn)
	case *sql.Case:
		walk(x.Operand, fn)
		for _, w := range x.Whens {
			walk(w.Cond, fn)
			walk(w.Then, fn)
		}
		walk(x.Else, fn)
	case *sql.Cast:
		walk(x.X, fn)
	case *sql.Call:
		for _, a := range x.Args {
			walk(a, fn)
		}
	case *sql.FieldAccess:
		walk(x.X, fn)
	case *sql.Subscript:
		walk(x.X, fn)
		walk(x.Index, fn)
	case *sql.Lambda:
		walk(x.Body, fn)
	}
}

// hasDotted reports whether e names a dotted field (and so needs fix).
func hasDotted(e sql.Expr) bool {
	found := false
	walk(e, func(r *sql.ColumnRef) { found = found || len(r.Parts) > 1 })
	return found
}

func (t *translator) fixIf(e sql.Expr) (sql.Expr, error) {
	if !hasDotted(e) {
		return e, nil
	}
	return t.fix(e)
}

// replaceOrAppend builds SELECT over the current columns where the
// columns named in set get a new expression in place and the others are
// appended, in order.
func (t *translator) replaceOrAppend(at sql.Pos, names []string, exprs []sql.Expr) error {
	cols, err := t.columns()
	if err != nil {
		return err
	}
	return t.replaceOrAppendOf(at, cols, names, exprs)
}

// replaceOrAppendOf is replaceOrAppend keeping only the columns cols of
// the current query (helper columns left out).
func (t *translator) replaceOrAppendOf(at sql.Pos, cols, names []string, exprs []sql.Expr) error {
	// Over a plain SELECT * the new items go into that SELECT.
	var from sql.TableExpr
	var where sql.Expr
	qual := []string{}
	if sel, ok := t.plain(); ok && isStarOnly(sel) {
		from, where = sel.From, sel.Where
	} else {
		sub := t.sub(at)
		from, qual = sub, []string{sub.Alias}
	}
	var items []*sql.SelectItem
	used := make([]bool, len(names))
	for _, c := range cols {
		e := sql.Expr(col(at, append(qual, c)...))
		for i, n := range names {
			if strings.EqualFold(n, c) {
				e, used[i] = exprs[i], true
			}
		}
		items = append(items, item(e, c))
	}
	for i, n := range names {
		if !used[i] {
			items = append(items, item(exprs[i], n))
		}
	}
	t.set(&sql.Select{At: at, Items: items, From: from, Where: where})
	return nil
}

// ---------------------------------------------------------------------------
// where, fields, eval, sort, head, rename

// plain returns the current query's SELECT when a WHERE or ORDER BY can
// be added to it instead of wrapping it: no grouping, no QUALIFY, no
// ORDER BY or LIMIT yet. Fewer nested SELECTs give the optimizer less to
// see through (a LIMIT right over its ORDER BY is a top-N).
func (t *translator) plain() (*sql.Select, bool) {
	sel, ok := t.q.Body.(*sql.Select)
	if !ok || sel.Distinct || sel.GroupBy != nil || sel.Having != nil || sel.Qualify != nil ||
		t.q.OrderBy != nil || t.q.Limit != nil || t.q.Offset != nil {
		return nil, false
	}
	return sel, true
}

func isStarOnly(sel *sql.Select) bool {
	if len(sel.Items) != 1 {
		return false
	}
	st, ok := sel.Items[0].Expr.(*sql.Star)
	return ok && st.Qualifier == nil
}

func (t *translator) where(c *Where) error {
	if err := t.allFields(c.Cond); err != nil {
		return err
	}
	cond, err := t.fixIf(c.Cond)
	if err != nil {
		return err
	}
	if sel, ok := t.plain(); ok && isStarOnly(sel) {
		if sel.Where != nil {
			cond = &sql.Binary{At: c.At, Op: sql.OpAnd, L: sel.Where, R: cond}
		}
		sel.Where = cond
		return nil
	}
	t.set(&sql.Select{At: c.At, Items: []*sql.SelectItem{star(c.At)}, From: t.sub(c.At), Where: cond})
	return nil
}

func isWildcard(n string) bool { return strings.ContainsAny(n, "*") }

func matchWild(pattern, name string) bool {
	ok, _ := path.Match(strings.ToLower(pattern), strings.ToLower(name))
	return ok
}

func (t *translator) fields(c *Fields) error {
	if c.Exclude {
		cols, err := t.columns()
		if err != nil {
			return err
		}
		drop := map[string]bool{}
		for _, n := range c.Names {
			hit := false
			for _, cc := range cols {
				if isWildcard(n.Name) && matchWild(n.Name, cc) {
					drop[cc], hit = true, true
				}
			}
			if !isWildcard(n.Name) {
				r, ok, err := t.resolve(n.Name)
				if err != nil {
					return err
				}
				if ok {
					drop[r], hit = true, true
				}
			}
			if !hit {
				return errAt(n.At, "field %s not found", n.Name)
			}
		}
		from := t.sub(c.At)
		var items []*sql.SelectItem
		for _, cc := range cols {
			if !drop[cc] {
				items = append(items, item(col(c.At, from.Alias, cc), cc))
			}
		}
		if len(items) == 0 {
			return errAt(c.At, "fields - would remove every field")
		}
		t.set(&sql.Select{At: c.At, Items: items, From: from})
		return nil
	}
	var items []*sql.SelectItem
	// A field named twice (fields a, a* or a*, *b) comes once, where it
	// was first named, as in OpenSearch.
	seen := map[string]bool{}
	first := func(name string) bool {
		k := strings.ToLower(name)
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	for _, n := range c.Names {
		if isWildcard(n.Name) {
			cols, err := t.columns()
			if err != nil {
				return err
			}
			hit := false
			for _, cc := range cols {
				if matchWild(n.Name, cc) {
					if first(cc) {
						items = append(items, item(col(n.At, cc), cc))
					}
					hit = true
				}
			}
			if !hit {
				return errAt(n.At, "no field matches %s", n.Name)
			}
			continue
		}
		e, err := t.ref(n)
		if err != nil {
			return err
		}
		alias := ""
		if strings.Contains(n.Name, ".") {
			alias = n.Name
		}
		out := n.Name
		if r, ok := e.(*sql.ColumnRef); ok && alias == "" {
			out = r.Parts[len(r.Parts)-1]
		}
		if !first(out) {
			continue
		}
		items = append(items, item(e, alias))
	}
	if sel, ok := t.plain(); ok && isStarOnly(sel) {
		t.set(&sql.Select{At: c.At, Items: items, From: sel.From, Where: sel.Where})
		return nil
	}
	t.set(&sql.Select{At: c.At, Items: items, From: t.sub(c.At)})
	return nil
}

func (t *translator) eval(c *Eval) error {
	for _, a := range c.Assigns {
		if cols, err := t.columns(); err == nil {
			nullMissing(a.Expr, cols)
		}
		if err := t.allFields(a.Expr); err != nil {
			return err
		}
		e, err := t.fixIf(a.Expr)
		if err != nil {
			return err
		}
		if err := t.replaceOrAppend(a.At, []string{a.Name}, []sql.Expr{e}); err != nil {
			return err
		}
	}
	return nil
}

func (t *translator) sort(c *Sort) error {
	var order []*sql.OrderItem
	for _, k := range c.Keys {
		e, err := t.fixIf(k.Expr)
		if err != nil {
			return err
		}
		order = append(order, &sql.OrderItem{At: e.Pos(), Expr: e, Desc: k.Desc})
	}
	// ORDER BY sees a SELECT's aliases only as bare names: an expression
	// over a computed field (num(s) after eval s) sorts over a SELECT *.
	bare := true
	for _, o := range order {
		if _, ok := o.Expr.(*sql.ColumnRef); !ok {
			bare = false
		}
	}
	if sel, ok := t.plain(); ok && (bare || isStarOnly(sel)) {
		t.q.OrderBy = order
		return nil
	}
	t.set(&sql.Select{At: c.At, Items: []*sql.SelectItem{star(c.At)}, From: t.sub(c.At)})
	t.q.OrderBy = order
	return nil
}

// head is LIMIT: over the rows in the order of the sort before it, else
// in the natural order where it is known (file and row order, see
// naturalOrder).
func (t *translator) head(c *Head) error {
	if len(t.order) == 0 && t.q.OrderBy == nil {
		order, ok, err := t.naturalOrderOf(c.At, true)
		if err != nil {
			return err
		}
		if ok {
			t.q.OrderBy = order
		}
	}
	if t.q.Limit == nil && t.q.Offset == nil {
		t.q.Limit = intLit(c.At, c.N)
		if c.From > 0 {
			t.q.Offset = intLit(c.At, c.From)
		}
		return nil
	}
	t.set(&sql.Select{At: c.At, Items: []*sql.SelectItem{star(c.At)}, From: t.sub(c.At)})
	t.q.Limit = intLit(c.At, c.N)
	if c.From > 0 {
		t.q.Offset = intLit(c.At, c.From)
	}
	return nil
}

func (t *translator) rename(c *Rename) error {
	for i, from := range c.From {
		to := c.To[i]
		cols, err := t.columns()
		if err != nil {
			return err
		}
		renamed := map[string]string{}
		if isWildcard(from.Name) || isWildcard(to.Name) {
			if strings.Count(from.Name, "*") != strings.Count(to.Name, "*") {
				return errAt(to.At, "rename %s as %s: both need the same number of *", from.Name, to.Name)
			}
			re := wildcardRegexp(from.Name)
			for _, cc := range cols {
				m := re.FindStringSubmatch(cc)
				if m == nil {
					continue
				}
				name := to.Name
				for _, part := range m[1:] {
					name = strings.Replace(name, "*", part, 1)
				}
				renamed[cc] = name
			}
		} else {
			src, ok, err := t.resolve(from.Name)
			if err != nil {
				return err
			}
			if ok {
				renamed[src] = to.Name
			} else if done, err := t.renameNested(c, from, to, cols); err != nil {
				return err
			} else if done {
				continue
			}
		}
		if len(renamed) == 0 {
			return errAt(from.At, "field %s not found", from.Name)
		}
		newNames := map[string]bool{}
		for _, n := range renamed {
			newNames[strings.ToLower(n)] = true
		}
		sub := t.sub(c.At)
		var items []*sql.SelectItem
		for _, cc := range cols {
			if n, ok := renamed[cc]; ok {
				items = append(items, item(col(from.At, sub.Alias, cc), n))
			} else if !newNames[strings.ToLower(cc)] {
				// A field already named like a renamed one gives way to it.
				items = append(items, item(col(c.At, sub.Alias, cc), cc))
			}
		}
		t.set(&sql.Select{At: c.At, Items: items, From: sub})
	}
	return nil
}

// wildcardRegexp matches a field name pattern with * (any run of
// characters), case-insensitively, capturing each * in order.
func wildcardRegexp(p string) *regexp.Regexp {
	parts := strings.Split(p, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile("(?i)^" + strings.Join(parts, "(.*)") + "$")
}
