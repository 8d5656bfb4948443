package functions_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestBitwiseOverColumns(t *testing.T) {
	c, batch := column(t, types.Int, int32(6), nil, int32(-8), int32(1))
	for _, tc := range []struct {
		name string
		arg  int64
		typ  arrow.DataType
		want string
	}{
		{"&", 3, types.BigInt, "[2 <nil> 0 1]"},
		{"|", 1, types.BigInt, "[7 <nil> -7 1]"},
		{"^", 5, types.BigInt, "[3 <nil> -3 4]"},
		{"<<", 30, types.Int, "[-2147483648 <nil> 0 1073741824]"},
		{">>", 1, types.Int, "[3 <nil> -4 0]"},
		{">>>", 28, types.Int, "[0 <nil> 15 0]"},
		{"div", 4, types.BigInt, "[1 <nil> -2 0]"},
	} {
		// The literal is BIGINT: & | ^ widen to it, shifts keep the INT
		// column's type, DIV is always BIGINT.
		got, typ, err := call(t, batch, tc.name, c, I(tc.arg))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fmt.Sprint(got) != tc.want || !arrow.TypeEqual(typ, tc.typ) {
			t.Errorf("c %s %d = %v (%s), want %s (%s)", tc.name, tc.arg, got, types.SQLName(typ), tc.want, types.SQLName(tc.typ))
		}
	}
	got, typ, err := call(t, batch, "~", c)
	if err != nil || fmt.Sprint(got) != "[-7 <nil> 7 -2]" || !arrow.TypeEqual(typ, types.Int) {
		t.Errorf("~c = %v (%v), %v", got, typ, err)
	}
}

func TestIntDivErrors(t *testing.T) {
	runScalar(t, []scalarCase{
		{name: "div", args: []expr.Expr{I(7), I(0)}, err: "division by zero"},
		{name: "div", args: []expr.Expr{I(-9223372036854775808), I(-1)}, err: "does not fit in BIGINT"},
		{name: "div", args: []expr.Expr{F(1.5), I(1)}, err: "DIV needs integer or DECIMAL operands"},
		{name: "&", args: []expr.Expr{S("a"), I(1)}, err: "needs integer operands"},
		{name: "~", args: []expr.Expr{F(1)}, err: "needs an integer operand"},
	})
}
