package functions

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"sluice/internal/types"
)

// pplDefaultTimeFormat is convert's timeformat= default.
const pplDefaultTimeFormat = "%m/%d/%Y %H:%M:%S"

// strftimeLayouts maps the strftime directives convert's ctime and
// mktime read to Go layouts.
var strftimeLayouts = map[byte]string{
	'Y': "2006", 'y': "06", 'm': "01", 'd': "02", 'e': "_2", 'H': "15", 'I': "03", 'M': "04", 'S': "05",
	'p': "PM", 'b': "Jan", 'h': "Jan", 'B': "January", 'a': "Mon", 'A': "Monday", 'j': "002",
	'Z': "MST", 'z': "-0700", 'T': "15:04:05", 'F': "2006-01-02", 'D': "01/02/06",
}

// strftimeParts splits a strftime format into Go layouts (directives)
// and literal text, in order.
func strftimeParts(f string) (parts []string, literal []bool, err error) {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			j := strings.IndexByte(f[i:], '%')
			if j < 0 {
				j = len(f) - i
			}
			parts, literal = append(parts, f[i:i+j]), append(literal, true)
			i += j - 1
			continue
		}
		if i+1 == len(f) {
			return nil, nil, fmt.Errorf("time format %q ends with %%", f)
		}
		i++
		if f[i] == '%' {
			parts, literal = append(parts, "%"), append(literal, true)
			continue
		}
		l, ok := strftimeLayouts[f[i]]
		if !ok {
			return nil, nil, fmt.Errorf("time format %q: %%%c is not supported", f, f[i])
		}
		parts, literal = append(parts, l), append(literal, false)
	}
	return parts, literal, nil
}

func pplTimeFormatArg(fn string, args []Arg) (string, error) {
	if len(args) < 2 {
		return pplDefaultTimeFormat, nil
	}
	f, ok := args[1].Value.(string)
	if !args[1].Const || !ok {
		return "", fmt.Errorf("%s: the time format must be a constant string", fn)
	}
	return f, nil
}

// ppl_ctime(epoch [, format]) is convert's ctime(): UNIX seconds as text
// in a strftime format, in UTC.
func bindPPLCtime(args []Arg) (*Bound, error) {
	f, err := pplTimeFormatArg("ppl_ctime", args)
	if err != nil {
		return nil, err
	}
	parts, literal, err := strftimeParts(f)
	if err != nil {
		return nil, err
	}
	params := ps(pString)
	if len(args) == 2 {
		params = ps(pString, pString)
	}
	return rowFn("ppl_ctime", types.String, params, func(v []any) (any, error) {
		sec, err := strconv.ParseFloat(strings.TrimSpace(v[0].(string)), 64)
		if err != nil || math.IsNaN(sec) || math.IsInf(sec, 0) || math.Abs(sec) > 1e13 {
			return nil, nil
		}
		whole := math.Floor(sec)
		t := time.Unix(int64(whole), int64((sec-whole)*1e9)).UTC()
		var b strings.Builder
		for i, p := range parts {
			if literal[i] {
				b.WriteString(p)
			} else {
				b.WriteString(t.Format(p))
			}
		}
		return b.String(), nil
	})(args)
}

// ppl_mktime(text [, format]) is convert's mktime(): text in a strftime
// format, read as UTC, as DOUBLE UNIX seconds; NULL when it does not fit.
func bindPPLMktime(args []Arg) (*Bound, error) {
	f, err := pplTimeFormatArg("ppl_mktime", args)
	if err != nil {
		return nil, err
	}
	parts, literal, err := strftimeParts(f)
	if err != nil {
		return nil, err
	}
	var layout strings.Builder
	for i, p := range parts {
		// Go reads letters and digits in a layout as fields, so literal
		// text may only be punctuation and blanks.
		if literal[i] && strings.ContainsFunc(p, func(r rune) bool { return r < 128 && (r >= '0' && r <= '9' || r|0x20 >= 'a' && r|0x20 <= 'z') }) {
			return nil, fmt.Errorf("ppl_mktime: time format %q: literal text %q is not supported", f, p)
		}
		layout.WriteString(p)
	}
	l := layout.String()
	params := ps(pString)
	if len(args) == 2 {
		params = ps(pString, pString)
	}
	return rowFn("ppl_mktime", types.Double, params, func(v []any) (any, error) {
		s := strings.TrimSpace(v[0].(string))
		if x, err := strconv.ParseFloat(s, 64); err == nil {
			return x, nil
		}
		t, err := time.ParseInLocation(l, s, time.UTC)
		if err != nil {
			return nil, nil
		}
		return float64(t.UnixNano()) / 1e9, nil
	})(args)
}
