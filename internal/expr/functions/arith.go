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
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// Arithmetic operators follow Spark 4's ANSI mode (ansi.go): integer
// overflow and division or modulo by zero are errors, `/` on integers
// gives DOUBLE, DECIMAL results take Spark's precision and scale (an
// error when a result does not fit). The try_ variants give NULL
// instead of those errors.

type num interface{ int32 | int64 | float64 }

func applyErr(op string, a, b arrow.DataType) error {
	return fmt.Errorf("cannot apply '%s' to %s and %s", op, sqlName(a), sqlName(b))
}

// numericOrNull reports a number or an untyped NULL.
func numericOrNull(t arrow.DataType) bool { return t.ID() == arrow.NULL || types.IsNumeric(t) }

func bindArith(op string) Binder { return bindArithMode(op, false) }

// bindTryArith is try_add, try_subtract, ...: NULL where the operator
// would fail.
func bindTryArith(op string) Binder { return bindArithMode(op, true) }

func bindArithMode(op string, try bool) Binder {
	return func(args []Arg) (*Bound, error) {
		a, b := types.Normalize(args[0].Type), types.Normalize(args[1].Type)
		if op == "+" || op == "-" {
			if bd, ok, err := bindTemporalArith(op, try, args, a, b); ok || err != nil {
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
			return bindDecimalArith(op, try, a, b)
		}
		if op == "/" {
			t = types.Double
		}
		casts := []arrow.DataType{t, t}
		var k Kernel
		switch t.ID() {
		case arrow.INT32:
			k = numKernel(op, t, try, i32s)
		case arrow.INT64:
			k = numKernel(op, t, try, i64s)
		default:
			k = numKernel(op, t, try, f64s)
		}
		return &Bound{Type: t, Casts: casts, Eval: k}, nil
	}
}

func numKernel[T num](op string, t arrow.DataType, try bool, vals func(arrow.Array) []T) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		a, b := vals(args[0])[:n], vals(args[1])[:n]
		out := make([]T, n)
		valid, _ := validityAnd(n, args[0], args[1])
		var err error
		switch op {
		case "+", "-", "*":
			valid, err = checkedBinary(op, t, try, out, a, b, valid)
		case "/":
			if b, valid, err = safeDivisors(op, try, a, b, valid); err == nil {
				for i := range out {
					out[i] = a[i] / b[i]
				}
			}
		case "%":
			if b, valid, err = safeDivisors(op, try, a, b, valid); err == nil {
				modInto(out, a, b)
			}
		}
		if err != nil {
			return nil, err
		}
		return fixedArray(t, out, valid), nil
	}
}

// modInto stores a % b (b has no zeros) with the sign of a, as Spark and
// Go agree; math.MinInt64 % -1 is 0 in Go, no trap.
func modInto[T num](out, a, b []T) {
	switch o := any(out).(type) {
	case []int64:
		x, y := any(a).([]int64), any(b).([]int64)
		for i := range o {
			o[i] = x[i] % y[i]
		}
	case []int32:
		x, y := any(a).([]int32), any(b).([]int32)
		for i := range o {
			o[i] = x[i] % y[i]
		}
	default:
		for i := range out {
			out[i] = mod(a[i], b[i])
		}
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

func bindDecimalArith(op string, try bool, a, b arrow.DataType) (*Bound, error) {
	if a.ID() == arrow.NULL {
		a = b
	}
	if b.ID() == arrow.NULL {
		b = a
	}
	da, db := asDecimal(a), asDecimal(b)
	p, s := decimalResult(op, da.Precision, da.Scale, db.Precision, db.Scale)
	rt := types.Decimal(p, s)
	sc := max(da.Scale, db.Scale)
	// Rescaled to the common scale, each operand still fits 128 bits
	// (10^38 < 2^127) unless its digits grow past 38; then big.Int does it.
	narrow := da.Precision+sc-da.Scale <= 38 && db.Precision+sc-db.Scale <= 38
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
				if (op == "%") && y[i].Sign() == 0 {
					if try {
						bitutil.ClearBit(vb, i)
						continue
					}
					valid.Release()
					return nil, divZeroErr(op, x[i].ToString(da.Scale))
				}
				if narrow {
					u := x[i].IncreaseScaleBy(sc - da.Scale)
					v := y[i].IncreaseScaleBy(sc - db.Scale)
					switch op {
					case "+":
						r = u.Add(v)
					case "-":
						r = u.Sub(v)
					default:
						_, r = u.Div(v)
					}
					// A capped precision may have taken scale away.
					r = rescaleRound(r, sc, s)
					break
				}
				bx.Mul(x[i].BigInt(), new(big.Int).Exp(&ten, big.NewInt(int64(sc-da.Scale)), nil))
				by.Mul(y[i].BigInt(), new(big.Int).Exp(&ten, big.NewInt(int64(sc-db.Scale)), nil))
				switch op {
				case "+":
					bz.Add(&bx, &by)
				case "-":
					bz.Sub(&bx, &by)
				default:
					bz.Rem(&bx, &by)
				}
				r, ok = fromBig(&bz, sc, s)
			case "*":
				bz.Mul(x[i].BigInt(), y[i].BigInt())
				r, ok = fromBig(&bz, da.Scale+db.Scale, s)
			case "/":
				if y[i].Sign() == 0 {
					if try {
						bitutil.ClearBit(vb, i)
						continue
					}
					valid.Release()
					return nil, divZeroErr(op, x[i].ToString(da.Scale))
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
				if try {
					bitutil.ClearBit(vb, i)
					continue
				}
				valid.Release()
				return nil, fitErr(op, x[i].ToString(da.Scale), y[i].ToString(db.Scale), rt)
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
// when neither side is temporal. Results past their type's range are
// errors too (NULL with try): a TIMESTAMP difference is held in
// nanoseconds, which span 292 years.
func bindTemporalArith(op string, try bool, args []Arg, a, b arrow.DataType) (*Bound, bool, error) {
	ia, ib := a.ID(), b.ID()
	isIv := func(id arrow.Type) bool { return id == arrow.INTERVAL_MONTH_DAY_NANO }
	switch {
	case (ia == arrow.TIMESTAMP || ia == arrow.STRING) && isIv(ib), op == "+" && isIv(ia) && ib == arrow.TIMESTAMP:
		tsFirst := !isIv(ia)
		casts := []arrow.DataType{types.Timestamp, types.Interval}
		if !tsFirst {
			casts = []arrow.DataType{types.Interval, types.Timestamp}
		}
		return &Bound{Type: types.Timestamp, Casts: casts, Eval: tsIntervalKernel(op, try, tsFirst)}, true, nil
	case ia == arrow.DATE32 && isIv(ib):
		if args[1].Const {
			if iv, ok := args[1].Value.(arrow.MonthDayNanoInterval); ok && iv.Nanoseconds == 0 {
				return &Bound{Type: types.Date, Casts: []arrow.DataType{types.Date, types.Interval}, Eval: dateIntervalKernel(op, try)}, true, nil
			}
		}
		return &Bound{Type: types.Timestamp, Casts: []arrow.DataType{types.Timestamp, types.Interval}, Eval: tsIntervalKernel(op, try, true)}, true, nil
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
			out := make([]int32, n)
			var ov bool
			if op == "+" {
				ov = addI32(out, d[:n], k[:n])
			} else {
				ov = subI32(out, d[:n], k[:n])
			}
			valid, _ := validityAnd(n, args...)
			if ov {
				var err error
				if valid, err = badRows(n, valid, try, func(i int) error {
					if _, ok := exactOp(op, d[i], k[i]); !ok {
						return fitErr(op, types.FormatDate(d[i]), k[i], types.Date)
					}
					return nil
				}); err != nil {
					return nil, err
				}
			}
			return fixedArray(types.Date, arrow.GetData[arrow.Date32](arrow.GetBytes(out)), valid), nil
		}}, true, nil
	case op == "-" && types.IsTemporal(a) && types.IsTemporal(b):
		if ia == arrow.DATE32 && ib == arrow.DATE32 {
			return &Bound{Type: types.Int, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
				x, y := i32s(args[0]), i32s(args[1])
				out := make([]int32, n)
				ov := subI32(out, x[:n], y[:n])
				valid, _ := validityAnd(n, args...)
				if ov {
					var err error
					if valid, err = badRows(n, valid, try, func(i int) error {
						if _, ok := exactOp(op, x[i], y[i]); !ok {
							return fitErr(op, types.FormatDate(x[i]), types.FormatDate(y[i]), types.Int)
						}
						return nil
					}); err != nil {
						return nil, err
					}
				}
				return fixedArray(types.Int, out, valid), nil
			}}, true, nil
		}
		return &Bound{Type: types.Interval, Casts: []arrow.DataType{types.Timestamp, types.Timestamp}, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x, y := i64s(args[0]), i64s(args[1])
			out := make([]arrow.MonthDayNanoInterval, n)
			valid, _ := validityAnd(n, args...)
			bad := false
			for i := range out {
				d, ok := exactOp("-", x[i], y[i])
				ns, ok2 := exactOp("*", d, 1000)
				bad = bad || !(ok && ok2)
				out[i] = arrow.MonthDayNanoInterval{Nanoseconds: ns}
			}
			if bad {
				var err error
				if valid, err = badRows(n, valid, try, func(i int) error {
					d, ok := exactOp("-", x[i], y[i])
					if _, ok2 := exactOp("*", d, 1000); !ok || !ok2 {
						return fitErr(op, types.FormatTimestamp(x[i]), types.FormatTimestamp(y[i]), types.Interval)
					}
					return nil
				}); err != nil {
					return nil, err
				}
			}
			return fixedArray(types.Interval, out, valid), nil
		}}, true, nil
	case isIv(ia) && isIv(ib):
		return &Bound{Type: types.Interval, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			x := args[0].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			y := args[1].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			out := make([]arrow.MonthDayNanoInterval, n)
			valid, _ := validityAnd(n, args...)
			bad := false
			for i := range out {
				var ok bool
				out[i], ok = addIntervals(op, x[i], y[i])
				bad = bad || !ok
			}
			if bad {
				var err error
				if valid, err = badRows(n, valid, try, func(i int) error {
					if _, ok := addIntervals(op, x[i], y[i]); !ok {
						return fitErr(op, types.FormatInterval(x[i]), types.FormatInterval(y[i]), types.Interval)
					}
					return nil
				}); err != nil {
					return nil, err
				}
			}
			return fixedArray(types.Interval, out, valid), nil
		}}, true, nil
	case types.IsTemporal(a) || types.IsTemporal(b) || isIv(ia) || isIv(ib):
		return nil, true, applyErr(op, a, b)
	}
	return nil, false, nil
}

// addIntervals is x op y field by field; ok is false when a field
// overflows.
func addIntervals(op string, x, y arrow.MonthDayNanoInterval) (arrow.MonthDayNanoInterval, bool) {
	m, ok1 := exactOp(op, x.Months, y.Months)
	d, ok2 := exactOp(op, x.Days, y.Days)
	ns, ok3 := exactOp(op, x.Nanoseconds, y.Nanoseconds)
	return arrow.MonthDayNanoInterval{Months: m, Days: d, Nanoseconds: ns}, ok1 && ok2 && ok3
}

func negInterval(v arrow.MonthDayNanoInterval) arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Months: -v.Months, Days: -v.Days, Nanoseconds: -v.Nanoseconds}
}

func tsIntervalKernel(op string, try bool, tsFirst bool) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		ts, ivArr := args[0], args[1]
		if !tsFirst {
			ts, ivArr = ivArr, ts
		}
		x := i64s(ts)
		iv := ivArr.(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
		out := make([]arrow.Timestamp, n)
		valid, _ := validityAnd(n, args...)
		bad := false
		step := func(i int) (int64, bool) {
			v := iv[i]
			if op == "-" {
				v = negInterval(v)
			}
			return addInterval(x[i], v)
		}
		for i := range out {
			us, ok := step(i)
			bad = bad || !ok
			out[i] = arrow.Timestamp(us)
		}
		if bad {
			var err error
			if valid, err = badRows(n, valid, try, func(i int) error {
				if _, ok := step(i); !ok {
					return fitErr(op, types.FormatTimestamp(x[i]), types.FormatInterval(iv[i]), types.Timestamp)
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
		return fixedArray(types.Timestamp, out, valid), nil
	}
}

func dateIntervalKernel(op string, try bool) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		d := i32s(args[0])
		iv := args[1].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
		out := make([]arrow.Date32, n)
		valid, _ := validityAnd(n, args...)
		bad := false
		step := func(i int) (arrow.Date32, bool) {
			v := iv[i]
			if op == "-" {
				v = negInterval(v)
			}
			us, ok := addInterval(int64(d[i])*microsPerDay, v)
			days := floorDiv(us, microsPerDay)
			return arrow.Date32(days), ok && days >= math.MinInt32 && days <= math.MaxInt32
		}
		for i := range out {
			var ok bool
			out[i], ok = step(i)
			bad = bad || !ok
		}
		if bad {
			var err error
			if valid, err = badRows(n, valid, try, func(i int) error {
				if _, ok := step(i); !ok {
					return fitErr(op, types.FormatDate(d[i]), types.FormatInterval(iv[i]), types.Date)
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
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
			x := args[0].(*array.MonthDayNanoInterval).MonthDayNanoIntervalValues()
			bad := false
			for i, v := range x {
				var ok bool
				out[i], ok = addIntervals("-", arrow.MonthDayNanoInterval{}, v)
				bad = bad || !ok
			}
			valid, _ := validityAnd(n, args...)
			if bad {
				if err := firstBad(n, valid, func(i int) error {
					if _, ok := addIntervals("-", arrow.MonthDayNanoInterval{}, x[i]); !ok {
						return overflowErr("-", fmt.Sprintf("-(%s) does not fit in %s", types.FormatInterval(x[i]), sqlName(t)))
					}
					return nil
				}); err != nil {
					return nil, err
				}
			}
			return fixedArray(t, out, valid), nil
		}}, nil
	}
	return nil, fmt.Errorf("cannot apply '-' to %s", sqlName(t))
}

func negKernel[T num](t arrow.DataType, vals func(arrow.Array) []T) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		x := vals(args[0])[:n]
		out := make([]T, n)
		valid, _ := validityAnd(n, args...)
		if ov := negInto(out, x); ov {
			if err := firstBad(n, valid, func(i int) error {
				if x[i] != 0 && x[i] == out[i] {
					return overflowErr("-", fmt.Sprintf("-(%v) does not fit in %s", x[i], sqlName(t)))
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
		return fixedArray(t, out, valid), nil
	}
}

// negInto stores -x; only the smallest integer overflows, being its own
// negation, and it is the one value whose sign survives negating.
func negInto[T num](out, x []T) bool {
	switch o := any(out).(type) {
	case []int64:
		v := any(x).([]int64)
		var ov int64
		for i := range o {
			o[i] = -v[i]
			ov |= v[i] & o[i]
		}
		return ov < 0
	case []int32:
		v := any(x).([]int32)
		var ov int32
		for i := range o {
			o[i] = -v[i]
			ov |= v[i] & o[i]
		}
		return ov < 0
	}
	for i := range out {
		out[i] = -x[i]
	}
	return false
}

// firstBad returns the error of the first valid row check rejects;
// valid is left as it was.
func firstBad(n int, valid *memory.Buffer, check func(i int) error) error {
	_, err := badRows(n, valid, false, check)
	return err
}

// addInterval adds iv to a TIMESTAMP; ok is false when the result is
// past the range of TIMESTAMP. Months clamp to the end of the month as
// Spark does (2024-03-31 - 1 month = 2024-02-29).
func addInterval(us int64, iv arrow.MonthDayNanoInterval) (int64, bool) {
	ok := true
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
		// time.Time spans far more than int64 microseconds: check it fits.
		ok = t.Year() > -290000 && t.Year() < 290000
		us = t.UnixMicro()
	}
	if iv.Days != 0 {
		dus, ok1 := exactOp("*", int64(iv.Days), microsPerDay)
		var ok2 bool
		us, ok2 = exactOp("+", us, dus)
		ok = ok && ok1 && ok2
	}
	us, ok3 := exactOp("+", us, iv.Nanoseconds/1000)
	return us, ok && ok3
}
