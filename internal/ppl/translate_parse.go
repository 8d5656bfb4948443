package ppl

import (
	"regexp"

	"sluice/internal/sql"
)

// parse and grok: each named group of the pattern becomes a string field
// (regexp_extract, "" where the text does not match); a group named like
// an existing field replaces it. parse matches the whole text, as Java's
// Matcher.matches() does for OpenSearch; grok finds the pattern anywhere.
func (t *translator) parse(c *ParseRegex) error {
	field, err := t.fixIf(c.Field)
	if err != nil {
		return err
	}
	var pattern string
	var names []string
	var casts []string
	if c.Grok {
		pattern, names, casts, err = expandGrok(c.Pattern)
		if err != nil {
			return errAt(c.PatAt, "grok pattern: %v", err)
		}
	} else {
		pattern = "^(?:" + c.Pattern + ")$"
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return errAt(c.PatAt, "pattern: %v", err)
	}
	var outNames []string
	var exprs []sql.Expr
	for i, n := range re.SubexpNames() {
		if i == 0 {
			continue
		}
		name, cast := n, ""
		if c.Grok {
			// expandGrok names its groups g1, g2, ... in order of names.
			k := grokIndex(n)
			if k < 0 {
				continue
			}
			name, cast = names[k], casts[k]
		} else if n == "" {
			continue
		}
		var e sql.Expr = &sql.Call{At: c.PatAt, Name: "regexp_extract", Args: []sql.Expr{field, strLit(c.PatAt, pattern), intLit(c.PatAt, int64(i))}}
		if cast != "" {
			typ, _ := sql.ParseType(cast)
			e = &sql.Cast{At: c.PatAt, X: e, Type: typ, Try: true}
		}
		outNames = append(outNames, name)
		exprs = append(exprs, e)
	}
	if len(outNames) == 0 {
		return errAt(c.PatAt, "pattern has no named group (?<name>...) to extract")
	}
	return t.replaceOrAppend(c.At, outNames, exprs)
}

// fillNull replaces NULLs of the listed fields (every field when none
// is listed) with coalesce.
func (t *translator) fillNull(c *FillNull) error {
	var names []string
	var exprs []sql.Expr
	fill := func(n Name, v sql.Expr) error {
		r, ok, err := t.resolve(n.Name)
		if err != nil {
			return err
		}
		if !ok {
			return errAt(n.At, "field %s not found", n.Name)
		}
		names = append(names, r)
		exprs = append(exprs, &sql.Call{At: n.At, Name: "coalesce", Args: []sql.Expr{col(n.At, r), v}})
		return nil
	}
	switch {
	case c.Using != nil:
		for _, a := range c.Using {
			if err := fill(Name{At: a.At, Name: a.Name}, a.Expr); err != nil {
				return err
			}
		}
	case c.Fields != nil:
		for _, n := range c.Fields {
			if err := fill(n, c.With); err != nil {
				return err
			}
		}
	default:
		cols, err := t.columns()
		if err != nil {
			return err
		}
		for _, cc := range cols {
			if err := fill(Name{At: c.At, Name: cc}, c.With); err != nil {
				return err
			}
		}
	}
	return t.replaceOrAppend(c.At, names, exprs)
}
