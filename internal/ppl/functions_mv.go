package ppl

import (
	"sluice/internal/sql"
	"sluice/internal/types"
)

// mapMV translates PPL's multivalue functions (mvjoin, mvindex, mvfind,
// mvmap, mvzip, ...) into the SQL engine's array functions where those
// mean the same; ok is false for other names.
func mapMV(c *sql.Call, name string) (e sql.Expr, ok bool, err error) {
	args, at := c.Args, c.At
	argc := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			if lo == hi {
				return syntaxErr(at, "%s takes %d argument(s), got %d", name, lo, len(args))
			}
			return syntaxErr(at, "%s takes %d to %d arguments, got %d", name, lo, hi, len(args))
		}
		return nil
	}
	call := func(fn string, xs ...sql.Expr) *sql.Call { return &sql.Call{At: at, Name: fn, Args: xs} }
	bin := func(op string, l, r sql.Expr) sql.Expr { return &sql.Binary{At: at, Op: op, L: l, R: r} }
	num := func(v string) sql.Expr { return &sql.Literal{At: at, Kind: sql.LitInteger, Value: v} }
	ref := func(n string) sql.Expr { return &sql.ColumnRef{At: at, Parts: []string{n}} }
	str := func(x sql.Expr) sql.Expr { return &sql.Cast{At: at, X: x, Type: types.String} }
	switch name {
	case "array_length":
		if err := argc(1, 1); err != nil {
			return nil, true, err
		}
		return call("array_size", args[0]), true, nil
	case "mvjoin":
		if err := argc(2, 2); err != nil {
			return nil, true, err
		}
		return call("array_join", args[0], args[1]), true, nil
	case "mvdedup":
		if err := argc(1, 1); err != nil {
			return nil, true, err
		}
		return call("array_distinct", args[0]), true, nil
	case "mvfind":
		// The 0-based index of the first element matching a regular
		// expression, NULL when none does.
		if err := argc(2, 2); err != nil {
			return nil, true, err
		}
		match := &sql.Lambda{At: at, Params: []string{"__mv_x"},
			Body: &sql.Like{At: at, Op: sql.OpRLike, X: str(ref("__mv_x")), Pattern: args[1]}}
		pos := call("array_position", call("transform", args[0], match), &sql.Literal{At: at, Kind: sql.LitBool, Value: "TRUE"})
		return call("nullif", bin(sql.OpSub, pos, num("1")), num("-1")), true, nil
	case "mvindex":
		// 0-based; negative counts from the end; mvindex(a, s, e) is the
		// elements s..e, both included.
		if err := argc(2, 3); err != nil {
			return nil, true, err
		}
		a := args[0]
		fromEnd := func(i sql.Expr) sql.Expr {
			return &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: bin(sql.OpLt, i, num("0")),
				Then: bin(sql.OpAdd, call("array_size", a), i)}}, Else: i}
		}
		if len(args) == 2 {
			return call("try_element_at", a, bin(sql.OpAdd, fromEnd(args[1]), num("1"))), true, nil
		}
		s, e := call("greatest", fromEnd(args[1]), num("0")), fromEnd(args[2])
		return call("slice", a, bin(sql.OpAdd, s, num("1")),
			call("greatest", bin(sql.OpAdd, bin(sql.OpSub, e, s), num("1")), num("0"))), true, nil
	case "mvmap":
		// mvmap(f, expr-of-f): expr with f standing for each element, a
		// lambda whose parameter is f's name.
		if err := argc(2, 2); err != nil {
			return nil, true, err
		}
		r, isRef := args[0].(*sql.ColumnRef)
		if !isRef || len(r.Parts) != 1 {
			return nil, true, syntaxErr(at, "mvmap: the first argument must be a field name")
		}
		return call("transform", args[0], &sql.Lambda{At: at, Params: []string{r.Parts[0]}, Body: args[1]}), true, nil
	case "mvzip":
		// Pairs joined by the delimiter (default ","), as many as the
		// shorter array has; zip_with pads to the longer.
		if err := argc(2, 3); err != nil {
			return nil, true, err
		}
		sep := sql.Expr(&sql.Literal{At: at, Kind: sql.LitString, Value: ","})
		if len(args) == 3 {
			sep = args[2]
		}
		join := &sql.Lambda{At: at, Params: []string{"__mv_l", "__mv_r"},
			Body: call("concat", str(ref("__mv_l")), sep, str(ref("__mv_r")))}
		return call("slice", call("zip_with", args[0], args[1], join), num("1"),
			call("least", call("array_size", args[0]), call("array_size", args[1]))), true, nil
	}
	return nil, false, nil
}
