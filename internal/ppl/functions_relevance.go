package ppl

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
)

// relevanceFns are PPL's full-text functions; the ones taking a field
// list first are marked.
var relevanceFns = map[string]bool{
	"match": false, "match_phrase": false, "match_phrase_prefix": false, "match_bool_prefix": false,
	"multi_match": true, "simple_query_string": true, "query_string": true,
}

// mapRelevance translates match(f, 'q', opt=v, ...) and its kin. match
// and match_phrase without options stay the registry's (which connectors
// push down); the rest become ppl_relevance('fn', 'q', 'opt=v;...',
// fields...). ok is false for other names.
func mapRelevance(c *sql.Call, name string) (sql.Expr, bool, error) {
	multi, isRel := relevanceFns[name]
	if !isRel {
		return nil, false, nil
	}
	args, at := c.Args, c.At
	var fields []sql.Expr
	if q, isLit := args0(args).(*sql.Literal); multi && isLit && q.Kind == sql.LitString {
		// No field list: every text field, as the plugin's default_field *.
		fields = []sql.Expr{&sql.Call{At: at, Name: allFieldsCall}}
		args = append([]sql.Expr{nil}, args...)
	}
	if len(args) < 2 {
		return nil, true, syntaxErr(at, "%s takes fields and a query, then options", name)
	}
	var opts []string
	for _, a := range args[2:] {
		k, v, ok := option(a)
		if !ok {
			return nil, true, syntaxErr(a.Pos(), "%s: options are written name=value", name)
		}
		opts = append(opts, k+"="+v)
	}
	query, ok := args[1].(*sql.Literal)
	if !ok || query.Kind != sql.LitString {
		return nil, true, syntaxErr(args[1].Pos(), "%s: the query must be a string", name)
	}
	switch {
	case fields != nil:
	case multi:
		list, isList := args[0].(*sql.Call)
		if !isList || list.Name != fieldListCall {
			return nil, true, syntaxErr(args[0].Pos(), "%s: name the fields (['title', ...]) or leave them out", name)
		}
		for _, f := range list.Args {
			n := strings.TrimSpace(f.(*sql.Literal).Value)
			if i := strings.IndexByte(n, '^'); i >= 0 {
				n = n[:i] // a boost: no scores here
			}
			fields = append(fields, &sql.ColumnRef{At: f.Pos(), Parts: strings.Split(n, ".")})
		}
	default:
		if len(opts) == 0 && (name == "match" || name == "match_phrase") {
			return c, true, nil
		}
		fields = []sql.Expr{args[0]}
	}
	lit := func(s string) sql.Expr { return &sql.Literal{At: at, Kind: sql.LitString, Value: s} }
	return &sql.Call{At: at, Name: "ppl_relevance",
		Args: append([]sql.Expr{lit(name), args[1], lit(strings.Join(opts, ";"))}, fields...)}, true, nil
}

// args0 is the first argument, nil for none.
func args0(args []sql.Expr) sql.Expr {
	if len(args) == 0 {
		return nil
	}
	return args[0]
}

// allFieldsCall stands for "every text field" in a relevance function's
// fields until the translator knows the input's columns (allFields).
const allFieldsCall = "__ppl_all_fields"

// allFields replaces allFieldsCall in the relevance calls of e with the
// input's string columns (every column when only names are known).
func (t *translator) allFields(e sql.Expr) error {
	c, ok := e.(*sql.Call)
	if !ok {
		if b, isBin := e.(*sql.Binary); isBin {
			if err := t.allFields(b.L); err != nil {
				return err
			}
			return t.allFields(b.R)
		}
		if u, isUn := e.(*sql.Unary); isUn {
			return t.allFields(u.X)
		}
		return nil
	}
	n := len(c.Args)
	if c.Name != "ppl_relevance" || n == 0 {
		for _, a := range c.Args {
			if err := t.allFields(a); err != nil {
				return err
			}
		}
		return nil
	}
	if m, isAll := c.Args[n-1].(*sql.Call); !isAll || m.Name != allFieldsCall {
		return nil
	}
	var fields []sql.Expr
	if t.schema != nil {
		sch, err := t.schema(t.q)
		if err != nil {
			return err
		}
		for _, f := range sch.Fields() {
			if f.Type.ID() == arrow.STRING || f.Type.ID() == arrow.LARGE_STRING {
				fields = append(fields, col(c.At, f.Name))
			}
		}
	} else {
		cols, err := t.columns()
		if err != nil {
			return err
		}
		for _, f := range cols {
			fields = append(fields, col(c.At, f))
		}
	}
	if len(fields) == 0 {
		return syntaxErr(c.At, "%s: the input has no text field to search", c.Args[0].(*sql.Literal).Value)
	}
	c.Args = append(c.Args[:n-1], fields...)
	return nil
}

// option reads name=value (the value a literal or a bare word).
func option(e sql.Expr) (string, string, bool) {
	b, ok := e.(*sql.Binary)
	if !ok || b.Op != sql.OpEq {
		return "", "", false
	}
	k, ok := b.L.(*sql.ColumnRef)
	if !ok || len(k.Parts) != 1 {
		return "", "", false
	}
	switch v := b.R.(type) {
	case *sql.Literal:
		return k.Parts[0], v.Value, true
	case *sql.ColumnRef:
		return k.Parts[0], strings.Join(v.Parts, "."), true
	}
	return "", "", false
}

// fieldListCall names the call standing for a ['a', 'b'] field list
// while the arguments are read; only the relevance functions take one.
const fieldListCall = "__ppl_field_list"

// fieldList reads ['a', `b`, c] after its '['.
func (p *parser) fieldList() (sql.Expr, error) {
	l := &sql.Call{At: p.advance().pos, Name: fieldListCall}
	for !p.acceptOp("]") {
		t := p.tok()
		if t.kind != tkString && t.kind != tkIdent {
			return nil, p.errExpected("a field name")
		}
		p.advance()
		l.Args = append(l.Args, &sql.Literal{At: t.pos, Kind: sql.LitString, Value: t.text})
		if !p.atOp("]") {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}
