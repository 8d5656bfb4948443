package functions

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// ppl_tostring(v[, format]) is PPL's tostring: a BOOLEAN is TRUE or
// FALSE; a number takes the format binary, hex, commas (thousands
// separators, at most two decimals), duration (seconds as HH:MM:SS) or
// duration_millis; anything else, or a number without a format, is
// CAST(v AS STRING). Spark has no tostring.
func bindPPLTostring(args []Arg) (*Bound, error) {
	t := args[0].Type
	switch {
	case t.ID() == arrow.BOOL:
		return rowFn("ppl_tostring", types.String, ps(pAny, pString), func(v []any) (any, error) {
			if v[0].(bool) {
				return "TRUE", nil
			}
			return "FALSE", nil
		})(args)
	case types.IsNumeric(t) && len(args) == 2:
		num := pDouble
		if types.IsInteger(t) {
			num = pInt
		}
		return rowFn("ppl_tostring", types.String, ps(num, pString), func(v []any) (any, error) {
			return pplNumberFormat(v[0], v[1].(string))
		})(args)
	}
	return rowFn("ppl_tostring", types.String, ps(pString, pString), func(v []any) (any, error) {
		return v[0], nil
	})(args)
}

func pplNumberFormat(x any, format string) (any, error) {
	f, isFloat := x.(float64)
	i, _ := x.(int64)
	if !isFloat {
		f = float64(i)
	} else if math.IsNaN(f) || math.IsInf(f, 0) {
		return types.FormatDouble(f), nil
	} else {
		i = int64(f)
	}
	switch strings.ToLower(format) {
	case "binary":
		return strconv.FormatInt(i, 2), nil
	case "hex":
		return strconv.FormatInt(i, 16), nil
	case "commas":
		s := strconv.FormatInt(i, 10)
		frac := ""
		if isFloat {
			r := strconv.FormatFloat(math.Abs(f), 'f', 2, 64)
			s, frac, _ = strings.Cut(r, ".")
			frac = strings.TrimRight(frac, "0")
			if frac != "" {
				frac = "." + frac
			}
			if f < 0 {
				s = "-" + s
			}
		}
		return commas(s) + frac, nil
	case "duration":
		return hms(i), nil
	case "duration_millis":
		return hms(i / 1000), nil
	}
	return nil, fmt.Errorf("unknown format %q (binary, hex, commas, duration, duration_millis)", format)
}

// commas puts thousands separators into an integer's digits.
func commas(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func hms(sec int64) string {
	sign := ""
	if sec < 0 {
		sign, sec = "-", -sec
	}
	return fmt.Sprintf("%s%02d:%02d:%02d", sign, sec/3600, sec/60%60, sec%60)
}

// ppl_tonumber(s[, base]) is PPL's tonumber: the DOUBLE value of s in
// base 10 (a decimal number) or in base 2..36 (an integer); NULL when s
// is no such number.
var bindPPLTonumber = rowFn("ppl_tonumber", types.Double, ps(pString, pInt), func(v []any) (any, error) {
	s := strings.TrimSpace(v[0].(string))
	base := int64(10)
	if len(v) == 2 {
		base = v[1].(int64)
	}
	if base < 2 || base > 36 {
		return nil, fmt.Errorf("base %d is not between 2 and 36", base)
	}
	if base == 10 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, nil
		}
		return f, nil
	}
	n, err := strconv.ParseInt(s, int(base), 64)
	if err != nil {
		return nil, nil
	}
	return float64(n), nil
})
