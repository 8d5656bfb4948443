package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// maxRangeRows caps range(...): its rows are built as one array before
// they are exploded, so a huge range would be held in memory at once.
const maxRangeRows = 1 << 26

// bindTableFunction binds range(...) or a generator written as a FROM
// item. A generator here sees no FROM item to its left (Spark needs
// LATERAL for that; bindLateralJoin handles it), so it runs over one
// empty row.
func (b *Binder) bindTableFunction(tf *sql.TableFunction) (Node, *scope, error) {
	name := strings.ToLower(tf.Call.Name)
	if name == "range" {
		n, err := b.bindRange(tf.Call)
		if err != nil {
			return nil, nil, err
		}
		if len(tf.Columns) > 0 {
			if n, err = renameColumns(n, tf.Columns); err != nil {
				return nil, nil, errAt(tf, "%s(%s): %v", tf.Alias, strings.Join(tf.Columns, ", "), err)
			}
		}
		return n, scopeFor(tf.Alias, n.Schema(), nil), nil
	}
	if !isGenerator(name) {
		return nil, nil, errAt(tf, "%s is not a table-valued function; FROM takes range and the generators (%s)", tf.Call.Name, generatorNames())
	}
	one := NewValues(nil, nil, [][]expr.Expr{{}})
	return b.bindLateral(tf.Call, false, tf.Alias, tf.Columns, one, &scope{})
}

// bindLateral joins each row of input with the rows call, a generator
// reading input's columns through sc, yields for it: LATERAL VIEW and a
// LATERAL generator in FROM. The generated columns, named cols when
// given (one name for each), belong to table.
func (b *Binder) bindLateral(call *sql.Call, outer bool, table string, cols []string, input Node, sc *scope) (Node, *scope, error) {
	name := strings.ToLower(call.Name)
	if !isGenerator(name) {
		return nil, nil, errAt(call, "%s is not a generator; expected one of %s", call.Name, generatorNames())
	}
	g, err := b.bindGenerator(call, nil, input, &exprBinder{b: b, sc: sc})
	if err != nil {
		return nil, nil, err
	}
	if len(cols) > 0 && len(cols) != len(g.names) {
		return nil, nil, errAt(call, "%s yields %d columns (%s) but %d names are given", name, len(g.names), strings.Join(g.names, ", "), len(cols))
	}
	if outer {
		g.node.Outer = true
	}
	in := input.Schema()
	width := in.NumFields()
	exprs := make([]expr.Expr, 0, width+len(g.exprs))
	names := make([]string, 0, width+len(g.exprs))
	for i, f := range in.Fields() {
		exprs = append(exprs, expr.Col(i, f.Name, f.Type))
		names = append(names, f.Name)
	}
	out := &scope{cols: append([]scopeCol{}, sc.cols...)}
	for i, e := range g.exprs {
		n := g.names[i]
		if len(cols) > 0 {
			n = cols[i]
		}
		exprs = append(exprs, e)
		names = append(names, n)
		out.cols = append(out.cols, scopeCol{Table: table, Name: n, Type: e.Type(), Index: width + i})
	}
	return &Project{Input: g.node, Exprs: exprs, Names: names}, out, nil
}

// bindLateralJoin binds L [CROSS | INNER] JOIN LATERAL generator(...)
// (and L, LATERAL generator(...)): the generator reads L's columns, and
// an ON condition filters the joined rows.
func (b *Binder) bindLateralJoin(j *sql.Join, tf *sql.TableFunction) (Node, *scope, error) {
	if j.Kind != sql.JoinInner && j.Kind != sql.JoinCross {
		return nil, nil, errAt(j, "%s LATERAL is not supported; use a comma, CROSS JOIN or INNER JOIN", j.Kind)
	}
	if len(j.Using) > 0 {
		return nil, nil, errAt(j, "JOIN LATERAL takes no USING")
	}
	left, ls, err := b.bindFrom(j.L)
	if err != nil {
		return nil, nil, err
	}
	n, sc, err := b.bindLateral(tf.Call, false, tf.Alias, tf.Columns, left, ls)
	if err != nil {
		return nil, nil, err
	}
	if j.On != nil {
		return b.bindWhere(j.On, n, sc, "JOIN")
	}
	return n, sc, nil
}

// bindRange binds range(end), range(start, end[, step[, numPartitions]]):
// the BIGINTs from start (0) up to, not including, end, step (1) apart,
// in a column id. The arguments are constant, as Spark requires;
// numPartitions is accepted and has no effect.
func (b *Binder) bindRange(c *sql.Call) (Node, error) {
	if len(c.Args) < 1 || len(c.Args) > 4 {
		return nil, errAt(c, "range expects 1 to 4 arguments, got %d", len(c.Args))
	}
	vals := make([]int64, len(c.Args))
	for i, a := range c.Args {
		v, err := b.rangeArg(a)
		if err != nil {
			return nil, errAt(a, "range: %v", errText(err))
		}
		vals[i] = v
	}
	start, end, step := int64(0), vals[0], int64(1)
	if len(vals) >= 2 {
		start, end = vals[0], vals[1]
	}
	if len(vals) >= 3 {
		step = vals[2]
	}
	if step == 0 {
		return nil, errAt(c, "range: the step must not be 0")
	}
	if len(vals) == 4 && vals[3] < 1 {
		return nil, errAt(c.Args[3], "range: the number of partitions must be positive, got %d", vals[3])
	}
	count := rangeCount(start, end, step)
	if count > maxRangeRows {
		return nil, errAt(c, "range: %d rows is more than the %d this engine builds at once", count, int64(maxRangeRows))
	}
	names, ts := []string{"id"}, []arrow.DataType{types.BigInt}
	empty := count == 0
	if empty {
		// An empty range is one value's, limited to none: VALUES cannot
		// be empty.
		count = 1
	}
	// The bounds are a row's columns, not literals, so constant folding
	// does not turn the sequence into one literal array as long as the
	// range (EXPLAIN would print it).
	bounds := []string{"start", "last", "step"}
	row := make([]expr.Expr, 3)
	cols := make([]expr.Expr, 3)
	for i, v := range []int64{start, start + (count-1)*step, step} {
		l, err := expr.Lit(v, types.BigInt)
		if err != nil {
			return nil, fmt.Errorf("range: %w", err)
		}
		row[i] = l
		cols[i] = expr.Col(i, bounds[i], types.BigInt)
	}
	seq, err := expr.Call("sequence", cols...)
	if err != nil {
		return nil, fmt.Errorf("range: %w", err)
	}
	in := NewValues(bounds, []arrow.DataType{types.BigInt, types.BigInt, types.BigInt}, [][]expr.Expr{row})
	ex := &Explode{Input: in, Gen: seq, Names: names, Types: ts}
	var n Node = &Project{Input: ex, Exprs: []expr.Expr{expr.Col(3, "id", types.BigInt)}, Names: names}
	if empty {
		n = &Limit{Input: n, N: 0}
	}
	return n, nil
}

// rangeCount is how many values start, start+step, ... lie before end.
func rangeCount(start, end, step int64) int64 {
	if step > 0 && start >= end || step < 0 && start <= end {
		return 0
	}
	// Differences are taken as unsigned so extreme bounds do not overflow.
	var span, s uint64
	if step > 0 {
		span, s = uint64(end)-uint64(start), uint64(step)
	} else {
		span, s = uint64(start)-uint64(end), -uint64(step)
	}
	n := span / s
	if span%s != 0 {
		n++
	}
	if n > 1<<62 {
		return 1 << 62
	}
	return int64(n)
}

// rangeArg reads a constant integer argument of range: any expression
// that folds to one (range(1 + 1)), as in Spark.
func (b *Binder) rangeArg(e sql.Expr) (int64, error) {
	be, err := b.bindScalar(e, &scope{})
	if err != nil {
		return 0, err
	}
	if be, err = expr.Fold(be); err != nil {
		return 0, err
	}
	if lit, ok := be.(*expr.Literal); ok {
		switch v := lit.Value.(type) {
		case int64:
			return v, nil
		case int32:
			return int64(v), nil
		case int16:
			return int64(v), nil
		case int8:
			return int64(v), nil
		}
	}
	return 0, fmt.Errorf("expects constant integers, got %s", e)
}

// generatorNames lists the generators for an error message.
func generatorNames() string {
	return "explode, explode_outer, posexplode, posexplode_outer, inline, inline_outer, stack, json_tuple"
}
