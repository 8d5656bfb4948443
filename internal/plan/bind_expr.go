package plan

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/suggest"
	"sluice/internal/types"
)

// hook lets a caller take over binding of a subtree: SELECT items after
// GROUP BY resolve to the aggregate's output columns this way. handled
// false means bind e normally (its children still go through the hook).
type hook func(e sql.Expr) (bound expr.Expr, handled bool, err error)

type exprBinder struct {
	b    *Binder
	sc   *scope
	hook hook
	// lambdas are the parameters of the lambdas whose body is being bound.
	lambdas []lambdaFrame
}

// bindScalar binds e over sc; aggregate calls are an error here.
func (b *Binder) bindScalar(e sql.Expr, sc *scope) (expr.Expr, error) {
	eb := &exprBinder{b: b, sc: sc}
	return eb.bind(e)
}

func (eb *exprBinder) bind(e sql.Expr) (expr.Expr, error) {
	if err := eb.b.cancelled(); err != nil {
		return nil, err
	}
	if eb.hook != nil && !eb.isLambdaRef(e) {
		be, ok, err := eb.hook(e)
		if err != nil {
			return nil, err
		}
		if ok {
			return be, nil
		}
	}
	out, err := eb.bindNode(e)
	if err != nil {
		if _, ok := err.(*Error); ok || isCancel(err) {
			return nil, err
		}
		return nil, errAt(e, "%v", err)
	}
	return out, nil
}

func (eb *exprBinder) bindAll(es []sql.Expr) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		be, err := eb.bind(e)
		if err != nil {
			return nil, err
		}
		out[i] = be
	}
	return out, nil
}

func (eb *exprBinder) bindNode(e sql.Expr) (expr.Expr, error) {
	switch t := e.(type) {
	case *sql.Literal:
		return bindLiteral(t)
	case *sql.ColumnRef:
		return eb.bindColumn(t)
	case *sql.Star:
		return nil, errAt(t, "* is only allowed in a SELECT list or count(*)")
	case *sql.Unary:
		if lit, ok := t.X.(*sql.Literal); ok && t.Op == sql.OpNeg && !strings.HasPrefix(lit.Value, "-") &&
			(lit.Kind == sql.LitInteger || lit.Kind == sql.LitDecimal || lit.Kind == sql.LitFloat) {
			// -1 is a literal, not negate(1): functions that need a constant
			// argument (round(x, -1)) see one, and -2147483648 fits INT.
			neg := *lit
			neg.Value = "-" + lit.Value
			return bindLiteral(&neg)
		}
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		switch t.Op {
		case sql.OpNeg:
			return expr.Call("negate", x)
		case sql.OpNot:
			return expr.Call("not", x)
		case sql.OpBitNot:
			return expr.Call("~", x)
		}
		return x, nil
	case *sql.Binary:
		if t.Op == sql.OpAnd || t.Op == sql.OpOr {
			return eb.bindChain(t)
		}
		if isComparison(t.Op) {
			coll, err := comparisonCollation(t.L, t.R)
			if err != nil {
				return nil, err
			}
			if coll != "" {
				lr, err := eb.bindCollatedAll([]sql.Expr{t.L, t.R}, coll)
				if err != nil {
					return nil, err
				}
				return expr.Call(strings.ToLower(t.Op), lr...)
			}
		}
		l, err := eb.bind(t.L)
		if err != nil {
			return nil, err
		}
		r, err := eb.bind(t.R)
		if err != nil {
			return nil, err
		}
		return expr.Call(strings.ToLower(t.Op), l, r)
	case *sql.Is:
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		name := map[sql.IsKind]string{sql.IsNull: "is_null", sql.IsTrue: "is_true", sql.IsFalse: "is_false"}[t.Is]
		if t.Not && t.Is == sql.IsNull {
			return expr.Call("is_not_null", x)
		}
		r, err := expr.Call(name, x)
		if err != nil || !t.Not {
			return r, err
		}
		return expr.Call("not", r)
	case *sql.InList:
		coll, err := comparisonCollation(append([]sql.Expr{t.X}, t.List...)...)
		if err != nil {
			return nil, err
		}
		all, err := eb.bindCollatedAll(append([]sql.Expr{t.X}, t.List...), coll)
		if err != nil {
			return nil, err
		}
		return expr.In(all[0], all[1:], t.Not)
	case *sql.Between:
		coll, err := comparisonCollation(t.X, t.Lo, t.Hi)
		if err != nil {
			return nil, err
		}
		args, err := eb.bindCollatedAll([]sql.Expr{t.X, t.Lo, t.Hi}, coll)
		if err != nil {
			return nil, err
		}
		r, err := expr.Call("between", args...)
		if err != nil || !t.Not {
			return r, err
		}
		return expr.Call("not", r)
	case *sql.Like:
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		p, err := eb.bind(t.Pattern)
		if err != nil {
			return nil, err
		}
		if t.Op == sql.OpRLike {
			r, err := expr.Call("rlike", x, p)
			if err != nil || !t.Not {
				return r, err
			}
			return expr.Call("not", r)
		}
		esc := '\\'
		if t.Escape != nil {
			lit, ok := t.Escape.(*sql.Literal)
			if !ok || lit.Kind != sql.LitString || len([]rune(lit.Value)) != 1 {
				return nil, errAt(t.Escape, "ESCAPE expects a one-character string")
			}
			esc = []rune(lit.Value)[0]
		}
		return expr.Like(x, p, esc, t.Op == sql.OpILike, t.Not)
	case *sql.Case:
		var operand expr.Expr
		var err error
		if t.Operand != nil {
			if operand, err = eb.bind(t.Operand); err != nil {
				return nil, err
			}
		}
		whens := make([]expr.Expr, len(t.Whens))
		thens := make([]expr.Expr, len(t.Whens))
		for i, w := range t.Whens {
			if whens[i], err = eb.bind(w.Cond); err != nil {
				return nil, err
			}
			if thens[i], err = eb.bind(w.Then); err != nil {
				return nil, err
			}
		}
		var els expr.Expr
		if t.Else != nil {
			if els, err = eb.bind(t.Else); err != nil {
				return nil, err
			}
		}
		return expr.Case(operand, whens, thens, els)
	case *sql.Cast:
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		if t.Try {
			return expr.TryCast(x, t.Type)
		}
		return expr.Cast(x, t.Type)
	case *sql.Extract:
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		f, _ := expr.Lit(strings.ToLower(t.Field), types.String)
		return expr.Call("extract", f, x)
	case *sql.Call:
		return eb.bindCall(t)
	case *sql.Collate:
		return eb.bindCollate(t)
	case *sql.Lambda:
		return nil, errAt(t, "a lambda is only allowed as an argument of transform, filter, exists, forall or aggregate")
	case *sql.Subquery, *sql.Exists:
		if v, ok := eb.b.subqueryExprs[e]; ok {
			return v, nil
		}
		if err := eb.b.noStreamingSubquery(e); err != nil {
			return nil, err
		}
		return nil, errAt(e, "a subquery is not supported here; subqueries may appear in WHERE, HAVING, the SELECT list and ORDER BY")
	case *sql.InSubquery, *sql.QuantifiedSubquery:
		if v, ok := eb.b.subqueryExprs[e]; ok {
			return v, nil
		}
		if err := eb.b.noStreamingSubquery(e); err != nil {
			return nil, err
		}
		return nil, errAt(e, "a subquery is not supported here; subqueries may appear in WHERE, HAVING, the SELECT list and ORDER BY")
	case *sql.GroupingSets:
		return nil, errAt(t, "%s is only allowed in GROUP BY", t.Kind)
	case *sql.Subscript:
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		idx, err := eb.bind(t.Index)
		if err != nil {
			return nil, err
		}
		return expr.Subscript(x, idx)
	case *sql.FieldAccess:
		x, err := eb.bind(t.X)
		if err != nil {
			return nil, err
		}
		return expr.Field(x, t.Name)
	}
	return nil, errAt(e, "unsupported expression %T", e)
}

func (eb *exprBinder) bindCall(c *sql.Call) (expr.Expr, error) {
	name := strings.ToLower(c.Name)
	if colName, ok := eb.b.windowCols[c.String()]; ok {
		if col, _ := eb.sc.find("", colName); col != nil {
			return expr.Col(col.Index, col.Name, col.Type), nil
		}
	}
	if c.Filter != nil && (c.Over != nil || !expr.IsAggregate(name)) {
		return nil, errAt(c, "FILTER (WHERE ...) is only allowed on aggregate functions, not on %s", describeCall(c))
	}
	if c.Over != nil {
		return nil, errAt(c, "window function %s is not allowed here; window functions may appear in the SELECT list, QUALIFY and ORDER BY", name)
	}
	if expr.IsWindowFunction(name) {
		return nil, errAt(c, "%s is a window function and needs an OVER clause", name)
	}
	if expr.IsAggregate(name) {
		return nil, errAt(c, "aggregate function %s is not allowed here", name)
	}
	if isGenerator(name) {
		return nil, errAt(c, "%s is only allowed as a top-level SELECT item", name)
	}
	if c.IgnoreNulls {
		return nil, errAt(c, "IGNORE NULLS is only valid for first, last and window functions")
	}
	if c.Star || c.Distinct {
		return nil, errAt(c, "%s(%s) is only valid for aggregate functions", name, map[bool]string{true: "*", false: "DISTINCT ..."}[c.Star])
	}
	if name == "grouping" || name == "grouping_id" {
		return nil, errAt(c, "%s() is only allowed with GROUP BY ROLLUP, CUBE or GROUPING SETS, in the SELECT list, HAVING and ORDER BY", name)
	}
	if name == "input_file_name" && len(c.Args) == 0 {
		return eb.inputFileName(), nil
	}
	if takesLambda(c, name) {
		return eb.bindHigherOrder(c, name)
	}
	for _, a := range c.Args {
		if _, ok := a.(*sql.Lambda); ok {
			return nil, errAt(a, "%s does not take a lambda argument", name)
		}
	}
	if !expr.IsFunction(name) {
		return nil, errAt(c, "unknown function %s%s", c.Name, suggest.DidYouMean(c.Name, expr.FunctionNames()))
	}
	if coll, ok := firstArg(c).(*sql.Collate); ok && name == "collation" && len(c.Args) == 1 {
		// The collation is not part of the value's type, so it is read
		// from the syntax.
		if _, err := eb.bindCollated(coll, ""); err != nil {
			return nil, err
		}
		cname, err := collationOf(coll)
		if err != nil {
			return nil, err
		}
		return expr.Lit("SYSTEM.BUILTIN."+cname, types.String)
	}
	args, err := eb.bindAll(c.Args)
	if err != nil {
		return nil, err
	}
	return expr.Call(name, args...)
}

// bindColumn resolves a dotted name: table.column.field... or
// column.field... (Spark's rule: a qualifier wins when it names a table).
func (eb *exprBinder) bindColumn(c *sql.ColumnRef) (expr.Expr, error) {
	parts := c.Parts
	var col *scopeCol
	var err error
	rest := parts[1:]
	if v := eb.lambdaVar(parts[0]); v != nil {
		for _, f := range rest {
			if v, err = expr.Field(v, f); err != nil {
				return nil, errAt(c, "%v", err)
			}
		}
		return v, nil
	}
	if len(parts) >= 2 && eb.sc.hasTable(parts[0]) {
		col, err = eb.sc.find(parts[0], parts[1])
		if err != nil {
			return nil, errAt(c, "%v", err)
		}
		if col != nil {
			rest = parts[2:]
		}
	}
	if col == nil {
		col, err = eb.sc.find("", parts[0])
		if err != nil {
			return nil, errAt(c, "%v", err)
		}
		rest = parts[1:]
	}
	if col == nil && len(eb.b.outer) > 0 {
		o, orest, err := eb.b.outerColumn(parts)
		if err != nil {
			return nil, errAt(c, "%v", err)
		}
		if o != nil {
			var out expr.Expr = o
			for _, f := range orest {
				if out, err = expr.Field(out, f); err != nil {
					return nil, errAt(c, "%v", err)
				}
			}
			return out, nil
		}
	}
	if col == nil && len(parts) == 1 {
		if niladic[strings.ToLower(parts[0])] {
			return expr.Call(strings.ToLower(parts[0]))
		}
	}
	if col == nil {
		name := strings.Join(parts, ".")
		var known []string
		for _, sc := range eb.sc.cols {
			known = append(known, sc.Name)
		}
		err := errAt(c, "column %q not found", name)
		if avail := eb.sc.names(); avail != "" {
			err = errAt(c, "column %q not found%s (available: %s)", name,
				suggest.DidYouMean(parts[len(parts)-1], known), avail)
		}
		err.(*Error).Missing = &MissingColumn{Name: name, Available: known}
		return nil, err
	}
	var out expr.Expr = expr.Col(col.Index, col.Name, col.Type)
	for _, f := range rest {
		if out, err = expr.Field(out, f); err != nil {
			return nil, errAt(c, "%v", err)
		}
	}
	return out, nil
}

// niladic are the SQL functions that may be written without parentheses.
var niladic = map[string]bool{"current_date": true, "current_timestamp": true, "current_time": true, "localtimestamp": true}

// bindLiteral types a literal the way Spark does: integers are INT when
// they fit, else BIGINT; 1.5 is DECIMAL; 1.5e3 is DOUBLE.
func bindLiteral(l *sql.Literal) (expr.Expr, error) {
	switch l.Kind {
	case sql.LitNull:
		return expr.Lit(nil, types.Null)
	case sql.LitBool:
		return expr.Lit(strings.EqualFold(l.Value, "TRUE"), types.Boolean)
	case sql.LitInteger:
		v, err := strconv.ParseInt(l.Value, 10, 64)
		if err != nil {
			return decimalLiteral(l)
		}
		switch {
		case l.Suffix == "L":
			return expr.Lit(v, types.BigInt)
		case l.Suffix == "S" && (v < -1<<15 || v >= 1<<15), l.Suffix == "Y" && (v < -1<<7 || v >= 1<<7):
			return nil, errAt(l, "%s%s is out of range for %s", l.Value, l.Suffix, map[string]string{"S": "SMALLINT", "Y": "TINYINT"}[l.Suffix])
		}
		if v >= -1<<31 && v < 1<<31 {
			return expr.Lit(int32(v), types.Int)
		}
		if l.Suffix != "" { // S, Y: Sluice's INT stands for SMALLINT and TINYINT
			return nil, errAt(l, "%s%s is out of range for its type", l.Value, l.Suffix)
		}
		return expr.Lit(v, types.BigInt)
	case sql.LitDecimal:
		return decimalLiteral(l)
	case sql.LitFloat:
		v, err := strconv.ParseFloat(l.Value, 64)
		if err != nil {
			return nil, errAt(l, "invalid number %s", l.Value)
		}
		return expr.Lit(v, types.Double)
	case sql.LitString, sql.LitIdent:
		return expr.Lit(l.Value, types.String)
	case sql.LitDate:
		d, ok := types.ParseDate(l.Value)
		if !ok {
			return nil, errAt(l, "invalid DATE literal '%s' (want YYYY-MM-DD)", l.Value)
		}
		return expr.Lit(d, types.Date)
	case sql.LitTimestamp:
		ts, ok := types.ParseTimestamp(l.Value)
		if !ok {
			return nil, errAt(l, "invalid TIMESTAMP literal '%s' (want ISO-8601, e.g. 2026-11-30 12:00:00)", l.Value)
		}
		return expr.Lit(ts, types.Timestamp)
	case sql.LitInterval:
		return expr.Lit(l.Interval, types.Interval)
	case sql.LitBinary:
		v, err := hex.DecodeString(l.Value)
		if err != nil {
			return nil, errAt(l, "invalid binary literal X'%s'", l.Value)
		}
		return expr.Lit(v, arrow.BinaryTypes.Binary)
	}
	return nil, errAt(l, "unsupported literal %s", l.Value)
}

func decimalLiteral(l *sql.Literal) (expr.Expr, error) {
	s := l.Value
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	prec := int32(len(digits))
	scale := int32(len(frac))
	if prec < scale {
		prec = scale
	}
	if prec == 0 {
		prec = 1
	}
	if prec > 38 {
		v, err := strconv.ParseFloat(l.Value, 64)
		if err != nil {
			return nil, errAt(l, "invalid number %s", s)
		}
		return expr.Lit(v, types.Double)
	}
	bi, ok := new(big.Int).SetString(intPart+frac, 10)
	if !ok {
		return nil, errAt(l, "invalid number %s", s)
	}
	if neg {
		bi.Neg(bi)
	}
	return expr.Lit(decimal128.FromBigInt(bi), types.Decimal(prec, scale))
}

// literalInt reads an integer literal (GROUP BY 1, ORDER BY 2).
func literalInt(e sql.Expr) (int, bool) {
	l, ok := e.(*sql.Literal)
	if !ok || l.Kind != sql.LitInteger {
		return 0, false
	}
	v, err := strconv.Atoi(l.Value)
	return v, err == nil
}

func firstArg(c *sql.Call) sql.Expr {
	if len(c.Args) == 0 {
		return nil
	}
	return c.Args[0]
}

func describeCall(c *sql.Call) string {
	if c.Over != nil {
		return "window function " + strings.ToLower(c.Name)
	}
	return strings.ToLower(c.Name)
}

// inputFileName binds input_file_name() to the hidden _file column of the
// one file table in scope: the URI of the file each row was read from. A
// row from no file (VALUES, another connector, two file tables joined,
// a subquery whose SELECT dropped _file) gets "", as Spark's does.
func (eb *exprBinder) inputFileName() expr.Expr {
	var found *scopeCol
	for i := range eb.sc.cols {
		c := &eb.sc.cols[i]
		if c.Hidden && c.Name == connector.FileColumn && types.IsString(c.Type) {
			if found != nil {
				found = nil
				break
			}
			found = c
		}
	}
	if found == nil {
		return expr.MustLit("", types.String)
	}
	return expr.Col(found.Index, found.Name, found.Type)
}
