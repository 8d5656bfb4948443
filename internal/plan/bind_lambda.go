package plan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// higherOrder lists the functions taking lambdas (reduce is aggregate).
var higherOrder = map[string]bool{
	"transform": true, "filter": true, "exists": true, "forall": true, "aggregate": true, "reduce": true,
	"zip_with": true, "map_filter": true, "transform_values": true, "transform_keys": true,
	"map_zip_with": true,
}

// takesLambda reports whether c is a higher-order call: array_sort only
// with its comparator lambda (without one it is a registry function).
func takesLambda(c *sql.Call, name string) bool {
	if higherOrder[name] {
		return true
	}
	if name != "array_sort" {
		return false
	}
	for _, a := range c.Args {
		if _, ok := a.(*sql.Lambda); ok {
			return true
		}
	}
	return false
}

// lambdaFrame is one lambda's parameters while its body is bound.
type lambdaFrame struct {
	names []string
	vars  []expr.Expr
}

// lambdaVar finds name among the parameters of the lambdas being bound,
// innermost first.
func (eb *exprBinder) lambdaVar(name string) expr.Expr {
	for i := len(eb.lambdas) - 1; i >= 0; i-- {
		f := eb.lambdas[i]
		for j, n := range f.names {
			if strings.EqualFold(n, name) {
				return f.vars[j]
			}
		}
	}
	return nil
}

// isLambdaRef reports whether e names a lambda parameter, which a hook
// (GROUP BY's output columns) must not take for a column.
func (eb *exprBinder) isLambdaRef(e sql.Expr) bool {
	c, ok := e.(*sql.ColumnRef)
	return ok && len(eb.lambdas) > 0 && eb.lambdaVar(c.Parts[0]) != nil
}

// bindLambda binds l's body with its parameters typed ts; a parameter
// shadows a column of the same name, and other columns stay visible.
func (eb *exprBinder) bindLambda(name string, l *sql.Lambda, ts ...arrow.DataType) (expr.Lambda, error) {
	optionalIndex := name == "transform" || name == "filter"
	if len(l.Params) != len(ts) && !(optionalIndex && len(l.Params) == 1) {
		return expr.Lambda{}, errAt(l, "%s: the lambda takes %d parameter(s), not %d", name, len(ts), len(l.Params))
	}
	s := expr.NewLambdaScope(l.Params...)
	f := lambdaFrame{names: l.Params}
	for i := range l.Params {
		f.vars = append(f.vars, s.Var(i, ts[i]))
	}
	inner := *eb
	inner.lambdas = append(append([]lambdaFrame{}, eb.lambdas...), f)
	body, err := inner.bind(l.Body)
	if err != nil {
		return expr.Lambda{}, err
	}
	return expr.Lambda{Scope: s, Body: body}, nil
}

// bindHigherOrder binds transform, filter, exists, forall and aggregate
// (reduce): the array first, then each lambda over its element type.
func (eb *exprBinder) bindHigherOrder(c *sql.Call, name string) (expr.Expr, error) {
	if name == "reduce" {
		name = "aggregate"
	}
	var args []expr.Expr
	var lams []*sql.Lambda
	for _, a := range c.Args {
		if l, ok := a.(*sql.Lambda); ok {
			lams = append(lams, l)
			continue
		}
		if len(lams) > 0 {
			return nil, errAt(a, "%s: a lambda must be the last argument(s)", name)
		}
		be, err := eb.bind(a)
		if err != nil {
			return nil, err
		}
		args = append(args, be)
	}
	if len(args) == 0 || len(lams) == 0 {
		return nil, errAt(c, "%s takes an array and a lambda such as x -> x + 1", name)
	}
	var bound []expr.Lambda
	if name == "map_zip_with" {
		if len(args) != 2 || len(lams) != 1 {
			return nil, errAt(c, "map_zip_with takes two maps and a lambda (k, v1, v2) -> ...")
		}
		kt := arrow.DataType(types.Null)
		var vts []arrow.DataType
		for i, a := range args {
			mt, ok := a.Type().(*arrow.MapType)
			if !ok {
				if a.Type().ID() != arrow.NULL {
					return nil, errAt(c.Args[i], "map_zip_with: argument %d must be a map, not %s", i+1, types.SQLName(a.Type()))
				}
				vts = append(vts, types.Null)
				continue
			}
			if ct, ok := types.Common(kt, mt.KeyType()); ok {
				kt = ct
			}
			vts = append(vts, mt.ItemType())
		}
		l, err := eb.bindLambda(name, lams[0], kt, vts[0], vts[1])
		if err != nil {
			return nil, err
		}
		return expr.HigherOrder(name, args, []expr.Lambda{l})
	}
	if isMap := name == "map_filter" || name == "transform_values" || name == "transform_keys"; isMap && len(args) == 1 {
		kt, vt := arrow.DataType(types.Null), arrow.DataType(types.Null)
		if mt, ok := args[0].Type().(*arrow.MapType); ok {
			kt, vt = mt.KeyType(), mt.ItemType()
		} else if args[0].Type().ID() != arrow.NULL {
			return nil, errAt(c.Args[0], "%s: the first argument must be a map, not %s", name, types.SQLName(args[0].Type()))
		}
		l, err := eb.bindLambda(name, lams[0], kt, vt)
		if err != nil {
			return nil, err
		}
		return expr.HigherOrder(name, args, []expr.Lambda{l})
	}
	elems := make([]arrow.DataType, len(args))
	for i, a := range args {
		elems[i] = types.Null
		if lt, ok := a.Type().(*arrow.ListType); ok {
			elems[i] = lt.Elem()
		} else if a.Type().ID() != arrow.NULL && (i == 0 || name == "zip_with") {
			return nil, errAt(c.Args[i], "%s: argument %d must be an array, not %s", name, i+1, types.SQLName(a.Type()))
		}
	}
	elem := elems[0]
	switch name {
	case "map_filter", "transform_values", "transform_keys":
		return nil, errAt(c.Args[0], "%s: the first argument must be a map, not %s", name, types.SQLName(args[0].Type()))
	case "zip_with":
		if len(args) != 2 || len(lams) != 1 {
			return nil, errAt(c, "zip_with takes two arrays and a lambda (x, y) -> ...")
		}
		l, err := eb.bindLambda(name, lams[0], elems[0], elems[1])
		if err != nil {
			return nil, err
		}
		bound = append(bound, l)
	case "aggregate":
		if len(args) != 2 || len(lams) > 2 {
			return nil, errAt(c, "aggregate takes an array, a start value, a merge lambda (acc, x) -> ... and an optional finish lambda acc -> ...")
		}
		accT := args[1].Type()
		merge, err := eb.bindLambda(name, lams[0], accT, elem)
		if err != nil {
			return nil, err
		}
		if mt := merge.Body.Type(); !arrow.TypeEqual(mt, accT) {
			// The start value takes the merge's type (0 then acc + 1.5).
			if args[1], err = expr.Cast(args[1], mt); err != nil {
				return nil, errAt(c.Args[1], "aggregate: %v", err)
			}
			accT = mt
			if merge, err = eb.bindLambda(name, lams[0], accT, elem); err != nil {
				return nil, err
			}
			if !arrow.TypeEqual(merge.Body.Type(), accT) {
				if merge.Body, err = expr.Cast(merge.Body, accT); err != nil {
					return nil, errAt(lams[0], "aggregate: %v", err)
				}
			}
		}
		bound = append(bound, merge)
		if len(lams) == 2 {
			fin, err := eb.bindLambda(name, lams[1], accT)
			if err != nil {
				return nil, err
			}
			bound = append(bound, fin)
		}
	case "array_sort":
		if len(args) != 1 || len(lams) != 1 {
			return nil, errAt(c, "array_sort takes an array and a comparator (l, r) -> INT")
		}
		l, err := eb.bindLambda(name, lams[0], elem, elem)
		if err != nil {
			return nil, err
		}
		bound = append(bound, l)
	case "transform", "filter":
		l, err := eb.bindLambda(name, lams[0], elem, types.Int)
		if err != nil {
			return nil, err
		}
		bound = append(bound, l)
	default:
		l, err := eb.bindLambda(name, lams[0], elem)
		if err != nil {
			return nil, err
		}
		bound = append(bound, l)
	}
	return expr.HigherOrder(name, args, bound)
}
