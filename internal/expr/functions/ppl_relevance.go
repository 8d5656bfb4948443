package functions

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"sluice/internal/types"
)

// ppl_relevance('mode', 'query', 'options', field, ...) is PPL's
// relevance functions with their options, over Bleve's standard analyzer
// as match does (lower case, English stop words):
//
//   - match: any query term in the field (operator=AND: every one;
//     minimum_should_match=n: n of them);
//   - match_phrase: the terms in order, with at most slop positions
//     between them in all;
//   - match_phrase_prefix: a phrase whose last term is a prefix;
//   - match_bool_prefix: match with the last term a prefix;
//   - multi_match, simple_query_string, query_string: match over several
//     fields (operator / default_operator=AND: every term in some
//     field); the query is taken as words, not as query syntax.
//
// boost, analyzer, flags and other options are accepted and do not
// change which rows match: Sluice does not score.
func bindPPLRelevance(args []Arg) (*Bound, error) {
	var consts [3]string
	for i := range consts {
		s, ok := args[i].Value.(string)
		if !args[i].Const || !ok {
			return nil, fmt.Errorf("ppl_relevance: argument %d must be a constant string", i+1)
		}
		consts[i] = s
	}
	mode, query := strings.ToLower(consts[0]), consts[1]
	opts := map[string]string{}
	for _, kv := range strings.Split(consts[2], ";") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			opts[strings.ToLower(k)] = v
		}
	}
	q, err := analyzeQuery(query)
	if err != nil {
		return nil, err
	}
	r := relevance{terms: q.terms, mode: mode, need: 1}
	if strings.EqualFold(opts["operator"], "and") || strings.EqualFold(opts["default_operator"], "and") {
		r.need = len(q.terms)
	}
	if v, ok := opts["minimum_should_match"]; ok {
		n, err := strconv.Atoi(strings.TrimSuffix(v, "%"))
		if err != nil {
			return nil, fmt.Errorf("ppl_relevance: minimum_should_match %q is not a number", v)
		}
		if strings.HasSuffix(v, "%") {
			n = n * len(q.terms) / 100
		}
		r.need = max(n, 1)
	}
	if v, ok := opts["slop"]; ok {
		if r.slop, err = strconv.Atoi(v); err != nil {
			return nil, fmt.Errorf("ppl_relevance: slop %q is not a number", v)
		}
	}
	switch mode {
	case "match", "match_phrase", "match_phrase_prefix", "match_bool_prefix", "multi_match",
		"simple_query_string", "query_string":
	default:
		return nil, fmt.Errorf("ppl_relevance: unknown function %s", mode)
	}
	return rowFnNulls("ppl_relevance", types.Boolean, ps(pString, pString, pString, pString), func(v []any) (any, error) {
		var fields [][][]byte
		for _, f := range v[3:] {
			if s, ok := f.(string); ok {
				var toks [][]byte
				for _, t := range analyzer.Analyze([]byte(s)) {
					toks = append(toks, t.Term)
				}
				fields = append(fields, toks)
			}
		}
		return r.matches(fields), nil
	})(args)
}

type relevance struct {
	terms [][]byte
	mode  string
	need  int
	slop  int
}

func (r relevance) matches(fields [][][]byte) bool {
	if len(r.terms) == 0 {
		return false
	}
	prefix := r.mode == "match_phrase_prefix" || r.mode == "match_bool_prefix"
	last := len(r.terms) - 1
	has := func(toks [][]byte, k int) bool {
		for _, t := range toks {
			if bytes.Equal(t, r.terms[k]) || prefix && k == last && bytes.HasPrefix(t, r.terms[k]) {
				return true
			}
		}
		return false
	}
	if r.mode == "match_phrase" || r.mode == "match_phrase_prefix" {
		for _, toks := range fields {
			if r.phrase(toks, prefix) {
				return true
			}
		}
		return false
	}
	// Terms found: in one field for match, in any field for the others.
	count := func(fs [][][]byte) int {
		n := 0
		for k := range r.terms {
			for _, toks := range fs {
				if has(toks, k) {
					n++
					break
				}
			}
		}
		return n
	}
	if r.mode == "match" || r.mode == "match_bool_prefix" || r.mode == "multi_match" {
		for _, toks := range fields {
			if count([][][]byte{toks}) >= r.need {
				return true
			}
		}
		return false
	}
	return count(fields) >= r.need
}

// phrase reports whether toks hold the terms in order, with at most
// slop extra positions between them (the last a prefix when prefix).
func (r relevance) phrase(toks [][]byte, prefix bool) bool {
	eq := func(i, k int) bool {
		if prefix && k == len(r.terms)-1 {
			return bytes.HasPrefix(toks[i], r.terms[k])
		}
		return bytes.Equal(toks[i], r.terms[k])
	}
	var from func(i, k, slack int) bool
	from = func(i, k, slack int) bool {
		if k == len(r.terms) {
			return true
		}
		for j := i; j < len(toks) && j-i <= slack; j++ {
			if eq(j, k) && from(j+1, k+1, slack-(j-i)) {
				return true
			}
		}
		return false
	}
	for i := range toks {
		if eq(i, 0) && from(i+1, 1, r.slop) {
			return true
		}
	}
	return false
}
