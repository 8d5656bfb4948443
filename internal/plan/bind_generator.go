package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// generators are the SELECT items that yield several rows per input row.
// Every one becomes an Explode: posexplode adds the position, and inline,
// stack and json_tuple explode an ARRAY of STRUCTs (stack and json_tuple
// build it) whose fields the select list then reads, so one operator
// serves them all.
var generators = map[string]bool{
	"explode": true, "explode_outer": true, "posexplode": true, "posexplode_outer": true,
	"inline": true, "inline_outer": true, "stack": true, "json_tuple": true,
}

func isGenerator(name string) bool { return generators[name] }

// inlineColumn names the hidden STRUCT column an inline Explode adds.
const inlineColumn = "__inline"

// generated is a bound generator: its Explode and the select-list columns
// it stands for, as expressions over the Explode's output.
type generated struct {
	node  *Explode
	exprs []expr.Expr
	names []string
}

// bindGenerator binds a generator SELECT item over input; aliases are its
// AS names (one, or AS (a, b, ...)).
func (b *Binder) bindGenerator(c *sql.Call, aliases []string, input Node, post *exprBinder) (*generated, error) {
	name := strings.ToLower(c.Name)
	args, err := post.bindAll(c.Args)
	if err != nil {
		return nil, err
	}
	ex := &Explode{Input: input, Outer: strings.HasSuffix(name, "_outer"), Position: strings.HasPrefix(name, "pos")}
	var inline bool
	switch strings.TrimSuffix(name, "_outer") {
	case "explode", "posexplode":
		if len(args) != 1 {
			return nil, errAt(c, "%s expects 1 argument, got %d", name, len(args))
		}
		ex.Gen = args[0]
	case "inline":
		if len(args) != 1 {
			return nil, errAt(c, "%s expects 1 argument, got %d", name, len(args))
		}
		lt, ok := args[0].Type().(*arrow.ListType)
		if !ok || lt.Elem().ID() != arrow.STRUCT {
			return nil, errAt(c.Args[0], "%s expects an ARRAY of STRUCTs, got %s", name, typeName(args[0].Type()))
		}
		ex.Gen, inline = args[0], true
	case "stack":
		if ex.Gen, err = stackArray(args); err != nil {
			return nil, errAt(c, "stack: %v", err)
		}
		inline = true
	case "json_tuple":
		if ex.Gen, err = jsonTupleArray(args); err != nil {
			return nil, errAt(c, "json_tuple: %v", err)
		}
		inline = true
	}
	g := &generated{node: ex}
	base := input.Schema().NumFields()
	add := func(n string, t arrow.DataType) {
		ex.Names, ex.Types = append(ex.Names, n), append(ex.Types, t)
		g.exprs = append(g.exprs, expr.Col(base+len(ex.Names)-1, n, t))
		g.names = append(g.names, n)
	}
	if ex.Position {
		add("pos", types.Int)
	}
	switch t := ex.Gen.Type().(type) {
	case *arrow.ListType:
		if !inline {
			add("col", t.Elem())
			break
		}
		add(inlineColumn, t.Elem())
		st := g.exprs[len(g.exprs)-1]
		g.exprs, g.names = g.exprs[:len(g.exprs)-1], g.names[:len(g.names)-1]
		for _, f := range t.Elem().(*arrow.StructType).Fields() {
			fe, err := expr.Field(st, f.Name)
			if err != nil {
				return nil, errAt(c, "%s: %v", name, err)
			}
			g.exprs, g.names = append(g.exprs, fe), append(g.names, f.Name)
		}
	case *arrow.MapType:
		add("key", t.KeyType())
		add("value", t.ItemType())
	default:
		return nil, errAt(c.Args[0], "%s expects an ARRAY or MAP, got %s", name, typeName(ex.Gen.Type()))
	}
	switch {
	case len(aliases) == 1 && len(g.names) > 1 && !(ex.Position && len(g.names) == 2):
		return nil, errAt(c, "%s yields %d columns; name them with AS (%s)", name, len(g.names), strings.Join(g.names, ", "))
	case len(aliases) == 1:
		// explode(x) AS v names the value, posexplode(x) AS v too.
		g.names[len(g.names)-1] = aliases[0]
	case len(aliases) > 1 && len(aliases) != len(g.names):
		return nil, errAt(c, "%s yields %d columns but AS names %d", name, len(g.names), len(aliases))
	case len(aliases) > 1:
		copy(g.names, aliases)
	}
	if !inline {
		copy(ex.Names, g.names)
		for i, n := range g.names {
			g.exprs[i] = expr.Col(base+i, n, ex.Types[i])
		}
	}
	return g, nil
}

// stackArray builds stack(n, v...)'s rows: an ARRAY of n STRUCTs col0,
// col1, ... taking the values in order, the last row padded with NULLs.
// Each column takes the common type of its values, as Spark's does.
func stackArray(args []expr.Expr) (expr.Expr, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("expects the number of rows and at least one value")
	}
	lit, ok := args[0].(*expr.Literal)
	n, isInt := int64(0), false
	if ok {
		n, isInt = lit.Value.(int64)
		if !isInt {
			if v, ok32 := lit.Value.(int32); ok32 {
				n, isInt = int64(v), true
			}
		}
	}
	if !isInt || n < 1 {
		return nil, fmt.Errorf("the number of rows must be a constant positive integer, not %s", args[0])
	}
	vals := args[1:]
	cols := (len(vals) + int(n) - 1) / int(n)
	colTypes := make([]arrow.DataType, cols)
	for i, v := range vals {
		c := i % cols
		if colTypes[c] == nil {
			colTypes[c] = v.Type()
			continue
		}
		t, ok := types.Common(colTypes[c], v.Type())
		if !ok {
			return nil, fmt.Errorf("column %d mixes %s and %s", c, types.SQLName(colTypes[c]), types.SQLName(v.Type()))
		}
		colTypes[c] = t
	}
	rows := make([]expr.Expr, 0, n)
	for r := 0; r < int(n); r++ {
		var fields []expr.Expr
		for c := 0; c < cols; c++ {
			name, err := expr.Lit("col"+itoa(c), types.String)
			if err != nil {
				return nil, err
			}
			var v expr.Expr
			if i := r*cols + c; i < len(vals) {
				v = vals[i]
			} else if v, err = expr.Lit(nil, types.Null); err != nil {
				return nil, err
			}
			if !arrow.TypeEqual(v.Type(), colTypes[c]) {
				if v, err = expr.Cast(v, colTypes[c]); err != nil {
					return nil, err
				}
			}
			fields = append(fields, name, v)
		}
		st, err := expr.Call("named_struct", fields...)
		if err != nil {
			return nil, err
		}
		rows = append(rows, st)
	}
	return expr.Call("array", rows...)
}

// jsonTupleArray builds json_tuple(json, k...)'s one row: a STRUCT c0,
// c1, ... of each top-level key's value as text (NULL when the key is
// missing or the JSON is bad), through get_json_object.
func jsonTupleArray(args []expr.Expr) (expr.Expr, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("expects a JSON string and at least one field name")
	}
	var fields []expr.Expr
	for i, k := range args[1:] {
		lit, ok := k.(*expr.Literal)
		s, isStr := "", false
		if ok {
			s, isStr = lit.Value.(string)
		}
		if !isStr && !(ok && lit.Value == nil) {
			return nil, fmt.Errorf("field names must be constant strings, not %s", k)
		}
		name, err := expr.Lit("c"+itoa(i), types.String)
		if err != nil {
			return nil, err
		}
		var v expr.Expr
		if !isStr || strings.ContainsAny(s, "']") {
			// Not a path get_json_object reads: such a key is NULL.
			v, err = expr.Lit(nil, types.String)
		} else {
			var path expr.Expr
			if path, err = expr.Lit("$['"+s+"']", types.String); err == nil {
				v, err = expr.Call("get_json_object", args[0], path)
			}
		}
		if err != nil {
			return nil, err
		}
		fields = append(fields, name, v)
	}
	st, err := expr.Call("named_struct", fields...)
	if err != nil {
		return nil, err
	}
	return expr.Call("array", st)
}
