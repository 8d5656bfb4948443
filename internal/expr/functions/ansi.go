package functions

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"sluice/internal/usererr"
)

// Sluice follows Spark 4's ANSI rules for arithmetic: a result that does
// not fit its type (9223372036854775807 + 1, abs of the smallest BIGINT,
// a DECIMAL past its precision) and a division by zero are errors, never
// a wrapped number or a silent NULL. The try_ functions (try_add,
// try_divide, try_sum, ...) give NULL for those rows instead.
//
// The checks run over whole arrays without a branch per row (the sign
// trick for add and subtract, a widening multiply for multiply); only an
// array that tripped one is scanned again to find its row, skipping rows
// that are NULL, whose slots hold whatever their producer left there.

// ArithError is one row's arithmetic with no exact result in its type.
// Kernels return it without Expr; expr.CallExpr and the aggregate
// operators fill Expr with the expression it happened in.
type ArithError struct {
	DivByZero bool
	// Detail is the operation on the row's values: "9223372036854775807
	// + 1 does not fit in BIGINT", "1 / 0".
	Detail string
	Expr   string
	// Try names the function that gives NULL instead, if there is one.
	Try string
}

var _ usererr.UserError = (*ArithError)(nil)

// UserErrorKind: the row's values, not the engine, have no result.
func (e *ArithError) UserErrorKind() usererr.Kind { return usererr.Evaluation }

func (e *ArithError) Error() string {
	s := "arithmetic overflow"
	if e.DivByZero {
		s = "division by zero"
	}
	if e.Expr != "" {
		s += " in " + e.Expr
	}
	s += ": " + e.Detail
	if e.Try != "" {
		s += " (" + e.Try + " gives NULL instead)"
	}
	return s
}

// tryName is the try_ function of each checked operator.
var tryName = map[string]string{"+": "try_add", "-": "try_subtract", "*": "try_multiply", "/": "try_divide", "%": "try_mod", "sum": "try_sum", "avg": "try_avg"}

func overflowErr(op string, detail string) *ArithError {
	return &ArithError{Detail: detail, Try: tryName[op]}
}

func fitErr(op string, x, y any, t arrow.DataType) *ArithError {
	return overflowErr(op, fmt.Sprintf("%v %s %v does not fit in %s", x, op, y, sqlName(t)))
}

func divZeroErr(op string, x any) *ArithError {
	return &ArithError{DivByZero: true, Detail: fmt.Sprintf("%v %s 0", x, op), Try: tryName[op]}
}

// addI64 stores a+b in out and reports whether any element overflowed:
// a sum overflows exactly when it has the sign of neither operand.
func addI64(out, a, b []int64) bool {
	var ov int64
	for i := range out {
		r := a[i] + b[i]
		ov |= (a[i] ^ r) & (b[i] ^ r)
		out[i] = r
	}
	return ov < 0
}

// subI64: a difference overflows when the operands' signs differ and the
// result's sign is not a's.
func subI64(out, a, b []int64) bool {
	var ov int64
	for i := range out {
		r := a[i] - b[i]
		ov |= (a[i] ^ b[i]) & (a[i] ^ r)
		out[i] = r
	}
	return ov < 0
}

// mulI64: the 128-bit product's high word must be the sign extension of
// its low word. bits.Mul64 multiplies unsigned; subtracting each operand
// where the other is negative turns its high word into the signed one.
func mulI64(out, a, b []int64) bool {
	// Most data is small: when every operand's magnitude is below 2^31,
	// no product can reach 2^62, and one OR over both arrays proves it.
	var mag uint64
	for i := range out {
		mag |= uint64(a[i]^(a[i]>>63)) | uint64(b[i]^(b[i]>>63))
	}
	if mag < 1<<31 {
		for i := range out {
			out[i] = a[i] * b[i]
		}
		return false
	}
	var ov uint64
	for i := range out {
		x, y := a[i], b[i]
		hi, lo := bits.Mul64(uint64(x), uint64(y))
		hi -= uint64(x>>63)&uint64(y) + uint64(y>>63)&uint64(x)
		ov |= hi ^ uint64(int64(lo)>>63)
		out[i] = int64(lo)
	}
	return ov != 0
}

// The INT kernels compute in 64 bits: the result fits when narrowing it
// back changes nothing.
func addI32(out, a, b []int32) bool {
	var ov int64
	for i := range out {
		r := int64(a[i]) + int64(b[i])
		out[i] = int32(r)
		ov |= r ^ int64(out[i])
	}
	return ov != 0
}

func subI32(out, a, b []int32) bool {
	var ov int64
	for i := range out {
		r := int64(a[i]) - int64(b[i])
		out[i] = int32(r)
		ov |= r ^ int64(out[i])
	}
	return ov != 0
}

func mulI32(out, a, b []int32) bool {
	var ov int64
	for i := range out {
		r := int64(a[i]) * int64(b[i])
		out[i] = int32(r)
		ov |= r ^ int64(out[i])
	}
	return ov != 0
}

// exactOp is one element of op, and whether it fits T; the slow path
// that finds the rows a whole-array check flagged.
func exactOp[T num](op string, x, y T) (T, bool) {
	switch xv := any(x).(type) {
	case int64:
		yv := any(y).(int64)
		var r int64
		var ok bool
		switch op {
		case "+":
			r = xv + yv
			ok = (xv^r)&(yv^r) >= 0
		case "-":
			r = xv - yv
			ok = (xv^yv)&(xv^r) >= 0
		case "*":
			hi, lo := bits.Mul64(uint64(xv), uint64(yv))
			hi -= uint64(xv>>63)&uint64(yv) + uint64(yv>>63)&uint64(xv)
			r, ok = int64(lo), hi == uint64(int64(lo)>>63)
		}
		return T(r), ok
	case int32:
		a, b := int64(xv), int64(any(y).(int32))
		var r int64
		switch op {
		case "+":
			r = a + b
		case "-":
			r = a - b
		case "*":
			r = a * b
		}
		return T(r), r >= math.MinInt32 && r <= math.MaxInt32
	}
	switch op {
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	}
	return x * y, true
}

// checkedBinary computes out = a op b for + - * and returns the validity
// of the result: with try, rows that overflow become NULL; without, the
// first valid row that overflows is an error.
func checkedBinary[T num](op string, t arrow.DataType, try bool, out, a, b []T, valid *memory.Buffer) (*memory.Buffer, error) {
	var ov bool
	switch o := any(out).(type) {
	case []int64:
		x, y := any(a).([]int64), any(b).([]int64)
		switch op {
		case "+":
			ov = addI64(o, x, y)
		case "-":
			ov = subI64(o, x, y)
		default:
			ov = mulI64(o, x, y)
		}
	case []int32:
		x, y := any(a).([]int32), any(b).([]int32)
		switch op {
		case "+":
			ov = addI32(o, x, y)
		case "-":
			ov = subI32(o, x, y)
		default:
			ov = mulI32(o, x, y)
		}
	default:
		switch op {
		case "+":
			for i := range out {
				out[i] = a[i] + b[i]
			}
		case "-":
			for i := range out {
				out[i] = a[i] - b[i]
			}
		default:
			for i := range out {
				out[i] = a[i] * b[i]
			}
		}
	}
	if !ov {
		return valid, nil
	}
	return badRows(len(out), valid, try, func(i int) error {
		if _, ok := exactOp(op, a[i], b[i]); !ok {
			return fitErr(op, a[i], b[i], t)
		}
		return nil
	})
}

// badRows visits the valid rows with check: with try, a row check
// rejects becomes NULL (valid, allocated when nil, has its bit
// cleared); without, the first rejected row's error is returned and
// valid is not changed.
func badRows(n int, valid *memory.Buffer, try bool, check func(i int) error) (*memory.Buffer, error) {
	var vb []byte
	if valid != nil {
		vb = valid.Bytes()
	}
	for i := 0; i < n; i++ {
		if vb != nil && !bitutil.BitIsSet(vb, i) {
			continue
		}
		if err := check(i); err != nil {
			if !try {
				return nil, err
			}
			if vb == nil {
				valid = newValidity(n)
				vb = valid.Bytes()
			}
			bitutil.ClearBit(vb, i)
		}
	}
	return valid, nil
}

// hasZero reports whether any divisor is zero, without a branch per row.
func hasZero[T num](b []T) bool {
	var z byte
	for _, v := range b {
		z |= b2u(v == 0)
	}
	return z != 0
}

// safeDivisors handles zero divisors before a division runs: a valid
// row dividing by zero is an error (NULL with try); every zero, NULL
// rows' included, is replaced by 1 in the returned copy so that the
// division loop needs no test and integer division cannot panic.
func safeDivisors[T num](op string, try bool, a, b []T, valid *memory.Buffer) ([]T, *memory.Buffer, error) {
	if !hasZero(b) {
		return b, valid, nil
	}
	valid, err := badRows(len(b), valid, try, func(i int) error {
		if b[i] == 0 {
			return divZeroErr(op, a[i])
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	nb := make([]T, len(b))
	for i, v := range b {
		if v == 0 {
			v = 1
		}
		nb[i] = v
	}
	return nb, valid, nil
}
