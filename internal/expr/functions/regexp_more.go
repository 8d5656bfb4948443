package functions

import (
	"fmt"
	"regexp"
	"sync"

	"sluice/internal/types"
)

// regexCache compiles each distinct pattern once for the whole process;
// the patterns are the query's own, so the set stays small.
var regexCache sync.Map

func compileCached(p string) (*regexp.Regexp, error) {
	if re, ok := regexCache.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %w", p, err)
	}
	regexCache.Store(p, re)
	return re, nil
}

var bindRegexpCount = rowFn("regexp_count", types.Int, ps(pString), func(v []any) (any, error) {
	re, err := compileCached(v[1].(string))
	if err != nil {
		return nil, err
	}
	return int64(len(re.FindAllStringIndex(v[0].(string), -1))), nil
})

// regexp_substr: the first match, NULL when none.
var bindRegexpSubstr = rowFn("regexp_substr", types.String, ps(pString), func(v []any) (any, error) {
	re, err := compileCached(v[1].(string))
	if err != nil {
		return nil, err
	}
	loc := re.FindStringIndex(v[0].(string))
	if loc == nil {
		return nil, nil
	}
	return v[0].(string)[loc[0]:loc[1]], nil
})

// regexp_instr(s, p[, group]): 1-based character position of the first
// match (of the group), 0 when none.
var bindRegexpInstr = rowFn("regexp_instr", types.Int, ps(pString, pString, pInt), func(v []any) (any, error) {
	re, err := compileCached(v[1].(string))
	if err != nil {
		return nil, err
	}
	g := int64(0)
	if len(v) == 3 {
		g = v[2].(int64)
	}
	if g < 0 || int(g) > re.NumSubexp() {
		return nil, fmt.Errorf("group index %d out of range", g)
	}
	s := v[0].(string)
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2*g] < 0 {
		return int64(0), nil
	}
	return runeLen(s[:m[2*g]]) + 1, nil
})

// regexp_extract_all(s, p[, group]): every match's group (1 by default).
var bindRegexpExtractAll = rowFn("regexp_extract_all", types.Array(types.String), ps(pString, pString, pInt), func(v []any) (any, error) {
	re, err := compileCached(v[1].(string))
	if err != nil {
		return nil, err
	}
	g := int64(1)
	if len(v) == 3 {
		g = v[2].(int64)
	}
	if g < 0 || int(g) > re.NumSubexp() {
		return nil, fmt.Errorf("group index %d out of range: the pattern has %d groups", g, re.NumSubexp())
	}
	out := []any{}
	for _, m := range re.FindAllStringSubmatch(v[0].(string), -1) {
		out = append(out, m[g])
	}
	return out, nil
})
