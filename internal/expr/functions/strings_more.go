package functions

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// String functions of Spark beyond strings.go, row by row (rowFn).

var binaryType arrow.DataType = arrow.BinaryTypes.Binary

var pBinary = param{"BINARY", func(t arrow.DataType) arrow.DataType {
	if t.ID() == arrow.NULL || t.ID() == arrow.BINARY || types.IsString(t) {
		return binaryType
	}
	return nil
}}

func ps(p ...param) []param { return p }

var bindASCII = rowFn("ascii", types.Int, ps(pString), func(v []any) (any, error) {
	s := v[0].(string)
	if s == "" {
		return int64(0), nil
	}
	r, _ := utf8.DecodeRuneInString(s)
	return int64(r), nil
})

// chr(n) is the character n mod 256; ” for a negative n (Spark).
var bindChr = rowFn("chr", types.String, ps(pInt), func(v []any) (any, error) {
	n := v[0].(int64)
	if n < 0 {
		return "", nil
	}
	return string(rune(n % 256)), nil
})

var bindBase64 = rowFn("base64", types.String, ps(pBinary), func(v []any) (any, error) {
	return base64.StdEncoding.EncodeToString(v[0].([]byte)), nil
})

var bindUnbase64 = rowFn("unbase64", binaryType, ps(pString), func(v []any) (any, error) {
	out, err := base64.StdEncoding.DecodeString(v[0].(string))
	if err != nil {
		return nil, fmt.Errorf("invalid base64 input %q", v[0])
	}
	return out, nil
})

var bindBitLength = rowFn("bit_length", types.Int, ps(pBinary), func(v []any) (any, error) { return int64(8 * len(v[0].([]byte))), nil })
var bindOctetLength = rowFn("octet_length", types.Int, ps(pBinary), func(v []any) (any, error) { return int64(len(v[0].([]byte))), nil })

// locate(substr, str[, pos]): 1-based position of substr at or after pos,
// 0 when absent.
var bindLocate = rowFn("locate", types.Int, ps(pString, pString, pInt), func(v []any) (any, error) {
	sub, s := []rune(v[0].(string)), []rune(v[1].(string))
	pos := int64(1)
	if len(v) == 3 {
		pos = v[2].(int64)
	}
	if pos < 1 {
		return int64(0), nil
	}
	for i := int(pos - 1); i+len(sub) <= len(s); i++ {
		if string(s[i:i+len(sub)]) == string(sub) {
			return int64(i + 1), nil
		}
	}
	return int64(0), nil
})

var bindSpace = rowFn("space", types.String, ps(pInt), func(v []any) (any, error) {
	return strings.Repeat(" ", int(max(0, min(v[0].(int64), 1<<20)))), nil
})

// translate(s, from, to) maps each character of from to the one at the
// same place in to, deleting it when to is shorter.
var bindTranslate = rowFn("translate", types.String, ps(pString), func(v []any) (any, error) {
	from, to := []rune(v[1].(string)), []rune(v[2].(string))
	m := map[rune]rune{}
	for i, r := range from {
		if _, ok := m[r]; ok {
			continue
		}
		if i < len(to) {
			m[r] = to[i]
		} else {
			m[r] = -1
		}
	}
	var b strings.Builder
	for _, r := range v[0].(string) {
		if t, ok := m[r]; ok {
			if t >= 0 {
				b.WriteRune(t)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String(), nil
})

// levenshtein(a, b[, threshold]): -1 when the distance passes threshold.
var bindLevenshtein = rowFn("levenshtein", types.Int, ps(pString, pString, pInt), func(v []any) (any, error) {
	a, b := []rune(v[0].(string)), []rune(v[1].(string))
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	d := int64(prev[len(b)])
	if len(v) == 3 && d > v[2].(int64) {
		return int64(-1), nil
	}
	return d, nil
})

// soundex is the American Soundex code; a string not starting with a
// letter is returned as is (Spark).
var bindSoundex = rowFn("soundex", types.String, ps(pString), func(v []any) (any, error) {
	s := v[0].(string)
	if s == "" || !unicode.IsLetter(rune(s[0])) || s[0] >= 0x80 {
		return s, nil
	}
	const codes = "01230120022455012623010202"
	up := strings.ToUpper(s)
	out := []byte{up[0]}
	last := codes[up[0]-'A']
	for i := 1; i < len(up) && len(out) < 4; i++ {
		c := up[i]
		if c < 'A' || c > 'Z' {
			last = '0'
			continue
		}
		code := codes[c-'A']
		if c == 'H' || c == 'W' {
			continue
		}
		if code != '0' && code != last {
			out = append(out, code)
		}
		last = code
	}
	for len(out) < 4 {
		out = append(out, '0')
	}
	return string(out), nil
})

// split_part(s, delim, n): the nth part (from the end when negative), ”
// past the end; n = 0 is an error (Spark).
var bindSplitPart = rowFn("split_part", types.String, ps(pString, pString, pInt), func(v []any) (any, error) {
	s, d, n := v[0].(string), v[1].(string), v[2].(int64)
	if n == 0 {
		return nil, fmt.Errorf("the part index must not be 0")
	}
	var parts []string
	if d == "" {
		parts = []string{s}
	} else {
		parts = strings.Split(s, d)
	}
	if n < 0 {
		n += int64(len(parts)) + 1
	}
	if n < 1 || n > int64(len(parts)) {
		return "", nil
	}
	return parts[n-1], nil
})

// elt(n, s1, s2, ...): the nth string, NULL out of range.
var bindElt = rowFnNulls("elt", types.String, ps(pInt, pString), func(v []any) (any, error) {
	if v[0] == nil {
		return nil, nil
	}
	n := v[0].(int64)
	if n < 1 || n >= int64(len(v)) {
		return nil, nil
	}
	return v[n], nil
})

// find_in_set(s, list): 1-based index of s in the comma list, 0 if absent
// or if s has a comma.
var bindFindInSet = rowFn("find_in_set", types.Int, ps(pString), func(v []any) (any, error) {
	s := v[0].(string)
	if strings.Contains(s, ",") {
		return int64(0), nil
	}
	for i, p := range strings.Split(v[1].(string), ",") {
		if p == s {
			return int64(i + 1), nil
		}
	}
	return int64(0), nil
})

// substring_index(s, delim, count): before the count-th delim (after the
// count-th from the end when negative).
var bindSubstringIndex = rowFn("substring_index", types.String, ps(pString, pString, pInt), func(v []any) (any, error) {
	s, d, c := v[0].(string), v[1].(string), v[2].(int64)
	if d == "" || c == 0 {
		return "", nil
	}
	parts := strings.Split(s, d)
	if c > 0 {
		if c >= int64(len(parts)) {
			return s, nil
		}
		return strings.Join(parts[:c], d), nil
	}
	if -c >= int64(len(parts)) {
		return s, nil
	}
	return strings.Join(parts[int64(len(parts))+c:], d), nil
})

// overlay(s, r, pos[, len]): s with len characters at pos replaced by r.
var bindOverlay = rowFn("overlay", types.String, ps(pString, pString, pInt, pInt), func(v []any) (any, error) {
	s, r := []rune(v[0].(string)), v[1].(string)
	pos := v[2].(int64)
	l := int64(utf8.RuneCountInString(r))
	if len(v) == 4 && v[3].(int64) >= 0 {
		l = v[3].(int64)
	}
	start := min(max(pos-1, 0), int64(len(s)))
	end := min(max(start+l, start), int64(len(s)))
	return string(s[:start]) + r + string(s[end:]), nil
})

// quote wraps s in single quotes, escaping \ and '.
var bindQuote = rowFn("quote", types.String, ps(pString), func(v []any) (any, error) {
	s := strings.ReplaceAll(v[0].(string), `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'", nil
})

// url_encode is application/x-www-form-urlencoded, as Java's URLEncoder.
var bindURLEncode = rowFn("url_encode", types.String, ps(pString), func(v []any) (any, error) {
	return url.QueryEscape(v[0].(string)), nil
})

func bindURLDecode(try bool) Binder {
	return rowFn("url_decode", types.String, ps(pString), func(v []any) (any, error) {
		s, err := url.QueryUnescape(v[0].(string))
		if err != nil {
			if try {
				return nil, nil
			}
			return nil, fmt.Errorf("cannot decode %q", v[0])
		}
		return s, nil
	})
}

// luhn_check: whether a string of digits passes the Luhn checksum.
var bindLuhnCheck = rowFn("luhn_check", types.Boolean, ps(pString), func(v []any) (any, error) {
	s := v[0].(string)
	if s == "" {
		return false, nil
	}
	sum := 0
	for i := 0; i < len(s); i++ {
		c := s[len(s)-1-i]
		if c < '0' || c > '9' {
			return false, nil
		}
		d := int(c - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0, nil
})

// format_number(x, d): x rounded to d decimals with thousands separators;
// d may also be a pattern like '#,###.##' (only its decimals count here).
var bindFormatNumber = rowFn("format_number", types.String, ps(pDouble, pString), func(v []any) (any, error) {
	x := v[0].(float64)
	d := 0
	if n, err := strconv.Atoi(v[1].(string)); err == nil {
		if n < 0 {
			return nil, nil
		}
		d = n
	} else if _, frac, ok := strings.Cut(v[1].(string), "."); ok {
		d = len(frac)
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	ip, fp, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if fp != "" {
		out += "." + fp
	}
	if neg {
		out = "-" + out
	}
	return out, nil
})

// str_to_map(s[, pair_delim[, kv_delim]]): delimiters are regexps
// (',' and ':' by default); a key without value maps to NULL.
var bindStrToMap = rowFn("str_to_map", types.Map(types.String), ps(pString), func(v []any) (any, error) {
	pd, kd := ",", ":"
	if len(v) > 1 {
		pd = v[1].(string)
	}
	if len(v) > 2 {
		kd = v[2].(string)
	}
	pre, err := regexp.Compile(pd)
	if err != nil {
		return nil, err
	}
	kre, err := regexp.Compile(kd)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	for _, p := range pre.Split(v[0].(string), -1) {
		kv := kre.Split(p, 2)
		if len(kv) == 2 {
			m[kv[0]] = kv[1]
		} else {
			m[kv[0]] = nil
		}
	}
	return m, nil
})

// mask(s[, upper[, lower[, digit[, other]]]]): NULL keeps that class.
var bindMask = rowFnNulls("mask", types.String, ps(pString), func(v []any) (any, error) {
	if v[0] == nil {
		return nil, nil
	}
	repl := []any{"X", "x", "n", nil}
	for i := 1; i < len(v) && i <= 4; i++ {
		repl[i-1] = v[i]
	}
	pick := func(k int, r rune) string {
		if repl[k] == nil {
			return string(r)
		}
		s := repl[k].(string)
		if s == "" {
			return string(r)
		}
		c, _ := utf8.DecodeRuneInString(s)
		return string(c)
	}
	var b strings.Builder
	for _, r := range v[0].(string) {
		switch {
		case unicode.IsUpper(r):
			b.WriteString(pick(0, r))
		case unicode.IsLower(r):
			b.WriteString(pick(1, r))
		case unicode.IsDigit(r):
			b.WriteString(pick(2, r))
		default:
			b.WriteString(pick(3, r))
		}
	}
	return b.String(), nil
})

var bindIsValidUTF8 = rowFn("is_valid_utf8", types.Boolean, ps(pBinary), func(v []any) (any, error) { return utf8.Valid(v[0].([]byte)), nil })
var bindMakeValidUTF8 = rowFn("make_valid_utf8", types.String, ps(pBinary), func(v []any) (any, error) {
	return strings.ToValidUTF8(string(v[0].([]byte)), "\uFFFD"), nil
})

func bindValidateUTF8(try bool) Binder {
	return rowFn("validate_utf8", types.String, ps(pBinary), func(v []any) (any, error) {
		b := v[0].([]byte)
		if utf8.Valid(b) {
			return string(b), nil
		}
		if try {
			return nil, nil
		}
		return nil, fmt.Errorf("invalid UTF-8 string")
	})
}

// encode(s, charset) / to_binary(s[, fmt]): only UTF-8 (and hex/base64
// formats for to_binary) are supported.
var bindEncode = rowFn("encode", binaryType, ps(pString), func(v []any) (any, error) {
	if cs := strings.ToLower(v[1].(string)); cs != "utf-8" && cs != "utf8" {
		return nil, fmt.Errorf("unsupported charset %q (only UTF-8)", v[1])
	}
	return []byte(v[0].(string)), nil
})

var bindDecode = rowFn("decode", types.String, ps(pBinary, pString), func(v []any) (any, error) {
	if cs := strings.ToLower(v[1].(string)); cs != "utf-8" && cs != "utf8" {
		return nil, fmt.Errorf("unsupported charset %q (only UTF-8)", v[1])
	}
	return string(v[0].([]byte)), nil
})

func bindToBinary(try bool) Binder {
	return rowFn("to_binary", binaryType, ps(pString), func(v []any) (any, error) {
		f := "hex"
		if len(v) > 1 {
			f = strings.ToLower(v[1].(string))
		}
		var out []byte
		var err error
		switch f {
		case "hex":
			s := v[0].(string)
			if len(s)%2 == 1 {
				s = "0" + s
			}
			out, err = hex.DecodeString(s)
		case "base64":
			out, err = base64.StdEncoding.DecodeString(v[0].(string))
		case "utf-8", "utf8":
			out = []byte(v[0].(string))
		default:
			return nil, fmt.Errorf("unsupported format %q", f)
		}
		if err != nil {
			if try {
				return nil, nil
			}
			return nil, fmt.Errorf("invalid %s input %q", f, v[0])
		}
		return out, nil
	})
}

// jaro_winkler_similarity with Winkler's prefix scale 0.1.
var bindJaroWinkler = rowFn("jaro_winkler_similarity", types.Double, ps(pString), func(v []any) (any, error) {
	a, b := []rune(v[0].(string)), []rune(v[1].(string))
	if len(a) == 0 && len(b) == 0 {
		return 1.0, nil
	}
	if len(a) == 0 || len(b) == 0 {
		return 0.0, nil
	}
	win := max(len(a), len(b))/2 - 1
	win = max(win, 0)
	ma, mb := make([]bool, len(a)), make([]bool, len(b))
	m := 0
	for i := range a {
		for j := max(0, i-win); j < min(len(b), i+win+1); j++ {
			if !mb[j] && a[i] == b[j] {
				ma[i], mb[j] = true, true
				m++
				break
			}
		}
	}
	if m == 0 {
		return 0.0, nil
	}
	t, k := 0, 0
	for i := range a {
		if !ma[i] {
			continue
		}
		for !mb[k] {
			k++
		}
		if a[i] != b[k] {
			t++
		}
		k++
	}
	fm := float64(m)
	jaro := (fm/float64(len(a)) + fm/float64(len(b)) + (fm-float64(t)/2)/fm) / 3
	p := 0
	for p < min(4, len(a), len(b)) && a[p] == b[p] {
		p++
	}
	return jaro + float64(p)*0.1*(1-jaro), nil
})

// parse_url(url, part[, key]) as in Spark (HOST, PATH, QUERY, REF,
// PROTOCOL, FILE, AUTHORITY, USERINFO); NULL for a part that is absent.
func bindParseURL(try bool) Binder {
	return rowFn("parse_url", types.String, ps(pString), func(v []any) (any, error) {
		u, err := url.Parse(v[0].(string))
		if err != nil {
			if try {
				return nil, nil
			}
			return nil, fmt.Errorf("invalid URL %q", v[0])
		}
		none := func(s string) any {
			if s == "" {
				return nil
			}
			return s
		}
		switch strings.ToUpper(v[1].(string)) {
		case "HOST":
			return none(u.Hostname()), nil
		case "PATH":
			return u.EscapedPath(), nil
		case "QUERY":
			if len(v) == 3 {
				q, err := url.ParseQuery(u.RawQuery)
				if err != nil || !q.Has(v[2].(string)) {
					return nil, nil
				}
				return q.Get(v[2].(string)), nil
			}
			return none(u.RawQuery), nil
		case "REF":
			return none(u.Fragment), nil
		case "PROTOCOL":
			return none(u.Scheme), nil
		case "FILE":
			if u.RawQuery != "" {
				return u.EscapedPath() + "?" + u.RawQuery, nil
			}
			return u.EscapedPath(), nil
		case "AUTHORITY":
			return none(u.Host), nil
		case "USERINFO":
			if u.User == nil {
				return nil, nil
			}
			return u.User.String(), nil
		}
		return nil, nil
	})
}
