package ppl

import (
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/sql"
	"sluice/internal/types"
)

// replace rewrites each field in place with every pair applied in order,
// as OpenSearch does: a pattern without * replaces each occurrence of
// its text (SQL replace); one with * must match the whole value, each *
// capturing lazily, and each * of the replacement is the next capture
// (or, with none, the whole value is replaced). \* is a literal * and
// \\ a backslash. A nested path (`a.b.c`) becomes a column of that name.
func (t *translator) replace(c *Replace) error {
	cols, err := t.columns()
	if err != nil {
		return err
	}
	var sch *arrow.Schema
	if t.schema != nil {
		if sch, err = t.schema(t.q); err != nil {
			return err
		}
	}
	var names []string
	var exprs []sql.Expr
	for _, f := range c.Fields {
		var x sql.Expr
		name := f.Name
		if cc, ok, err := t.resolve(f.Name); err != nil {
			return err
		} else if ok {
			x, name = col(f.At, cc), cc
		}
		var dt arrow.DataType
		if sch != nil {
			fx, fdt, ok := searchField(f.At, sch, f.Name)
			if !ok {
				return errAt(f.At, "replace: field %s not found", f.Name)
			}
			if x == nil {
				x = fx
			}
			dt = fdt
		} else if x == nil {
			return errAt(f.At, "replace: field %s not found", f.Name)
		}
		switch dt.(type) {
		case nil, *arrow.StringType, *arrow.LargeStringType:
		default:
			return errAt(f.At, "replace: field %s is %s, not a string", f.Name, types.SQLName(dt))
		}
		for _, p := range c.Pairs {
			if x, err = replaceExpr(p, x); err != nil {
				return err
			}
		}
		names, exprs = append(names, name), append(exprs, x)
	}
	return t.replaceOrAppendOf(c.At, cols, names, exprs)
}

func replaceExpr(p ReplacePair, x sql.Expr) (sql.Expr, error) {
	parts, stars, err := splitStars(p.Pattern)
	if err != nil {
		return nil, errAt(p.At, "replace: pattern %q: %v", p.Pattern, err)
	}
	if !strings.Contains(p.Pattern, "*") {
		return &sql.Call{At: p.At, Name: "replace", Args: []sql.Expr{x, strLit(p.At, p.Pattern), strLit(p.At, p.Replacement)}}, nil
	}
	rparts, rstars, err := splitStars(p.Replacement)
	if err != nil {
		return nil, errAt(p.At, "replace: replacement %q: %v", p.Replacement, err)
	}
	if rstars != 0 && rstars != stars {
		return nil, errAt(p.At, "replace: the pattern has %d wildcard(s), the replacement %d: it needs as many or none", stars, rstars)
	}
	var re strings.Builder
	re.WriteString("^")
	for i, s := range parts {
		re.WriteString(regexp.QuoteMeta(s))
		if i < len(parts)-1 {
			re.WriteString("(.*?)")
		}
	}
	re.WriteString("$")
	// regexp_replace reads $n as a group; a literal $ in the replacement
	// would need an escape it does not have.
	var rep strings.Builder
	for i, s := range rparts {
		if strings.Contains(s, "$") {
			return nil, errAt(p.At, "replace: a $ in a wildcard replacement is not supported")
		}
		rep.WriteString(s)
		if i < len(rparts)-1 {
			rep.WriteString("$" + string(rune('0'+i+1)))
		}
	}
	if stars > 9 {
		return nil, errAt(p.At, "replace: at most 9 wildcards")
	}
	return &sql.Call{At: p.At, Name: "regexp_replace", Args: []sql.Expr{x, strLit(p.At, re.String()), strLit(p.At, rep.String())}}, nil
}

// splitStars splits s at its unescaped *s, taking \* and \\ as literal.
func splitStars(s string) ([]string, int, error) {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			if i+1 == len(s) {
				return nil, 0, errorString("ends with an unescaped backslash")
			}
			i++
			cur.WriteByte(s[i])
		case c == '*':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, cur.String())
	return parts, len(parts) - 1, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }
