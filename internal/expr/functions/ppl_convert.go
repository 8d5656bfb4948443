package functions

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"sluice/internal/types"
)

// ppl_convert('kind', x) is one of PPL convert's functions (auto, num,
// rmcomma, rmunit, memk, dur2sec, mstime) as OpenSearch's
// *ConvertFunction classes define them: a DOUBLE, a number as itself,
// text read by the kind's rule, NULL when it cannot be read.
func bindPPLConvert(args []Arg) (*Bound, error) {
	kind, ok := args[0].Value.(string)
	if !args[0].Const || !ok {
		return nil, fmt.Errorf("ppl_convert: the conversion must be a constant string")
	}
	conv, ok := pplConversions[strings.ToLower(kind)]
	if !ok {
		return nil, fmt.Errorf("ppl_convert: unknown conversion %q (want auto, num, rmcomma, rmunit, memk, dur2sec or mstime)", kind)
	}
	if types.IsNumeric(types.Normalize(args[1].Type)) {
		return rowFn("ppl_convert", types.Double, ps(pAny, pDouble), func(v []any) (any, error) { return v[1], nil })(args)
	}
	return rowFn("ppl_convert", types.Double, ps(pAny, pString), func(v []any) (any, error) {
		s := strings.TrimSpace(v[1].(string))
		if s == "" {
			return nil, nil
		}
		if f, ok := conv(s); ok {
			return f, nil
		}
		return nil, nil
	})(args)
}

var (
	pplLeadingNumber = regexp.MustCompile(`^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(.*)$`)
	pplHasLetter     = regexp.MustCompile(`[a-zA-Z]`)
	pplSignOrDigit   = regexp.MustCompile(`^[+-]?[\d.]`)
	pplMemk          = regexp.MustCompile(`^([+-]?\d+\.?\d*)([kmgKMG])?$`)
	pplDuration      = regexp.MustCompile(`^(?:(\d+)\+)?(\d{1,2}):(\d{1,2}):(\d{1,2})$`)
	pplMsTime        = regexp.MustCompile(`^(?:(\d{1,2}):)?(\d{1,2})(?:\.(\d{1,3}))?$`)
)

var pplConversions = map[string]func(string) (float64, bool){
	"auto": func(s string) (float64, bool) {
		if f, ok := pplMemkValue(s); ok {
			return f, true
		}
		return pplNum(s)
	},
	"num": pplNum,
	"rmcomma": func(s string) (float64, bool) {
		if pplHasLetter.MatchString(s) {
			return 0, false
		}
		return pplParseDouble(strings.ReplaceAll(s, ",", ""))
	},
	"rmunit": func(s string) (float64, bool) {
		m := pplLeadingNumber.FindStringSubmatch(s)
		if m == nil {
			return 0, false
		}
		return pplParseDouble(m[1])
	},
	"memk":    pplMemkValue,
	"dur2sec": pplDur2Sec,
	"mstime":  pplMsTimeValue,
}

// pplParseDouble reads a decimal number as Java's Double.parseDouble
// does for plain decimals; Go's words (inf, nan) and hex are refused.
func pplParseDouble(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "xXnN_") || strings.ContainsAny(strings.ToLower(s), "iy") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func pplNum(s string) (float64, bool) {
	if !pplSignOrDigit.MatchString(s) {
		return 0, false
	}
	if f, ok := pplParseDouble(s); ok {
		return f, true
	}
	if strings.Contains(s, ",") {
		if f, ok := pplParseDouble(strings.ReplaceAll(s, ",", "")); ok {
			return f, true
		}
	}
	m := pplLeadingNumber.FindStringSubmatch(s)
	if m == nil || len(m[1]) >= len(s) {
		return 0, false
	}
	suffix := strings.TrimSpace(s[len(m[1]):])
	if suffix == "" || suffix[0] >= '0' && suffix[0] <= '9' || suffix[0] == '.' {
		return 0, false
	}
	return pplParseDouble(m[1])
}

func pplMemkValue(s string) (float64, bool) {
	m := pplMemk.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	f, ok := pplParseDouble(m[1])
	if !ok {
		return 0, false
	}
	switch strings.ToLower(m[2]) {
	case "m":
		f *= 1024
	case "g":
		f *= 1024 * 1024
	}
	return f, true
}

func pplDur2Sec(s string) (float64, bool) {
	if f, ok := pplParseDouble(s); ok {
		return f, true
	}
	m := pplDuration.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	days, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	mi, _ := strconv.Atoi(m[3])
	sec, _ := strconv.Atoi(m[4])
	if h >= 24 || mi >= 60 || sec >= 60 {
		return 0, false
	}
	return float64(days*86400 + h*3600 + mi*60 + sec), true
}

func pplMsTimeValue(s string) (float64, bool) {
	if f, ok := pplParseDouble(s); ok {
		return f, true
	}
	m := pplMsTime.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	mi, _ := strconv.Atoi(m[1])
	sec, _ := strconv.Atoi(m[2])
	if sec >= 60 {
		return 0, false
	}
	ms := 0.0
	if m[3] != "" {
		d := (m[3] + "00")[:3]
		n, _ := strconv.Atoi(d)
		ms = float64(n) / 1000
	}
	return float64(mi*60+sec) + ms, true
}
