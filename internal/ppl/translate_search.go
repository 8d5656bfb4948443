package ppl

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// search translates the source's search expression into a WHERE over
// the source. Sluice has no index mapping, so every string field is
// searched as OpenSearch searches a text field with the standard
// analyzer: by whole words, ignoring case, * and ? matching within a
// word, a quoted value being a phrase of consecutive words. Other fields
// compare by value.
func (t *translator) search(e SearchExpr) error {
	var sch *arrow.Schema
	if t.schema != nil {
		s, err := t.schema(t.q)
		if err != nil {
			return err
		}
		sch = s
	}
	cond, err := t.searchCond(sch, e)
	if err != nil {
		return err
	}
	return t.where(&Where{At: e.searchPos(), Cond: cond})
}

func (t *translator) searchCond(sch *arrow.Schema, e SearchExpr) (sql.Expr, error) {
	switch e := e.(type) {
	case *SearchBool:
		l, err := t.searchCond(sch, e.L)
		if err != nil {
			return nil, err
		}
		if e.Not {
			// NOT keeps rows where the field is missing (NULL), unlike !=.
			return &sql.Unary{At: e.At, Op: sql.OpNot, X: coalesceFalse(e.At, l)}, nil
		}
		r, err := t.searchCond(sch, e.R)
		if err != nil {
			return nil, err
		}
		op := sql.OpAnd
		if e.Or {
			op = sql.OpOr
		}
		return &sql.Binary{At: e.At, Op: op, L: l, R: r}, nil
	case *SearchText:
		return t.searchText(sch, e)
	case *SearchCompare:
		return t.searchCompare(sch, e)
	case *SearchIn:
		var out sql.Expr
		for _, v := range e.Values {
			c, err := t.searchCompare(sch, &SearchCompare{At: v.At, Field: e.Field, Op: "=", Value: v})
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = c
			} else {
				out = &sql.Binary{At: v.At, Op: sql.OpOr, L: out, R: c}
			}
		}
		return out, nil
	case *SearchTime:
		return t.searchTime(sch, e)
	}
	return nil, errAt(e.searchPos(), "search: unsupported search term")
}

func coalesceFalse(at sql.Pos, e sql.Expr) sql.Expr {
	return &sql.Call{At: at, Name: "coalesce", Args: []sql.Expr{e, &sql.Literal{At: at, Kind: sql.LitBool, Value: "FALSE"}}}
}

// searchText matches a free-text term in any string field, nested ones
// included (OpenSearch's default field is *).
func (t *translator) searchText(sch *arrow.Schema, e *SearchText) (sql.Expr, error) {
	if sch == nil {
		return nil, errAt(e.At, "search: free text %q needs the source's schema", e.Text)
	}
	re, any := searchRegexp(e.Text)
	var out sql.Expr
	var leaves func(x sql.Expr, dt arrow.DataType)
	leaves = func(x sql.Expr, dt arrow.DataType) {
		var c sql.Expr
		switch dt := dt.(type) {
		case *arrow.StructType:
			for _, f := range dt.Fields() {
				leaves(&sql.FieldAccess{At: e.At, X: x, Name: f.Name}, f.Type)
			}
			return
		case *arrow.StringType, *arrow.LargeStringType:
			c = searchMatch(e.At, x, re, any)
		default:
			return
		}
		if out == nil {
			out = c
		} else {
			out = &sql.Binary{At: e.At, Op: sql.OpOr, L: out, R: c}
		}
	}
	for _, f := range sch.Fields() {
		leaves(col(e.At, f.Name), f.Type)
	}
	if out == nil {
		return &sql.Literal{At: e.At, Kind: sql.LitBool, Value: "FALSE"}, nil
	}
	return out, nil
}

func searchMatch(at sql.Pos, x sql.Expr, re string, any bool) sql.Expr {
	if any {
		return &sql.Is{At: at, X: x, Not: true, Is: sql.IsNull}
	}
	return &sql.Like{At: at, Op: sql.OpRLike, X: x, Pattern: strLit(at, re)}
}

func (t *translator) searchCompare(sch *arrow.Schema, e *SearchCompare) (sql.Expr, error) {
	var x sql.Expr
	var dt arrow.DataType
	if sch == nil {
		r, err := t.ref(e.Field)
		if err != nil {
			return nil, err
		}
		x = r
	} else {
		var ok bool
		if x, dt, ok = searchField(e.At, sch, e.Field.Name); !ok {
			return nil, errAt(e.At, "search: field %s not found", e.Field.Name)
		}
	}
	isString := false
	switch dt.(type) {
	case *arrow.StringType, *arrow.LargeStringType:
		isString = true
	}
	if e.Op == "=" || e.Op == "!=" {
		var m sql.Expr
		switch {
		case isString:
			re, any := searchRegexp(e.Value.Text)
			m = searchMatch(e.At, x, re, any)
		case dt == nil:
			return nil, errAt(e.At, "search: %s=%s needs the source's schema", e.Field.Name, e.Value.Text)
		case strings.ContainsAny(e.Value.Text, "*?"):
			return nil, errAt(e.Value.At, "search: wildcard %s on %s, which is not a string field (%s)", e.Value.Text, e.Field.Name, types.SQLName(dt))
		default:
			m = &sql.Binary{At: e.At, Op: sql.OpEq, L: x, R: searchLit(e.Value)}
		}
		if e.Op == "!=" {
			// != wants the field present, unlike NOT.
			return &sql.Binary{At: e.At, Op: sql.OpAnd, L: &sql.Is{At: e.At, X: x, Not: true, Is: sql.IsNull},
				R: &sql.Unary{At: e.At, Op: sql.OpNot, X: m}}, nil
		}
		return m, nil
	}
	ops := map[string]string{"<": sql.OpLt, "<=": sql.OpLe, ">": sql.OpGt, ">=": sql.OpGe}
	return &sql.Binary{At: e.At, Op: ops[e.Op], L: x, R: searchLit(e.Value)}, nil
}

// searchLit is a value as a SQL literal: a bare number is a number, the
// rest text the comparison casts.
func searchLit(v SearchValue) sql.Expr {
	if !v.Quoted {
		s := strings.TrimPrefix(v.Text, "-")
		neg := len(s) != len(v.Text)
		var lit *sql.Literal
		if _, err := strconv.ParseUint(s, 10, 63); err == nil {
			lit = &sql.Literal{At: v.At, Kind: sql.LitInteger, Value: s}
		} else if _, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "eEinfINFxX") {
			lit = &sql.Literal{At: v.At, Kind: sql.LitDecimal, Value: s}
		}
		if lit != nil {
			if neg {
				return &sql.Unary{At: v.At, Op: sql.OpNeg, X: lit}
			}
			return lit
		}
	}
	return strLit(v.At, unescapeSearch(v.Text))
}

func unescapeSearch(s string) string {
	return strings.NewReplacer(`\*`, `*`, `\?`, `?`, `\\`, `\`).Replace(s)
}

// searchField finds a field by its name as written: a column of that
// name (dots and all), else a path into nested structs, each step
// matched case-insensitively and possibly dotted itself.
func searchField(at sql.Pos, sch *arrow.Schema, name string) (sql.Expr, arrow.DataType, bool) {
	var walk func(x sql.Expr, fields []arrow.Field, parts []string) (sql.Expr, arrow.DataType, bool)
	walk = func(x sql.Expr, fields []arrow.Field, parts []string) (sql.Expr, arrow.DataType, bool) {
		for k := len(parts); k >= 1; k-- {
			n := strings.Join(parts[:k], ".")
			for _, f := range fields {
				if !strings.EqualFold(f.Name, n) {
					continue
				}
				var fx sql.Expr
				if x == nil {
					fx = col(at, f.Name)
				} else {
					fx = &sql.FieldAccess{At: at, X: x, Name: f.Name}
				}
				if k == len(parts) {
					return fx, f.Type, true
				}
				if st, ok := f.Type.(*arrow.StructType); ok {
					if r, dt, ok := walk(fx, st.Fields(), parts[k:]); ok {
						return r, dt, true
					}
				}
			}
		}
		return nil, nil, false
	}
	return walk(nil, sch.Fields(), strings.Split(name, "."))
}

// searchRegexp is the regular expression a search value matches as a
// run of whole words, ignoring case; any is set when it has no word
// (*), which any present value matches.
func searchRegexp(v string) (string, bool) {
	const word = `[\pL\pN_]`
	var words []string
	var cur strings.Builder
	has := false
	flush := func() {
		if has {
			words = append(words, cur.String())
		}
		cur.Reset()
		has = false
	}
	rs := []rune(v)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteString(regexp.QuoteMeta(string(rs[i])))
			has = true
		case r == '*':
			cur.WriteString(word + "*")
		case r == '?':
			cur.WriteString(word)
			has = true
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			cur.WriteString(regexp.QuoteMeta(string(r)))
			has = true
		default:
			flush()
		}
	}
	flush()
	if len(words) == 0 {
		return "", true
	}
	return `(?i)(^|[^\pL\pN_])` + strings.Join(words, `[^\pL\pN_]+`) + `([^\pL\pN_]|$)`, false
}

// searchTime bounds the implicit @timestamp field, both ends inclusive.
func (t *translator) searchTime(sch *arrow.Schema, e *SearchTime) (sql.Expr, error) {
	name := "earliest"
	op := sql.OpGe
	if e.Latest {
		name, op = "latest", sql.OpLe
	}
	var x sql.Expr = col(e.At, "@timestamp")
	if sch != nil {
		f, _, ok := searchField(e.At, sch, "@timestamp")
		if !ok {
			return nil, errAt(e.At, "search: %s= needs a @timestamp field", name)
		}
		x = f
	}
	bound := &sql.Call{At: e.At, Name: "ppl_relative_time", Args: []sql.Expr{strLit(e.At, e.Modifier)}}
	return &sql.Binary{At: e.At, Op: op, L: x, R: bound}, nil
}
