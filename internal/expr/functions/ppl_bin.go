package functions

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sluice/internal/types"
)

// ppl_bin('kind', x, ...) is one bucket of PPL's bin command as
// OpenSearch's binning functions compute it (WidthBucketFunction,
// MinspanBucketFunction, RangeBucketFunction, the default and log
// handlers); the translation supplies the data's range from windows:
//
//	ppl_bin('num', x)                          x as a DOUBLE (text read as a number)
//	ppl_bin('bins', x, bins, max - min, max)   the "lo-hi" of bins= (nice widths, powers of 10)
//	ppl_bin('minspan', x, minspan, max - min)  minspan=
//	ppl_bin('range', x, min, max, start, end)  start=/end= (start, end may be NULL)
//	ppl_bin('default', x, max - min)           bin without options
//	ppl_bin('log', x, coefficient, base)       span=[c]log<b>
//
// A time field is refused: these options bin numbers (text holding one).
func bindPPLBin(args []Arg) (*Bound, error) {
	kind, ok := args[0].Value.(string)
	if !args[0].Const || !ok {
		return nil, fmt.Errorf("ppl_bin: the kind must be a constant string")
	}
	want, ok := map[string]int{"num": 2, "bins": 5, "minspan": 4, "range": 6, "default": 3, "log": 4}[kind]
	if !ok {
		return nil, fmt.Errorf("ppl_bin: unknown kind %q", kind)
	}
	if len(args) != want {
		return nil, fmt.Errorf("ppl_bin('%s') takes %d arguments, got %d", kind, want, len(args))
	}
	t := types.Normalize(args[1].Type)
	text := types.IsString(t)
	if types.IsTemporal(t) && (kind == "num" || kind == "default") {
		// A time: its epoch seconds (the windows' range), and for bin
		// without options OpenSearch's default, hourly buckets.
		if kind == "num" {
			return rowFn("ppl_bin", types.Double, ps(pAny, pTimestamp), func(v []any) (any, error) {
				return float64(v[1].(int64)) / 1e6, nil
			})(args)
		}
		return rowFn("ppl_bin", types.Timestamp, ps(pAny, pTimestamp, pAny), func(v []any) (any, error) {
			us := v[1].(int64)
			const hour = int64(3600e6)
			b := us / hour * hour
			if us < 0 && us%hour != 0 {
				b -= hour
			}
			return b, nil
		})(args)
	}
	if !text && !types.IsNumeric(t) && t.ID() != 0 {
		what := map[string]string{"num": "bin", "bins": "bin bins=", "minspan": "bin minspan=", "range": "bin start=/end=", "default": "bin without span=", "log": "bin span=log"}[kind]
		return nil, fmt.Errorf("%s needs a numeric field, not %s (a time field takes span=)", what, types.SQLName(t))
	}
	params := []param{pAny, pDouble}
	if text {
		params[1] = pString
	}
	num := func(v any) (float64, bool) {
		switch x := v.(type) {
		case float64:
			return x, true
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
		}
		return 0, false
	}
	if kind == "num" {
		return rowFn("ppl_bin", types.Double, params, func(v []any) (any, error) {
			if f, ok := num(v[1]); ok {
				return f, nil
			}
			return nil, nil
		})(args)
	}
	params = append(params, pDouble)
	return rowFnNulls("ppl_bin", types.String, params, func(v []any) (any, error) {
		x, ok := num(v[1])
		if !ok {
			return nil, nil
		}
		p := make([]float64, len(v)-2)
		for i := range p {
			f, ok := v[i+2].(float64)
			if !ok {
				if kind != "range" || i < 2 {
					return nil, nil
				}
				f = math.NaN() // start or end absent
			}
			p[i] = f
		}
		switch kind {
		case "bins":
			return binWidthBucket(x, int(p[0]), p[1], p[2]), nil
		case "minspan":
			return binMinspanBucket(x, p[0], p[1]), nil
		case "range":
			return binRangeBucket(x, p[0], p[1], p[2], p[3]), nil
		case "default":
			return binDefaultBucket(x, p[0]), nil
		default:
			return binLogBucket(x, p[0], p[1]), nil
		}
	})(args)
}

// binWidthBucket is bins=: the width a power of ten, one more magnitude
// when the bins it gives exceed the count asked for.
func binWidthBucket(x float64, bins int, span, max float64) any {
	if bins < 2 || bins > 50000 || span <= 0 {
		return nil
	}
	exp := math.Ceil(math.Log10(span / float64(bins)))
	w := math.Pow(10, exp)
	n := math.Ceil(span / w)
	if math.Mod(max, w) == 0 {
		n++
	}
	if n > float64(bins) {
		w = math.Pow(10, exp+1)
	}
	lo := math.Floor(x/w) * w
	return binRange(lo, lo+w, w)
}

// binMinspanBucket is minspan=: the range's magnitude when it is at
// least minspan, else minspan rounded up to a power of ten.
func binMinspanBucket(x, minspan, span float64) any {
	if minspan <= 0 || span <= 0 {
		return nil
	}
	w := math.Pow(10, math.Floor(math.Log10(span)))
	if w < minspan {
		w = math.Pow(10, math.Ceil(math.Log10(minspan)))
	}
	lo := math.Floor(x/w) * w
	return binRange(lo, lo+w, w)
}

// binRangeBucket is start=/end=: they widen the data's range (never
// narrow it), whose magnitude is the width (a tenth of it for an exact
// power of ten).
func binRangeBucket(x, dmin, dmax, start, end float64) any {
	lo, hi := dmin, dmax
	if !math.IsNaN(start) {
		lo = math.Min(start, dmin)
	}
	if !math.IsNaN(end) {
		hi = math.Max(end, dmax)
	}
	r := hi - lo
	if r <= 0 {
		return nil
	}
	l := math.Log10(r)
	m := math.Floor(l)
	if math.Abs(l-m) < 1e-10 {
		m--
	}
	w := math.Pow(10, m)
	first := math.Floor(lo/w) * w
	b := math.Floor((x-first)/w)*w + first
	return binRange(b, b+w, w)
}

// binDefaultBucket is bin without options: the range's magnitude as the
// width, the bounds printed as doubles ("32.0-33.0"), as OpenSearch's
// cast to VARCHAR prints them.
func binDefaultBucket(x, span float64) any {
	if span <= 0 {
		return nil
	}
	w := math.Floor(math.Pow(10, math.Floor(math.Log10(span))))
	lo := math.Floor(x/w) * w
	return javaDouble(lo) + "-" + javaDouble(lo+w)
}

// binLogBucket is span=[c]log<b>: c*b^k up to c*b^(k+1) for the k with
// x/c in [b^k, b^(k+1)); "Invalid" for x <= 0.
func binLogBucket(x, coef, base float64) any {
	if x <= 0 {
		return "Invalid"
	}
	k := math.Floor(math.Log(x/coef) / math.Log(base))
	return javaDouble(coef*math.Pow(base, k)) + "-" + javaDouble(coef*math.Pow(base, k+1))
}

// binRange prints a bucket as OpenSearch's binning functions do: whole
// numbers for a whole width, else decimals by the width's size.
func binRange(lo, hi, w float64) string {
	whole := func(v float64) bool { return math.Abs(v-math.Round(v)) < 1e-10 }
	if w == math.Floor(w) && !math.IsInf(w, 0) && whole(lo) && whole(hi) {
		return fmt.Sprintf("%d-%d", int64(lo), int64(hi))
	}
	d := 4
	switch {
	case w >= 1:
		d = 1
	case w >= 0.1:
		d = 2
	case w >= 0.01:
		d = 3
	}
	return fmt.Sprintf("%.*f-%.*f", d, lo, d, hi)
}

// javaDouble prints f as Java's Double.toString: plain with at least one
// decimal between 1e-3 and 1e7, else d.dddE±n.
func javaDouble(f float64) string {
	a := math.Abs(f)
	if a == 0 || (a >= 1e-3 && a < 1e7) {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "E" + sign + strings.TrimLeft(exp[1:], "0")
}
