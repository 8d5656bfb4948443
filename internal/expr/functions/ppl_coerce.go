package functions

import (
	"context"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_plus, ppl_minus, ppl_times, ppl_divide, ppl_mod and ppl_compare
// are PPL's operators where a string meets a number (conversion.md's
// implicit conversion): the string is read as a DOUBLE ("5" / 10 is
// 0.5, "1000" > 999.9 is TRUE; text that is no number gives NULL), and
// two strings joined by + are concatenated ("5" + "5" is "55"). Other
// operands take the SQL operator. The PPL front end writes them only
// where an operand is a string literal, so plans elsewhere keep the
// operators.

func pplNumericPair(args []Arg) bool {
	str := types.IsString(args[0].Type) || types.IsString(args[1].Type)
	num := types.IsNumeric(args[0].Type) || types.IsNumeric(args[1].Type)
	return str && num
}

func pplReadDouble(x any) any {
	switch v := x.(type) {
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return nil
		}
		return f
	case int64:
		return float64(v)
	}
	return x
}

func pplDoubleParams(args []Arg) []param {
	ps := make([]param, len(args))
	for i, a := range args {
		ps[i] = pDouble
		if types.IsString(a.Type) {
			ps[i] = pString
		}
	}
	return ps
}

func bindPPLArith(op string) Binder {
	fn := map[string]string{"+": "ppl_plus", "-": "ppl_minus", "*": "ppl_times", "/": "ppl_divide", "%": "ppl_mod"}[op]
	return func(args []Arg) (*Bound, error) {
		both := types.IsString(args[0].Type) && types.IsString(args[1].Type)
		if both && op == "+" {
			return bindConcat(args)
		}
		if !both && !pplNumericPair(args) {
			return bindArith(op)(args)
		}
		return rowFn(fn, types.Double, pplDoubleParams(args), func(v []any) (any, error) {
			a, b := pplReadDouble(v[0]), pplReadDouble(v[1])
			if a == nil || b == nil {
				return nil, nil
			}
			x, y := a.(float64), b.(float64)
			switch op {
			case "+":
				return x + y, nil
			case "-":
				return x - y, nil
			case "*":
				return x * y, nil
			case "/":
				if y == 0 {
					return nil, nil
				}
				return x / y, nil
			}
			if y == 0 {
				return nil, nil
			}
			return x - y*float64(int64(x/y)), nil
		})(args)
	}
}

// ppl_compare('op', a, b): a op b, a string beside a number read as a
// DOUBLE.
func bindPPLCompare(args []Arg) (*Bound, error) {
	op, _ := args[0].Value.(string)
	rest := args[1:]
	if !pplNumericPair(rest) {
		b, err := bindCompare(op)(rest)
		if err != nil {
			return nil, err
		}
		return dropFirstArg(b), nil
	}
	return rowFn("ppl_compare", types.Boolean, append([]param{pString}, pplDoubleParams(rest)...), func(v []any) (any, error) {
		a, b := pplReadDouble(v[1]), pplReadDouble(v[2])
		if a == nil || b == nil {
			return nil, nil
		}
		x, y := a.(float64), b.(float64)
		switch op {
		case "=":
			return x == y, nil
		case "<>":
			return x != y, nil
		case "<":
			return x < y, nil
		case "<=":
			return x <= y, nil
		case ">":
			return x > y, nil
		}
		return x >= y, nil
	})(args)
}

// dropFirstArg adapts a Bound for (a, b) to calls (op, a, b).
func dropFirstArg(b *Bound) *Bound {
	casts := []arrow.DataType{nil}
	if b.Casts != nil {
		casts = append(casts, b.Casts...)
	} else {
		casts = append(casts, nil, nil)
	}
	eval := b.Eval
	return &Bound{Type: b.Type, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		return eval(ctx, n, args[1:])
	}}
}
