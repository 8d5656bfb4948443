package sql

import "strings"

// startsQuery reports whether t can begin a query.
func startsQuery(t token) bool {
	return isKw(t, "SELECT") || isKw(t, "WITH") || isKw(t, "VALUES")
}

// query parses [WITH ...] body [ORDER BY ...] [LIMIT n] [OFFSET n].
func (p *parser) query() (*Query, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	q := &Query{At: p.tok().pos}
	if p.atKw("WITH") && isKw(p.peek(1), "RECURSIVE") && isIdentTok(p.peek(2)) {
		return nil, errAt(p.peek(1).pos, "WITH RECURSIVE is not supported (Spark 3.5 has no recursive common table expressions either)")
	}
	if p.acceptKw("WITH") {
		for {
			name, at, err := p.ident("CTE name")
			if err != nil {
				return nil, err
			}
			var cols []string
			if p.atOp("(") {
				if cols, err = p.identList("column name"); err != nil {
					return nil, err
				}
			}
			if err := p.expectKw("AS"); err != nil {
				return nil, err
			}
			if err := p.expectOp("("); err != nil {
				return nil, err
			}
			sub, err := p.query()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			q.With = append(q.With, &CTE{At: at, Name: name, Query: sub, Columns: cols})
			if !p.acceptOp(",") {
				break
			}
		}
	}
	body, err := p.setExpr()
	if err != nil {
		return nil, err
	}
	q.Body = body
	if q.OrderByAll, _, err = p.orderByAll(); err != nil {
		return nil, err
	}
	if q.OrderByAll == nil && p.atKw("ORDER") {
		if q.OrderBy, err = p.orderBy(); err != nil {
			return nil, err
		}
	}
	if err := p.organization(q); err != nil {
		return nil, err
	}
	if p.atKw("LIMIT") && isKw(p.peek(1), "ALL") {
		// Spark's LIMIT ALL: every row, as without LIMIT.
		p.advance()
		p.advance()
	} else if p.acceptKw("LIMIT") {
		if q.Limit, err = p.expr(); err != nil {
			return nil, err
		}
		if p.acceptOp(",") {
			// MySQL's and the OpenSearch SQL plugin's LIMIT offset, count,
			// which Spark refuses: no other meaning to clash with.
			q.Offset = q.Limit
			if q.Limit, err = p.expr(); err != nil {
				return nil, err
			}
			return q, nil
		}
	}
	if p.acceptKw("OFFSET") {
		if q.Offset, err = p.expr(); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// orderBy parses ORDER BY item, ...: a query's and a window's.
func (p *parser) orderBy() ([]*OrderItem, error) {
	p.advance()
	if err := p.expectKw("BY"); err != nil {
		return nil, err
	}
	var out []*OrderItem
	for {
		o, err := p.orderItem()
		if err != nil {
			return nil, err
		}
		out = append(out, o)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

func (p *parser) orderItem() (*OrderItem, error) {
	at := p.tok().pos
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	o := &OrderItem{At: at, Expr: e}
	if p.acceptKw("DESC") {
		o.Desc = true
	} else {
		p.acceptKw("ASC")
	}
	if p.atKw("NULLS") {
		p.advance()
		var first bool
		switch {
		case p.acceptKw("FIRST"):
			first = true
		case p.acceptKw("LAST"):
		default:
			return nil, p.errExpected("FIRST or LAST")
		}
		o.NullsFirst = &first
	}
	return o, nil
}

// setExpr parses set operations: INTERSECT binds tighter than UNION and
// EXCEPT (MINUS), all left-associative, as in Spark.
func (p *parser) setExpr() (QueryBody, error) {
	left, err := p.intersectExpr()
	if err != nil {
		return nil, err
	}
	for {
		t := p.tok()
		op := setOpAt(t, p.peek(1))
		if op != SetUnion && op != SetExcept {
			return left, nil
		}
		p.advance()
		all := p.setQuantifier()
		right, err := p.intersectExpr()
		if err != nil {
			return nil, err
		}
		left = &SetOp{At: t.pos, Op: op, All: all, L: left, R: right}
	}
}

func (p *parser) intersectExpr() (QueryBody, error) {
	left, err := p.queryPrimary()
	if err != nil {
		return nil, err
	}
	for isKw(p.tok(), "INTERSECT") {
		at := p.advance().pos
		all := p.setQuantifier()
		right, err := p.queryPrimary()
		if err != nil {
			return nil, err
		}
		left = &SetOp{At: at, Op: SetIntersect, All: all, L: left, R: right}
	}
	return left, nil
}

// setQuantifier reads ALL or DISTINCT after a set operator: true for ALL.
func (p *parser) setQuantifier() bool {
	if p.acceptKw("ALL") {
		return true
	}
	p.acceptKw("DISTINCT")
	return false
}

// setOpAt names the set operator t spells ("" if none). MINUS is not
// reserved, so it is one only where a query or a quantifier follows.
func setOpAt(t, next token) string {
	switch {
	case isKw(t, "UNION"):
		return SetUnion
	case isKw(t, "EXCEPT"):
		return SetExcept
	case isKw(t, "INTERSECT"):
		return SetIntersect
	case isKw(t, "MINUS") && (startsQuery(next) || isOp(next, "(") || isKw(next, "ALL") || isKw(next, "DISTINCT")):
		return SetExcept
	}
	return ""
}

// queryPrimary is SELECT ..., VALUES ... or a parenthesized query.
func (p *parser) queryPrimary() (QueryBody, error) {
	t := p.tok()
	switch {
	case isKw(t, "SELECT"):
		return p.selectBlock(nil)
	case p.atTableQuery():
		return p.tableQuery()
	case p.atFromFirst():
		return p.fromFirst()
	case isKw(t, "VALUES"):
		return p.valuesQuery()
	case p.startsPPL():
		return p.ppl(), nil
	case isOp(t, "("):
		p.advance()
		q, err := p.query()
		if err != nil {
			return nil, err
		}
		return q, p.expectOp(")")
	}
	return nil, p.errExpected("SELECT, VALUES or '('")
}

func (p *parser) values() (*Values, error) {
	v := &Values{At: p.advance().pos}
	for {
		at := p.tok().pos
		// A row is (a, b) or, as Spark also reads it, one bare expression.
		row, err := p.valuesRow()
		if err != nil {
			return nil, err
		}
		if len(v.Rows) > 0 && len(row) != len(v.Rows[0]) {
			return nil, errAt(at, "VALUES rows have different lengths (%d and %d)", len(v.Rows[0]), len(row))
		}
		v.Rows = append(v.Rows, row)
		if !p.acceptOp(",") {
			return v, nil
		}
	}
}

func (p *parser) valuesRow() ([]Expr, error) {
	if !p.atOp("(") {
		e, err := p.expr()
		return []Expr{e}, err
	}
	p.advance()
	row, err := p.exprList()
	if err != nil {
		return nil, err
	}
	return row, p.expectOp(")")
}

// selectBlock parses SELECT ... [FROM ...] ...; from is the FROM clause
// when it came first (Spark's FROM t SELECT a), and a second is refused.
func (p *parser) selectBlock(from TableExpr) (*Select, error) {
	s := &Select{At: p.advance().pos, From: from}
	if p.acceptKw("DISTINCT") {
		s.Distinct = true
	} else {
		p.acceptKw("ALL")
	}
	for {
		it, err := p.selectItem()
		if err != nil {
			return nil, err
		}
		s.Items = append(s.Items, it)
		if !p.acceptOp(",") {
			break
		}
	}
	var err error
	if from != nil && p.atKw("FROM") {
		return nil, errAt(p.tok().pos, "this SELECT already has its FROM clause before it")
	}
	if p.acceptKw("FROM") {
		if s.From, err = p.from(); err != nil {
			return nil, err
		}
		if s.From, err = p.pivots(s.From); err != nil {
			return nil, err
		}
	}
	if p.acceptKw("WHERE") {
		if s.Where, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.atKw("GROUP") {
		p.advance()
		if err := p.expectKw("BY"); err != nil {
			return nil, err
		}
		if err := p.groupBy(s); err != nil {
			return nil, err
		}
	}
	if p.acceptKw("HAVING") {
		if s.Having, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if err := p.windowClauses(s); err != nil {
		return nil, err
	}
	return s, nil
}

// starAhead reports whether the tokens from the current one spell * or
// name(.name)*.* and returns the qualifier and how many tokens it spans.
func (p *parser) starAhead() ([]string, int, bool) {
	if p.atOp("*") {
		return nil, 1, true
	}
	var parts []string
	n := 0
	for {
		t := p.peek(n)
		if t.kind != tkIdent || n == 0 && !isIdentTok(t) || !isOp(p.peek(n+1), ".") {
			return nil, 0, false
		}
		parts = append(parts, t.text)
		if isOp(p.peek(n+2), "*") {
			return parts, n + 3, true
		}
		n += 2
	}
}

func (p *parser) selectItem() (*SelectItem, error) {
	at := p.tok().pos
	if q, n, ok := p.starAhead(); ok {
		for i := 0; i < n; i++ {
			p.advance()
		}
		return &SelectItem{At: at, Expr: &Star{At: at, Qualifier: q}}, nil
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	it := &SelectItem{At: at, Expr: e}
	if p.acceptKw("AS") {
		if p.atOp("(") {
			// A generator's columns: posexplode(a) AS (p, v), as in Spark.
			p.advance()
			for {
				name, _, err := p.ident("alias")
				if err != nil {
					return nil, err
				}
				it.Aliases = append(it.Aliases, name)
				if !p.atOp(",") {
					break
				}
				p.advance()
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			return it, nil
		}
		if it.Alias, _, err = p.ident("alias"); err != nil {
			return nil, err
		}
	} else if isIdentTok(p.tok()) && !p.clauseAhead() {
		it.Alias = p.advance().text
	}
	return it, nil
}

// from parses the FROM list: join chains separated by commas (each comma
// a cross join binding looser than JOIN).
func (p *parser) from() (TableExpr, error) {
	left, err := p.joinChain()
	if err != nil {
		return nil, err
	}
	for p.atOp(",") {
		at := p.advance().pos
		right, err := p.joinChain()
		if err != nil {
			return nil, err
		}
		left = &Join{At: at, Kind: JoinCross, L: left, R: right}
	}
	return p.lateralViews(left)
}

// joinKind reads a join keyword sequence if one is next.
func (p *parser) joinKind() (JoinKind, bool, error) {
	t := p.tok()
	var k JoinKind
	switch {
	case isKw(t, "JOIN"):
		p.advance()
		return JoinInner, true, nil
	case isKw(t, "INNER"):
		k = JoinInner
	case isKw(t, "CROSS"):
		k = JoinCross
	case isKw(t, "LEFT"):
		k = JoinLeft
		if sk, ok := semiAnti(p.peek(1)); ok {
			p.advance()
			k = sk
		}
	case isKw(t, "SEMI") && isKw(p.peek(1), "JOIN"), isKw(t, "ANTI") && isKw(p.peek(1), "JOIN"):
		k, _ = semiAnti(t)
	case isKw(t, "RIGHT"):
		k = JoinRight
	case isKw(t, "FULL"):
		k = JoinFull
	default:
		return 0, false, nil
	}
	p.advance()
	if k == JoinLeft || k == JoinRight || k == JoinFull {
		p.acceptKw("OUTER")
	}
	return k, true, p.expectKw("JOIN")
}

func (p *parser) joinChain() (TableExpr, error) {
	left, err := p.tablePrimary()
	if err != nil {
		return nil, err
	}
	for {
		at := p.tok().pos
		natural := isKw(p.tok(), "NATURAL") && !p.tok().quoted
		if natural {
			p.advance()
		}
		kind, ok, err := p.joinKind()
		if err != nil {
			return nil, err
		}
		if !ok {
			if natural {
				return nil, p.errExpected("JOIN after NATURAL")
			}
			return left, nil
		}
		if natural && (kind == JoinCross || kind == JoinSemi || kind == JoinAnti) {
			return nil, errAt(at, "NATURAL %s is not supported", kind)
		}
		right, err := p.tablePrimary()
		if err != nil {
			return nil, err
		}
		j := &Join{At: at, Kind: kind, L: left, R: right, Natural: natural}
		if kind != JoinCross && !natural {
			if p.acceptKw("ON") {
				if j.On, err = p.expr(); err != nil {
					return nil, err
				}
			} else if p.atKw("USING") {
				p.advance()
				if j.Using, err = p.identList("column name"); err != nil {
					return nil, err
				}
			}
		}
		left = j
	}
}

// alias reads [AS] alias after a FROM item.
func (p *parser) alias() (string, error) {
	if p.acceptKw("AS") {
		name, _, err := p.ident("alias")
		return name, err
	}
	if isIdentTok(p.tok()) && !p.clauseAhead() {
		return p.advance().text, nil
	}
	return "", nil
}

func (p *parser) tablePrimary() (TableExpr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.tok()
	if isOp(t, "(") {
		n := parenRun(p)
		if !p.queryAt(n) {
			return p.parenJoin()
		}
		save := p.i
		st, err := p.subqueryTable()
		if err == nil || n == 1 || p.backtracks >= maxBacktracks {
			return st, err
		}
		// "((SELECT ...) AS x JOIN y)" starts like a subquery but is a
		// parenthesized join; try that reading, keeping the first error
		// if it fails too.
		p.backtracks++
		p.i = save
		if j, err2 := p.parenJoin(); err2 == nil {
			return j, nil
		}
		return nil, err
	}
	if isKw(t, "VALUES") {
		v, err := p.values()
		if err != nil {
			return nil, err
		}
		st := &SubqueryTable{At: t.pos, Query: &Query{At: t.pos, Body: v}}
		if st.Alias, err = p.alias(); err != nil {
			return nil, err
		}
		if st.Columns, err = p.columnAliases(st.Alias); err != nil {
			return nil, err
		}
		return st, nil
	}
	if p.tableFunctionAhead() {
		return p.tableFunction()
	}
	tn := p.directFiles()
	if tn == nil {
		name, at, err := p.qualifiedName("table name")
		if err != nil {
			return nil, err
		}
		tn = &TableName{At: at, Name: p.indexNameTail(name)}
	}
	var err error
	if tn.Sample, err = p.tableSample(); err != nil {
		return nil, err
	}
	if tn.Alias, err = p.alias(); err != nil {
		return nil, err
	}
	if tn.Columns, err = p.columnAliases(tn.Alias); err != nil {
		return nil, err
	}
	return tn, nil
}

func (p *parser) subqueryTable() (TableExpr, error) {
	at := p.advance().pos
	q, err := p.query()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	st := &SubqueryTable{At: at, Query: q}
	if st.Alias, err = p.alias(); err != nil {
		return nil, err
	}
	if st.Columns, err = p.columnAliases(st.Alias); err != nil {
		return nil, err
	}
	return st, nil
}

// columnAliases reads the (a, b) of t(a, b) after a FROM item's alias.
func (p *parser) columnAliases(alias string) ([]string, error) {
	if alias == "" || !p.atOp("(") {
		return nil, nil
	}
	return p.identList("column alias")
}

func (p *parser) parenJoin() (TableExpr, error) {
	p.advance()
	j, err := p.from()
	if err != nil {
		return nil, err
	}
	return j, p.expectOp(")")
}

// parenRun counts the '(' tokens from the current one, stopping past
// maxDepth: deeper input fails the nesting check anyway, and the cap keeps
// nested look-ahead from going quadratic.
func parenRun(p *parser) int {
	n := 1
	for n <= maxDepth && isOp(p.peek(n), "(") {
		n++
	}
	return n
}

// directFormats are the formats FROM fmt.`path` reads, as Spark's
// direct queries on files do.
var directFormats = map[string]bool{"json": true, "csv": true, "parquet": true}

// directFiles reads json.`path` (csv, parquet): an unquoted format name,
// a dot, and a back-quoted path. It returns nil, consuming nothing, for
// anything else, so a table json.t of a database json still resolves.
func (p *parser) directFiles() *TableName {
	t := p.tok()
	if t.kind != tkIdent || t.quoted || !directFormats[strings.ToLower(t.text)] || !isOp(p.peek(1), ".") {
		return nil
	}
	path := p.peek(2)
	if path.kind != tkIdent || !path.quoted || !strings.ContainsAny(path.text, "/\\.:") {
		return nil
	}
	p.advance()
	p.advance()
	p.advance()
	return &TableName{At: t.pos, Name: path.text, Format: strings.ToLower(t.text)}
}
