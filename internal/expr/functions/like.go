package functions

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// matcher tests one string. Constant patterns compile to one matcher at
// bind time; simple LIKE patterns avoid regexps altogether.
type matcher func(s string) bool

// LikeToRegexp translates a LIKE pattern: % is any run, _ any one
// character, esc quotes the next character.
func LikeToRegexp(pattern string, esc rune, caseInsensitive bool) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("(?s)")
	if caseInsensitive {
		b.WriteString("(?i)")
	}
	b.WriteString("^")
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case esc != 0 && r == esc:
			if i+1 == len(rs) {
				return nil, fmt.Errorf("LIKE pattern %q ends with the escape character", pattern)
			}
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case r == '%':
			b.WriteString(".*")
		case r == '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

func likeMatcher(pattern string, esc rune, ci bool) (matcher, error) {
	if !ci && !strings.ContainsRune(pattern, '_') && (esc == 0 || !strings.ContainsRune(pattern, esc)) {
		inner := strings.Trim(pattern, "%")
		if !strings.Contains(inner, "%") {
			pre, suf := strings.HasPrefix(pattern, "%"), strings.HasSuffix(pattern, "%") && len(pattern) > 1
			switch {
			case pre && suf:
				return func(s string) bool { return strings.Contains(s, inner) }, nil
			case pre:
				return func(s string) bool { return strings.HasSuffix(s, inner) }, nil
			case suf:
				return func(s string) bool { return strings.HasPrefix(s, inner) }, nil
			default:
				return func(s string) bool { return s == inner }, nil
			}
		}
	}
	re, err := LikeToRegexp(pattern, esc, ci)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

func regexMatcher(pattern string) (matcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %w", pattern, err)
	}
	return re.MatchString, nil
}

// bindLike serves like(s, pattern[, escape]), ilike and rlike/regexp_like.
func bindLike(kind string) Binder {
	return func(args []Arg) (*Bound, error) {
		for i, a := range args {
			if !types.IsString(a.Type) && a.Type.ID() != arrow.NULL {
				return nil, fmt.Errorf("%s expects STRING arguments, got %s for argument %d", kind, sqlName(a.Type), i+1)
			}
		}
		esc := '\\'
		if len(args) == 3 {
			if !args[2].Const {
				return nil, fmt.Errorf("%s: the escape character must be a constant", kind)
			}
			s, _ := args[2].Value.(string)
			rs := []rune(s)
			switch len(rs) {
			case 0:
				esc = 0
			case 1:
				esc = rs[0]
			default:
				return nil, fmt.Errorf("%s: the escape must be one character, got %q", kind, s)
			}
		}
		compile := func(p string) (matcher, error) {
			switch kind {
			case "like":
				return likeMatcher(p, esc, false)
			case "ilike":
				return likeMatcher(p, esc, true)
			}
			return regexMatcher(p)
		}
		casts := []arrow.DataType{types.String, types.String, types.String}[:len(args)]
		var fixed matcher
		if args[1].Const {
			p, ok := args[1].Value.(string)
			if !ok {
				return &Bound{Type: types.Boolean, Casts: casts, Eval: nullKernel(types.Boolean)}, nil
			}
			m, err := compile(p)
			if err != nil {
				return nil, err
			}
			fixed = m
		}
		cache := &matcherCache{compile: compile}
		return &Bound{Type: types.Boolean, Casts: casts, Eval: func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
			s := args[0].(*array.String)
			out := newBits(n)
			vs := validBytes(s)
			if fixed != nil {
				for i := 0; i < n; i++ {
					if isValid(vs, i) && fixed(s.Value(i)) {
						out[i>>3] |= 1 << (uint(i) & 7)
					}
				}
				valid, _ := validityAnd(n, s)
				return boolArray(out, n, valid), nil
			}
			p := args[1].(*array.String)
			vp := validBytes(p)
			for i := 0; i < n; i++ {
				if !isValid(vs, i) || !isValid(vp, i) {
					continue
				}
				m, err := cache.get(p.Value(i))
				if err != nil {
					return nil, err
				}
				setBit(out, i, m(s.Value(i)))
			}
			valid, _ := validityAnd(n, s, p)
			return boolArray(out, n, valid), nil
		}}, nil
	}
}

// matcherCache keeps compiled per-row patterns; patterns usually repeat.
type matcherCache struct {
	compile func(string) (matcher, error)
	mu      sync.Mutex
	m       map[string]matcher
}

func (c *matcherCache) get(p string) (matcher, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.m[p]; ok {
		return m, nil
	}
	m, err := c.compile(p)
	if err != nil {
		return nil, err
	}
	if c.m == nil || len(c.m) > 1000 {
		c.m = map[string]matcher{}
	}
	c.m[p] = m
	return m, nil
}

// nullKernel returns n NULLs of t whatever the input.
func nullKernel(t arrow.DataType) Kernel {
	return func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error) {
		return nullArray(t, n), nil
	}
}
