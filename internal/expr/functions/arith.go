package functions

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"sluice/internal/types"
)

// Arithmetic operators follow Spark's non-ANSI mode: integer overflow
// wraps, `/` on integers gives DOUBLE, division or modulo by zero gives
// NULL, DECIMAL results take Spark's precision and scale (NULL when a
// result does not fit).

type num interface{ int32 | int64 | float64 }

func applyErr(op string, a, b arrow.DataType) error {
	return fmt.Errorf("cannot apply '%s' to %s and %s", op, sqlName(a), sqlName(b))
}

// numericOrNull reports a number or an untyped NULL.
func numericOrNull(t arrow.DataType) bool { return t.ID() == arrow.NULL || types.IsNumeric(t) }

func bindArith(op string) Binder {
	return func(args []Arg) (*Bound, error) {
		a, b := types.Normalize(args[0].Type), types.Normalize(args[1].Type)
		if op == "+" || op == "-" {
			if bd, ok, err := bindTemporalArith(op, args, a, b); ok || err != nil {
				return bd, err
			}
		}
		if !numericOrNull(a) || !numericOrNull(b) {
			return nil, applyErr(op, a, b)
		}
		t, ok := types.Common(a, b)
		if !ok {
			return nil, applyErr(op, a, b)
		}
		if t.ID() == arrow.NULL {
			t = types.Int
		}
		if t.ID() == arrow.DECIMAL128 {
			return bindDecimalArith(op, a, b)
		}
		if op == "/" {
			t = types.Double
		}
		casts := []arrow.DataType{t, t}
		var k Kernel
		switch t.ID() {
		case arrow.INT32:
			k = numKernel(op, t, i32s)
		case arrow.INT64:
			k = numKernel(op, t, i64s)
		default:
			k = numKernel(op, t, f64s)
		}
		return &Bound{Type: t, Casts: casts, Eval: k}, nil
	}
}

func numKernel[T num](op string, t arrow.DataType, vals func(arrow.Array) []T) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		a, b := vals(args[0])[:n], vals(args[1])[:n]
		out := make([]T, n)
		valid, _ := validityAnd(n, args[0], args[1])
		switch op {
		case "+":
			for i := range out {
				out[i] = a[i] + b[i]
			}
		case "-":
			for i := range out {
				out[i] = a[i] - b[i]
			}
		case "*":
			for i := range out {
				out[i] = a[i] * b[i]
			}
		case "/", "%":
			valid = ensureValidity(valid, n)
			vb := valid.Bytes()
			for i := range out {
				if b[i] == 0 {
					bitutil.ClearBit(vb, i)
					continue
				}
				if op == "/" {
					out[i] = a[i] / b[i]
				} else {
					out[i] = mod(a[i], b[i])
				}
			}
		}
		return fixedArray(t, out, valid), nil
	}
}

func mod[T num](a, b T) T {
	switch any(a).(type) {
	case float64:
		return T(math.Mod(float64(a), float64(b)))
	case int32:
		return T(int32(a) % int32(b))
	}
	return T(int64(a) % int64(b))
}

// decimalResult gives Spark's result type for a DECIMAL operation.
func decimalResult(op string, p1, s1, p2, s2 int32) (int32, int32) {
	var p, s int32
	switch op {
	case "+", "-":
		s = max(s1, s2)
		p = max(p1-s1, p2-s2) + s + 1
	case "*":
		s = s1 + s2
		p = p1 + p2 + 1
	case "/":
		s = max(6, s1+p2+1)
		p = p1 - s1 + s2 + s
	case "%":
		s = max(s1, s2)
		p = min(p1-s1, p2-s2) + s
	}
	if p <= 38 {
		return p, s
	}
	intDigits := p - s
	s = max(38-intDigits, min(s, 6))
	return 38, s
}

func asDecimal(t arrow.DataType) *arrow.Decimal128Type {
	switch t.ID() {
	case arrow.DECIMAL128:
		return t.(*arrow.Decimal128Type)
	case arrow.INT64:
		return &arrow.Decimal128Type{Precision: 20, Scale: 0}
	default:
		return &arrow.Decimal128Type{Precision: 10, Scale: 0}
	}
}

func bindDecimalArith(op string, a, b arrow.DataType) (*Bound, error) {
	if a.ID() == arrow.NULL {
		a = b
	}
	if b.ID() == arrow.NULL {
		b = a
	}
	da, db := asDecimal(a), asDecimal(b)
	p, s := decimalResult(op, da.Precision, da.Scale, db.Precision, db.Scale)
	rt := types.Decimal(p, s)
	return &Bound{Type: rt, Casts: []arrow.DataType{da, db}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x, y := decs(args[0]), decs(args[1])
		out := make([]decimal128.Num, n)
		valid, _ := validityAnd(n, args[0], args[1])
		valid = ensureValidity(valid, n)
		vb := valid.Bytes()
		var bx, by, bz, ten big.Int
		ten.SetInt64(10)
		for i := 0; i < n; i++ {
			if !bitutil.BitIsSet(vb, i) {
				continue
			}
			var r decimal128.Num
			ok := true
			switch op {
			case "+", "-", "%":
				sc := max(da.Scale, db.Scale)
				u := x[i].IncreaseScaleBy(sc - da.Scale)
				v := y[i].IncreaseScaleBy(sc - db.Scale)
				switch op {
				case "+":
					r = u.Add(v)
				case "-":
					r = u.Sub(v)
				default:
					if v.Sign() == 0 {
						ok = false
					} else {
						_, r = u.Div(v)
						r = rescaleRound(r, sc, s)
					}
				}
			case "*":
				bz.Mul(x[i].BigInt(), y[i].BigInt())
				r, ok = fromBig(&bz, da.Scale+db.Scale, s)
			case "/":
				if y[i].Sign() == 0 {
					ok = false
					break
				}
				// x/y at scale s: x * 10^(s + sy - sx + 1) / y, then round the extra digit.
				shift := s + db.Scale - da.Scale + 1
				bx.Set(x[i].BigInt())
				if shift > 0 {
					bx.Mul(&bx, new(big.Int).Exp(&ten, big.NewInt(int64(shift)), nil))
				} else if shift < 0 {
					bx.Quo(&bx, new(big.Int).Exp(&ten, big.NewInt(int64(-shift)), nil))
				}
				by.Set(y[i].BigInt())
				bz.Quo(&bx, &by)
				r, ok = fromBig(&bz, s+1, s)
			}
			if !ok || !r.FitsInPrecision(p) {
				bitutil.ClearBit(vb, i)
				continue
			}
			out[i] = r
		}
		return fixedArray(rt, out, valid), nil
	}}, nil
}

func rescaleRound(v decimal128.Num, from, to int32) decimal128.Num {
	if from > to {
		return v.ReduceScaleBy(from-to, true)
	}
	return v.IncreaseScaleBy(to - from)
}

// fromBig converts an unscaled big integer at scale from to a Num at
// scale to, rounding half up; ok is false on overflow.
func fromBig(v *big.Int, from, to int32) (decimal128.Num, bool) {
	w := new(big.Int).Set(v)
	if from > to {
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(from-to)), nil)
		q, r := new(big.Int).QuoRem(w, div, new(big.Int))
		r.Abs(r).Mul(r, big.NewInt(2))
		if r.Cmp(div) >= 0 {
			if w.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		w = q
	} else if to > from {
		w.Mul(w, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(to-from)), nil))
	}
	if w.BitLen() > 126 {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(w), true
}

// bindTemporalArith handles date and timestamp arithmetic; ok is false
// when neither side is temporal.
func bindTemporalArith(op string, args []Arg, a, b arrow.DataType) (*Bound, bool, error) {
	ia, ib := a.ID(), b.ID()
	isIv := func(id arrow.Type) bool { return id == arrow.INTERVAL_MONTH_DAY_NANO }
	switch {
	case (ia == arrow.TIMESTAMP || ia == arrow.STRING) && isIv(ib), op == "+" && isIv(ia) && ib == arrow.TIMESTAMP:
		tsFirst := !isIv(ia)
		casts := []arrow.DataType{types.Timestamp, types.Interval}
		if !tsFirst {
			casts = []arrow.DataType{types.Interval, types.Timestamp}
		}
		return &Bound{Type: types.Timestamp, Casts: casts, Eval: tsIntervalKernel(op, tsFirst)}, true, nil
	case ia == arrow.DATE32 && isIv(ib):
		if args[1].Const {
			if iv, ok := args[1].Value.(arrow.MonthDayNanoInterval); ok && iv.Nanoseconds == 0 {
				return &Bound{Type: types.Date, Casts: []arrow.DataType{types.Date, types.Interval}, Eval: dateIntervalKernel(op)}, true, nil
			}
		}
		return &Bound{Type: types.Timestamp, Casts: []arrow.DataType{types.Timestamp, types.Interval}, Eval: tsIntervalKernel(op, true)}, true, nil
	case ia == arrow.DATE32 && types.IsInteger(b), op == "+" && types.IsInteger(a) && ib == arrow.DATE32:
		dateFirst := ia == arrow.DATE32
		casts := []arrow.DataType{types.Date, types.Int}
		if !dateFirst {
			casts = []arrow.DataType{types.Int, types.Date}
		}
		return &Bound{Type: types.Date, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			d, k := i32s(args[0]), i32s(args[1])
			if !dateFirst {
				d, k = k, d
			}
			out := make([]arrow.Date32, n)
			for i := range out {
				if op == "+" {
					out[i] = arrow.Date32(d[i] + k[i])
				} else {
					out[i] = arrow.Date32(d[i] - k[i])
				}
			}
			valid, _ := validityAnd(n, args...)
			return fixedArray(types.Date, out, valid), nil
		}}, true, nil
	case op == "-" && types.IsTemporal(a) && types.IsTemporal(b):
		if ia == arrow.DATE32 && ib == arrow.DATE32 {
			return &Bound{Type: types.Int, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				x, y := i32s(args[0]), i32s(args[1])
				out := make([]int32, n)
				for i := range out {
					out[i] = x[i] - y[i]
				}
				valid, _ := validityAnd(n, args...)
				return fixedArray(types.Int, out, valid), nil
			}}, true, nil
		}
		return &Bound{Type: types.Interval, Casts: []arrow.DataType{types.Timestamp, types.Timestamp}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x, y := i64s(args[0]), i64s(args[1])
			out := make([]arrow.MonthDayNanoInterval, n)
			for i := range out {
				out[i] = arrow.MonthDayNanoInterval{Nanoseconds: (x[i] - y[i]) * 1000}
			}
			valid, _ := validityAnd(n, args...)
			return fixedArray(types.Interval, out, valid), nil
		}}, true, nil
	case isIv(ia) && isIv(ib):
		return &Bound{Type: types.Interval, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := args[0].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			y := args[1].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			out := make([]arrow.MonthDayNanoInterval, n)
			for i := range out {
				v := y[i]
				if op == "-" {
					v = negInterval(v)
				}
				out[i] = arrow.MonthDayNanoInterval{Months: x[i].Months + v.Months, Days: x[i].Days + v.Days, Nanoseconds: x[i].Nanoseconds + v.Nanoseconds}
			}
			valid, _ := validityAnd(n, args...)
			return fixedArray(types.Interval, out, valid), nil
		}}, true, nil
	case types.IsTemporal(a) || types.IsTemporal(b) || isIv(ia) || isIv(ib):
		return nil, true, applyErr(op, a, b)
	}
	return nil, false, nil
}

func negInterval(v arrow.MonthDayNanoInterval) arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Months: -v.Months, Days: -v.Days, Nanoseconds: -v.Nanoseconds}
}

func tsIntervalKernel(op string, tsFirst bool) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		ts, ivArr := args[0], args[1]
		if !tsFirst {
			ts, ivArr = ivArr, ts
		}
		x := i64s(ts)
		iv := ivArr.(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
		out := make([]arrow.Timestamp, n)
		for i := range out {
			v := iv[i]
			if op == "-" {
				v = negInterval(v)
			}
			out[i] = arrow.Timestamp(addInterval(x[i], v))
		}
		valid, _ := validityAnd(n, args...)
		return fixedArray(types.Timestamp, out, valid), nil
	}
}

func dateIntervalKernel(op string) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		d := i32s(args[0])
		iv := args[1].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
		out := make([]arrow.Date32, n)
		for i := range out {
			v := iv[i]
			if op == "-" {
				v = negInterval(v)
			}
			us := addInterval(int64(d[i])*microsPerDay, v)
			out[i] = arrow.Date32(floorDiv(us, microsPerDay))
		}
		valid, _ := validityAnd(n, args...)
		return fixedArray(types.Date, out, valid), nil
	}
}

func bindNegate(args []Arg) (*Bound, error) {
	t := types.Normalize(args[0].Type)
	switch t.ID() {
	case arrow.NULL:
		t = types.Int
		fallthrough
	case arrow.INT32:
		return &Bound{Type: t, Casts: []arrow.DataType{t}, Eval: negKernel(t, i32s)}, nil
	case arrow.INT64:
		return &Bound{Type: t, Eval: negKernel(t, i64s)}, nil
	case arrow.FLOAT64:
		return &Bound{Type: t, Eval: negKernel(t, f64s)}, nil
	case arrow.DECIMAL128:
		return &Bound{Type: t, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			out := make([]decimal128.Num, n)
			for i, v := range decs(args[0]) {
				out[i] = v.Negate()
			}
			valid, _ := validityAnd(n, args...)
			return fixedArray(t, out, valid), nil
		}}, nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return &Bound{Type: t, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			out := make([]arrow.MonthDayNanoInterval, n)
			for i, v := range args[0].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues() {
				out[i] = negInterval(v)
			}
			valid, _ := validityAnd(n, args...)
			return fixedArray(t, out, valid), nil
		}}, nil
	}
	return nil, fmt.Errorf("cannot apply '-' to %s", sqlName(t))
}

func negKernel[T num](t arrow.DataType, vals func(arrow.Array) []T) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x := vals(args[0])
		out := make([]T, n)
		for i := range out {
			out[i] = -x[i]
		}
		valid, _ := validityAnd(n, args...)
		return fixedArray(t, out, valid), nil
	}
}

// addInterval adds iv to a TIMESTAMP. Months clamp to the end of the
// month as Spark does (2024-03-31 - 1 month = 2024-02-29).
func addInterval(us int64, iv arrow.MonthDayNanoInterval) int64 {
	if iv.Months != 0 {
		t := types.FromMicros(us)
		y, m, d := t.Date()
		mi := int(m) - 1 + int(iv.Months)
		y += mi / 12
		if mi %= 12; mi < 0 {
			mi += 12
			y--
		}
		if last := time.Date(y, time.Month(mi+2), 0, 0, 0, 0, 0, time.UTC).Day(); d > last {
			d = last
		}
		t = time.Date(y, time.Month(mi+1), d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
		us = t.UnixMicro()
	}
	if iv.Days != 0 {
		us += int64(iv.Days) * microsPerDay
	}
	return us + iv.Nanoseconds/1000
}
