package functions

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// Sluice compares strings byte-wise only, which is Spark's default
// collation.
var bindCollation = rowFn("collation", types.String, ps(pString), func(v []any) (any, error) {
	return "SYSTEM.BUILTIN.UTF8_BINARY", nil
})

// collate(s, name) marks s with a collation; Sluice compares strings by
// their UTF-8 bytes only, so UTF8_BINARY (optionally SYSTEM.BUILTIN.) is
// the one it takes, returning s unchanged, and any other is an error.
func bindCollate(args []Arg) (*Bound, error) {
	name, ok := constString(args[1])
	if !ok {
		return nil, fmt.Errorf("function collate expects a constant collation name")
	}
	if n := strings.TrimPrefix(strings.ToUpper(name), "SYSTEM.BUILTIN."); n != "UTF8_BINARY" {
		return nil, fmt.Errorf("collation %s is not supported: Sluice compares strings by their UTF-8 bytes (UTF8_BINARY)", name)
	}
	casts, err := coerceArgs("collate", args, pString, pString)
	if err != nil {
		return nil, err
	}
	return &Bound{Type: types.String, Casts: casts, Eval: func(_ context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		args[0].Retain()
		return args[0], nil
	}}, nil
}

var bindUnixNanos = rowFn("unix_nanos", types.Decimal(21, 0), ps(pTimestamp), func(v []any) (any, error) {
	return strconv.FormatInt(v[0].(int64), 10) + "000", nil
})

// make_interval(years, months, weeks, days, hours, mins, secs), each
// optional from the right; an overflow is an error, or NULL for the try_
// form.
func bindMakeInterval(try bool) Binder {
	return rowFn("make_interval", types.Interval, ps(pInt, pInt, pInt, pInt, pInt, pInt, pDouble), func(v []any) (any, error) {
		get := func(i int) int64 {
			if i < len(v) && i < 6 {
				return v[i].(int64)
			}
			return 0
		}
		secs := 0.0
		if len(v) == 7 {
			secs = v[6].(float64)
		}
		months := get(0)*12 + get(1)
		days := get(2)*7 + get(3)
		nanos := float64(get(4)*3600+get(5)*60)*1e9 + math.Round(secs*1e6)*1e3
		if months > math.MaxInt32 || months < math.MinInt32 || days > math.MaxInt32 || days < math.MinInt32 || math.Abs(nanos) > math.MaxInt64 {
			if try {
				return nil, nil
			}
			return nil, fmt.Errorf("interval overflow")
		}
		return arrow.MonthDayNanoInterval{Months: int32(months), Days: int32(days), Nanoseconds: int64(nanos)}, nil
	})
}

var bindMakeDTInterval = rowFn("make_dt_interval", types.Interval, ps(pInt, pInt, pInt, pDouble), func(v []any) (any, error) {
	get := func(i int) int64 {
		if i < len(v) && i < 3 {
			return v[i].(int64)
		}
		return 0
	}
	secs := 0.0
	if len(v) == 4 {
		secs = v[3].(float64)
	}
	if get(0) > math.MaxInt32 || get(0) < math.MinInt32 {
		return nil, fmt.Errorf("interval overflow")
	}
	return arrow.MonthDayNanoInterval{Days: int32(get(0)), Nanoseconds: (get(1)*3600+get(2)*60)*1e9 + int64(math.Round(secs*1e6))*1e3}, nil
})

var bindMakeYMInterval = rowFn("make_ym_interval", types.Interval, ps(pInt, pInt), func(v []any) (any, error) {
	m := int64(0)
	if len(v) > 0 {
		m = v[0].(int64) * 12
	}
	if len(v) > 1 {
		m += v[1].(int64)
	}
	if m > math.MaxInt32 || m < math.MinInt32 {
		return nil, fmt.Errorf("interval overflow")
	}
	return arrow.MonthDayNanoInterval{Months: int32(m)}, nil
})

// sentences(s): words per sentence; a sentence ends at . ! or ?, words
// are runs of letters, digits and apostrophes. The locale arguments are
// accepted and ignored.
var bindSentences = rowFn("sentences", types.Array(types.Array(types.String)), ps(pString), func(v []any) (any, error) {
	out := []any{}
	var cur []any
	var word strings.Builder
	flushWord := func() {
		if word.Len() > 0 {
			cur = append(cur, word.String())
			word.Reset()
		}
	}
	flushSentence := func() {
		flushWord()
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	for _, r := range v[0].(string) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'':
			word.WriteRune(r)
		case r == '.' || r == '!' || r == '?':
			flushSentence()
		default:
			flushWord()
		}
	}
	flushSentence()
	return out, nil
})

// numberFormat is a to_number / to_char pattern: digits 9 or 0, one . or
// D, , or G separators, an optional leading $ and S or MI sign.
type numberFormat struct {
	intDigits, fracDigits int
	dollar, sign, comma   bool
	signAtEnd             bool
}

func parseNumberFormat(f string) (numberFormat, error) {
	var nf numberFormat
	u := strings.ToUpper(f)
	u = strings.TrimPrefix(u, "S")
	if strings.HasSuffix(u, "MI") || strings.HasSuffix(u, "S") || strings.HasPrefix(strings.ToUpper(f), "S") {
		nf.sign = true
		nf.signAtEnd = !strings.HasPrefix(strings.ToUpper(f), "S")
		u = strings.TrimSuffix(strings.TrimSuffix(u, "MI"), "S")
	}
	if strings.HasPrefix(u, "$") {
		nf.dollar = true
		u = u[1:]
	}
	frac := false
	for _, c := range u {
		switch c {
		case '9', '0':
			if frac {
				nf.fracDigits++
			} else {
				nf.intDigits++
			}
		case '.', 'D':
			if frac {
				return nf, fmt.Errorf("invalid number format %q", f)
			}
			frac = true
		case ',', 'G':
			nf.comma = true
		default:
			return nf, fmt.Errorf("invalid number format %q", f)
		}
	}
	if nf.intDigits+nf.fracDigits == 0 {
		return nf, fmt.Errorf("invalid number format %q", f)
	}
	return nf, nil
}

// to_number(s, fmt) -> DECIMAL with the format's digits; text that does
// not match is an error (NULL for try_to_number).
func bindToNumber(try bool) Binder {
	return func(args []Arg) (*Bound, error) {
		f, ok := constString(args[1])
		if !ok {
			return nil, fmt.Errorf("function to_number expects a constant format")
		}
		nf, err := parseNumberFormat(f)
		if err != nil {
			return nil, err
		}
		rt := types.Decimal(int32(nf.intDigits+nf.fracDigits), int32(nf.fracDigits))
		return rowFn("to_number", rt, ps(pString, pString), func(v []any) (any, error) {
			s := strings.TrimSpace(v[0].(string))
			fail := func() (any, error) {
				if try {
					return nil, nil
				}
				return nil, fmt.Errorf("%q does not match format %q", v[0], f)
			}
			neg := false
			if nf.sign {
				switch {
				case strings.HasPrefix(s, "-"), strings.HasSuffix(s, "-"):
					neg, s = true, strings.Trim(s, "-")
				default:
					s = strings.Trim(s, "+")
				}
			}
			if nf.dollar {
				s = strings.TrimPrefix(s, "$")
			}
			if nf.comma {
				s = strings.ReplaceAll(s, ",", "")
			}
			ip, fp, _ := strings.Cut(s, ".")
			if len(ip) > nf.intDigits || len(fp) > nf.fracDigits || ip+fp == "" || strings.Trim(ip+fp, "0123456789") != "" {
				return fail()
			}
			out := ip
			if out == "" {
				out = "0"
			}
			if fp != "" {
				out += "." + fp
			}
			if neg {
				out = "-" + out
			}
			return out, nil
		})(args)
	}
}

// to_char(number, fmt): the number in a to_number format.
func bindToChar(args []Arg) (*Bound, error) {
	f, ok := constString(args[1])
	if !ok {
		return nil, fmt.Errorf("function to_char expects a constant format")
	}
	nf, err := parseNumberFormat(f)
	if err != nil {
		return nil, err
	}
	return rowFn("to_char", types.String, ps(pDouble, pString), func(v []any) (any, error) {
		x := v[0].(float64)
		s := strconv.FormatFloat(math.Abs(x), 'f', nf.fracDigits, 64)
		ip, fp, _ := strings.Cut(s, ".")
		if len(ip) > nf.intDigits {
			ip = strings.Repeat("#", nf.intDigits)
			fp = strings.Repeat("#", len(fp))
		}
		if nf.comma && !strings.Contains(ip, "#") {
			var g strings.Builder
			for i, c := range ip {
				if i > 0 && (len(ip)-i)%3 == 0 {
					g.WriteByte(',')
				}
				g.WriteRune(c)
			}
			ip = g.String()
		}
		out := ip
		if fp != "" {
			out += "." + fp
		}
		if nf.dollar {
			out = "$" + out
		}
		switch {
		case x < 0 && nf.signAtEnd:
			out += "-"
		case x < 0:
			out = "-" + out
		case nf.sign && nf.signAtEnd:
			out += "+"
		case nf.sign:
			out = "+" + out
		}
		return out, nil
	})(args)
}

// timestamp_nanos(n): Sluice's TIMESTAMP holds microseconds, so the
// nanoseconds below one are dropped.
var bindTimestampNanos = rowFn("timestamp_nanos", types.Timestamp, ps(pInt), func(v []any) (any, error) {
	return floorDiv(v[0].(int64), 1000), nil
})

// randstr(length[, seed]): random letters and digits.
var bindRandstr = func(args []Arg) (*Bound, error) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	if len(args) == 2 {
		seed, ok := toInt64(args[1].Value)
		if !args[1].Const || !ok {
			return nil, fmt.Errorf("function randstr expects a constant integer seed")
		}
		r = rand.New(rand.NewPCG(uint64(seed), uint64(seed)))
	}
	var mu sync.Mutex // kernels of one call site may run in parallel
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	return rowFn("randstr", types.String, ps(pInt, pInt), func(v []any) (any, error) {
		n := v[0].(int64)
		if n < 0 || n > 1<<20 {
			return nil, fmt.Errorf("length %d out of range", n)
		}
		mu.Lock()
		defer mu.Unlock()
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b), nil
	})(args[:1])
}

// uniform(min, max[, seed]): uniform in [min, max), DOUBLE.
var bindUniform = func(args []Arg) (*Bound, error) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	if len(args) == 3 {
		seed, ok := toInt64(args[2].Value)
		if !args[2].Const || !ok {
			return nil, fmt.Errorf("function uniform expects a constant integer seed")
		}
		r = rand.New(rand.NewPCG(uint64(seed), uint64(seed)))
	}
	var mu sync.Mutex
	return rowFn("uniform", types.Double, ps(pDouble), func(v []any) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		lo, hi := v[0].(float64), v[1].(float64)
		return lo + r.Float64()*(hi-lo), nil
	})(args[:2])
}

// window_time(window): the window's end minus one microsecond, the
// latest time inside it.
var bindWindowTime = rowFn("window_time", types.Timestamp, ps(pAny), func(v []any) (any, error) {
	sv, ok := v[0].(types.StructValue)
	if !ok {
		return nil, fmt.Errorf("expects a window STRUCT")
	}
	end, ok := sv.Get("end")
	if !ok || end == nil {
		return nil, nil
	}
	switch e := end.(type) {
	case int64:
		return e - 1, nil
	case time.Time:
		return e.UnixMicro() - 1, nil
	case string:
		us, ok := types.ParseTimestamp(e)
		if !ok {
			return nil, fmt.Errorf("bad window end %q", e)
		}
		return us - 1, nil
	}
	return nil, fmt.Errorf("bad window end %v", end)
})
