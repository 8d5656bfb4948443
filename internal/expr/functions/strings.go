package functions

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"sluice/internal/types"
)

// String functions work on characters (runes), not bytes, and return
// NULL for NULL input, like Spark.

func strUnary(f func(string) string) func([]Arg) Kernel {
	return func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			s := args[0].(*array.String)
			return strResult(n, args, false, func(i int) (string, bool) { return f(s.Value(i)), true }), nil
		}
	}
}

func isASCII(s string) bool {
	var or byte
	for i := 0; i < len(s); i++ {
		or |= s[i]
	}
	return or < utf8.RuneSelf
}

func initcap(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	start := true
	for _, r := range s {
		if unicode.IsSpace(r) {
			start = true
			b.WriteRune(r)
			continue
		}
		if start {
			b.WriteRune(unicode.ToUpper(r))
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
		start = false
	}
	return b.String()
}

func reverse(s string) string {
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}

var bindLower = simple("lower", types.String, strUnary(strings.ToLower), pString)
var bindUpper = simple("upper", types.String, strUnary(upper), pString)

// upperCasers pools full-case-mapping casers (a Caser keeps state, so one
// per goroutine).
var upperCasers = sync.Pool{New: func() any { c := cases.Upper(language.Und); return &c }}

// upper applies Unicode full case mapping as Spark (Java) does, so 'ß'
// becomes "SS"; strings.ToUpper maps rune by rune and keeps 'ß'.
func upper(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			c := upperCasers.Get().(*cases.Caser)
			defer upperCasers.Put(c)
			return c.String(s)
		}
	}
	return strings.ToUpper(s)
}

var bindInitcap = simple("initcap", types.String, strUnary(initcap), pString)
var bindReverse = simple("reverse", types.String, strUnary(reverse), pString)

var bindLength = simple("length", types.Int, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s := args[0].(*array.String)
		return fixedResult(types.Int, n, args, func(i int) (int32, bool) {
			return int32(utf8.RuneCountInString(s.Value(i))), true
		}), nil
	}
}, pString)

// concat(a, b, ...) and a || b: NULL if any argument is NULL.
var bindConcat = simple("concat", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		ss := make([]*array.String, len(args))
		for j, a := range args {
			ss[j], _ = a.(*array.String)
		}
		// One reused buffer and the data reserved up front: a string per
		// row was most of concat's time.
		r := newRows(n, args)
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		size := 0
		for _, s := range ss {
			size += len(s.ValueBytes())
		}
		b.ReserveData(size)
		var buf []byte
		for i := 0; i < n; i++ {
			if !r.ok(i) {
				b.AppendNull()
				continue
			}
			buf = buf[:0]
			for _, s := range ss {
				buf = append(buf, s.Value(i)...)
			}
			b.BinaryBuilder.Append(buf)
		}
		return b.NewArray(), nil
	}
}, pString)

// concat_ws(sep, a, ...) skips NULL arguments; ARRAY<STRING> arguments
// contribute their non-NULL elements.
func bindConcatWs(args []Arg) (*Bound, error) {
	casts := make([]arrow.DataType, len(args))
	for i, a := range args {
		t := types.Normalize(a.Type)
		if i > 0 && t.ID() == arrow.LIST {
			casts[i] = types.Array(types.String)
			continue
		}
		if casts[i] = pString.coerce(t); casts[i] == nil {
			return nil, fmt.Errorf("function concat_ws expects STRING or ARRAY<STRING> arguments, got %s", sqlName(t))
		}
	}
	return &Bound{Type: types.String, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		r := newRows(n, args)
		sep := args[0].(*array.String)
		var parts []string
		return strResult(n, args, true, func(i int) (string, bool) {
			if r.null(0, i) {
				return "", false
			}
			parts = parts[:0]
			for j := 1; j < len(args); j++ {
				if r.null(j, i) {
					continue
				}
				switch a := args[j].(type) {
				case *array.String:
					parts = append(parts, a.Value(i))
				case *array.List:
					vals, ok := a.ListValues().(*array.String)
					if !ok {
						continue
					}
					start, end := a.ValueOffsets(i)
					for k := start; k < end; k++ {
						if vals.IsValid(int(k)) {
							parts = append(parts, vals.Value(int(k)))
						}
					}
				}
			}
			return strings.Join(parts, sep.Value(i)), true
		}), nil
	}}, nil
}

// runeSlice returns s's characters [start, end), clamped.
func runeSlice(s string, start, end int64) string {
	if isASCII(s) {
		n := int64(len(s))
		start, end = max(start, 0), min(end, n)
		if start >= end {
			return ""
		}
		return s[start:end]
	}
	rs := []rune(s)
	n := int64(len(rs))
	start, end = max(start, 0), min(end, n)
	if start >= end {
		return ""
	}
	return string(rs[start:end])
}

func runeLen(s string) int64 {
	if isASCII(s) {
		return int64(len(s))
	}
	return int64(utf8.RuneCountInString(s))
}

// Substring is Spark's substring(s, pos[, len]): pos is 1-based, 0 acts
// as 1, negative counts from the end.
func Substring(s string, pos, length int64, hasLen bool) string {
	n := runeLen(s)
	var start int64
	switch {
	case pos > 0:
		start = pos - 1
	case pos < 0:
		start = n + pos
	}
	end := n
	if hasLen {
		if length <= 0 {
			return ""
		}
		end = start + length
	}
	return runeSlice(s, start, end)
}

var bindSubstring = simple("substring", types.String, func(a []Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s := args[0].(*array.String)
		pos := i64At(args[1])
		var ln []int64
		if len(args) == 3 {
			ln = i64At(args[2])
		}
		return strResult(n, args, false, func(i int) (string, bool) {
			if ln != nil {
				return Substring(s.Value(i), pos[i], ln[i], true), true
			}
			return Substring(s.Value(i), pos[i], 0, false), true
		}), nil
	}
}, pString, pInt, pInt)

var bindLeft = simple("left", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s, k := args[0].(*array.String), i64At(args[1])
		return strResult(n, args, false, func(i int) (string, bool) { return runeSlice(s.Value(i), 0, k[i]), true }), nil
	}
}, pString, pInt)

var bindRight = simple("right", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s, k := args[0].(*array.String), i64At(args[1])
		return strResult(n, args, false, func(i int) (string, bool) {
			if k[i] <= 0 {
				return "", true
			}
			l := runeLen(s.Value(i))
			return runeSlice(s.Value(i), l-k[i], l), true
		}), nil
	}
}, pString, pInt)

// trim(s[, chars]), ltrim, rtrim: spaces by default.
func bindTrim(side string) Binder {
	return simple(side, types.String, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			s := args[0].(*array.String)
			var cs *array.String
			if len(args) == 2 {
				cs = args[1].(*array.String)
			}
			return strResult(n, args, false, func(i int) (string, bool) {
				chars := " "
				if cs != nil {
					chars = cs.Value(i)
				}
				switch side {
				case "ltrim":
					return strings.TrimLeft(s.Value(i), chars), true
				case "rtrim":
					return strings.TrimRight(s.Value(i), chars), true
				}
				return strings.Trim(s.Value(i), chars), true
			}), nil
		}
	}, pString, pString)
}

// replace(s, search[, replacement]): every occurrence; replacement
// defaults to ”.
var bindReplace = simple("replace", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s, from := args[0].(*array.String), args[1].(*array.String)
		var to *array.String
		if len(args) == 3 {
			to = args[2].(*array.String)
		}
		return strResult(n, args, false, func(i int) (string, bool) {
			if from.Value(i) == "" {
				return s.Value(i), true
			}
			r := ""
			if to != nil {
				r = to.Value(i)
			}
			return strings.ReplaceAll(s.Value(i), from.Value(i), r), true
		}), nil
	}
}, pString, pString, pString)

func boolStr(fn string, f func(a, b string) bool) Binder {
	return simple(fn, types.Boolean, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			a, b := args[0].(*array.String), args[1].(*array.String)
			return boolResult(n, args, func(i int) (bool, bool) { return f(a.Value(i), b.Value(i)), true }), nil
		}
	}, pString, pString)
}

var bindStartsWith = boolStr("starts_with", strings.HasPrefix)
var bindEndsWith = boolStr("ends_with", strings.HasSuffix)
var bindContains = boolStr("contains", strings.Contains)

// instr(s, sub): 1-based character position of the first sub, 0 if none.
var bindInstr = simple("instr", types.Int, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s, sub := args[0].(*array.String), args[1].(*array.String)
		return fixedResult(types.Int, n, args, func(i int) (int32, bool) {
			k := strings.Index(s.Value(i), sub.Value(i))
			if k < 0 {
				return 0, true
			}
			return int32(utf8.RuneCountInString(s.Value(i)[:k]) + 1), true
		}), nil
	}
}, pString, pString)

var bindRepeat = simple("repeat", types.String, func([]Arg) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		s, k := args[0].(*array.String), i64At(args[1])
		for i := 0; i < n; i++ {
			if args[0].IsValid(i) && args[1].IsValid(i) && int64(len(s.Value(i)))*k[i] > 1<<28 {
				return nil, fmt.Errorf("repeat: result of %d x %d bytes is too large", k[i], len(s.Value(i)))
			}
		}
		return strResult(n, args, false, func(i int) (string, bool) {
			if k[i] <= 0 {
				return "", true
			}
			return strings.Repeat(s.Value(i), int(k[i])), true
		}), nil
	}
}, pString, pInt)

// lpad/rpad(s, len[, pad]): pad to len characters (default pad ' '), or
// truncate to len.
func bindPad(left bool) Binder {
	name := "rpad"
	if left {
		name = "lpad"
	}
	return simple(name, types.String, func([]Arg) Kernel {
		return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			s, k := args[0].(*array.String), i64At(args[1])
			var ps *array.String
			if len(args) == 3 {
				ps = args[2].(*array.String)
			}
			return strResult(n, args, false, func(i int) (string, bool) {
				want := k[i]
				if want > 1<<24 {
					return "", false
				}
				v := s.Value(i)
				l := runeLen(v)
				if want <= l {
					return runeSlice(v, 0, max(want, 0)), true
				}
				pad := " "
				if ps != nil {
					pad = ps.Value(i)
				}
				if pad == "" {
					return v, true
				}
				pr := []rune(pad)
				fill := make([]rune, 0, want-l)
				for int64(len(fill)) < want-l {
					fill = append(fill, pr[len(fill)%len(pr)])
				}
				if left {
					return string(fill) + v, true
				}
				return v + string(fill), true
			}), nil
		}
	}, pString, pInt, pString)
}

// regexArg compiles a constant pattern once, or per distinct row value.
type regexArg struct {
	fixed *regexp.Regexp
}

func newRegexArg(fn string, a Arg) (*regexArg, error) {
	if p, ok := constString(a); ok {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("%s: invalid regular expression %q: %w", fn, p, err)
		}
		return &regexArg{fixed: re}, nil
	}
	return &regexArg{}, nil
}

// get returns the pattern for row i; kernels call it from one goroutine
// per Eval, so the per-Eval map needs no lock.
func (r *regexArg) get(local map[string]*regexp.Regexp, p string) (*regexp.Regexp, error) {
	if r.fixed != nil {
		return r.fixed, nil
	}
	if re, ok := local[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %w", p, err)
	}
	local[p] = re
	return re, nil
}

// regexStr runs f with the row's compiled pattern (argument 1).
func regexStr(fn string, params []param, f func(re *regexp.Regexp, args []arrow.Array, i int) (string, bool)) Binder {
	return func(args []Arg) (*Bound, error) {
		casts, err := coerceArgs(fn, args, params...)
		if err != nil {
			return nil, err
		}
		ra, err := newRegexArg(fn, args[1])
		if err != nil {
			return nil, err
		}
		return &Bound{Type: types.String, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			local := map[string]*regexp.Regexp{}
			p := args[1].(*array.String)
			var ferr error
			out := strResult(n, args, false, func(i int) (string, bool) {
				re, err := ra.get(local, p.Value(i))
				if err != nil {
					ferr = err
					return "", false
				}
				return f(re, args, i)
			})
			if ferr != nil {
				out.Release()
				return nil, ferr
			}
			return out, nil
		}}, nil
	}
}

// regexp_extract(s, pattern[, group]): group 1 by default, ” when there
// is no match (Spark).
var bindRegexpExtract = regexStr("regexp_extract", []param{pString, pString, pInt}, func(re *regexp.Regexp, args []arrow.Array, i int) (string, bool) {
	g := int64(1)
	if len(args) == 3 {
		g = i64s(args[2])[i]
	}
	if g < 0 || int(g) > re.NumSubexp() {
		return "", false
	}
	m := re.FindStringSubmatch(args[0].(*array.String).Value(i))
	if m == nil {
		return "", true
	}
	return m[g], true
})

var javaGroupRef = regexp.MustCompile(`\$(\d+)`)

// regexp_replace(s, pattern, replacement): Java-style $1 references.
var bindRegexpReplace = regexStr("regexp_replace", []param{pString, pString, pString}, func(re *regexp.Regexp, args []arrow.Array, i int) (string, bool) {
	rep := javaGroupRef.ReplaceAllString(args[2].(*array.String).Value(i), "$${$1}")
	return re.ReplaceAllString(args[0].(*array.String).Value(i), rep), true
})

// split(s, regex[, limit]) -> ARRAY<STRING>, splitting on a regular
// expression like Spark; limit > 0 caps the number of parts.
func bindSplit(args []Arg) (*Bound, error) {
	casts, err := coerceArgs("split", args, pString, pString, pInt)
	if err != nil {
		return nil, err
	}
	ra, err := newRegexArg("split", args[1])
	if err != nil {
		return nil, err
	}
	rt := types.Array(types.String)
	return &Bound{Type: rt, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		r := newRows(n, args)
		s, p := args[0].(*array.String), args[1].(*array.String)
		var lim []int64
		if len(args) == 3 {
			lim = i64s(args[2])
		}
		local := map[string]*regexp.Regexp{}
		b := array.NewListBuilder(mem, types.String)
		defer b.Release()
		vb := b.ValueBuilder().(*array.StringBuilder)
		for i := 0; i < n; i++ {
			if !r.ok(i) {
				b.AppendNull()
				continue
			}
			re, err := ra.get(local, p.Value(i))
			if err != nil {
				return nil, err
			}
			k := -1
			if lim != nil && lim[i] > 0 {
				k = int(lim[i])
			}
			b.Append(true)
			for _, part := range re.Split(s.Value(i), k) {
				vb.Append(part)
			}
		}
		return b.NewArray(), nil
	}}, nil
}
