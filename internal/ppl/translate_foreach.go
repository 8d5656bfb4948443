package ppl

import (
	"regexp"
	"strings"

	"sluice/internal/sql"
)

// foreach runs its eval per iteration. multifield: for each field
// matching a target (in field order, each once), the eval's text with
// <<FIELD>> as the field's name and <<MATCHSTR>> as what the pattern's
// wildcards matched, an eval of its own (later ones see earlier ones).
// multivalue: each assignment t = e becomes
// t = aggregate(zip of the array and its indexes, t, (acc, el) -> e)
// with t as acc, <<ITEM>> the element and <<ITER>> its 0-based index.
func (t *translator) foreach(c *Foreach) error {
	if c.Mode == "multifield" {
		return t.foreachFields(c)
	}
	return t.foreachValues(c)
}

func (t *translator) foreachFields(c *Foreach) error {
	cols, err := t.columns()
	if err != nil {
		return err
	}
	type match struct{ field, str string }
	var ms []match
	seen := map[string]bool{}
	for _, tg := range c.Targets {
		found := false
		re := wildcardRegexp(tg.Name)
		for _, cc := range cols {
			m := re.FindStringSubmatch(cc)
			if m == nil || seen[strings.ToLower(cc)] {
				continue
			}
			seen[strings.ToLower(cc)], found = true, true
			ms = append(ms, match{cc, strings.Join(m[1:], "")})
		}
		if !found && !isWildcard(tg.Name) {
			return errAt(tg.At, "foreach: field %s not found", tg.Name)
		}
	}
	for _, m := range ms {
		text := substitute(c.Body, "<<"+c.Field+">>", m.field, true)
		text = substitute(text, "<<"+c.Match+">>", m.str, false)
		ev, err := t.foreachEval(c, text)
		if err != nil {
			return err
		}
		if err := t.eval(ev); err != nil {
			return err
		}
	}
	return nil
}

// foreachEval parses one iteration's eval text.
func (t *translator) foreachEval(c *Foreach, text string) (*Eval, error) {
	p := &parser{src: text, toks: tokenize(text, c.BodyAt, nil)}
	ev, err := p.eval(c.BodyAt)
	if err != nil {
		return nil, err
	}
	if p.tok().kind != tkEOF {
		return nil, p.errExpected("',' or ']'")
	}
	return ev, nil
}

var identChars = regexp.MustCompile(`^[A-Za-z_@][A-Za-z0-9_]*$`)

// substitute replaces each holder in text by name; a name that is no
// plain identifier standing alone is back-quoted (name true), so a
// dotted field stays one field.
func substitute(text, holder, val string, name bool) string {
	if !name || identChars.MatchString(val) {
		return strings.ReplaceAll(text, holder, val)
	}
	var b strings.Builder
	for {
		i := strings.Index(text, holder)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		before, after := text[:i], text[i+len(holder):]
		alone := (i == 0 || !isWordByte(before[len(before)-1])) && (after == "" || !isWordByte(after[0]))
		inQuote := strings.Count(before, "'")%2 == 1 || strings.Count(before, "\"")%2 == 1
		b.WriteString(before)
		if alone && !inQuote {
			b.WriteString("`" + val + "`")
		} else {
			b.WriteString(val)
		}
		text = after
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '`'
}

func (t *translator) foreachValues(c *Foreach) error {
	at := c.At
	if len(c.Targets) != 1 {
		return errAt(at, "foreach mode=%s takes one array field", c.Mode)
	}
	var arr sql.Expr
	if c.JSON != nil {
		arr = &sql.Call{At: at, Name: "array", Args: c.JSON}
	} else if c.Mode == "json_array" {
		return errAt(at, "foreach mode=json_array over a field is not supported (a JSON array string literal is)")
	} else {
		var err error
		if arr, err = t.ref(c.Targets[0]); err != nil {
			return err
		}
	}
	const item, iter = "__foreach_item", "__foreach_iter"
	text := c.Body
	for _, h := range []struct{ holder, with string }{{c.Item, item}, {c.Iter, iter}} {
		text = strings.ReplaceAll(text, "<<"+h.holder+">>", h.with)
		if h.holder != "ITEM" && h.holder != "ITER" {
			// A renamed placeholder may be written bare.
			text = regexp.MustCompile(`\b`+regexp.QuoteMeta(h.holder)+`\b`).ReplaceAllString(text, h.with)
		}
	}
	ev, err := t.foreachEval(c, text)
	if err != nil {
		return err
	}
	if len(ev.Assigns) != 1 {
		return errAt(at, "foreach mode=%s with more than one assignment is not supported", c.Mode)
	}
	a := ev.Assigns[0]
	target, ok, err := t.resolve(a.Name)
	if err != nil {
		return err
	}
	if !ok {
		return errAt(at, "foreach: %s must be a field already (set it with eval before foreach)", a.Name)
	}
	body, err := t.fixIf(a.Expr)
	if err != nil {
		return err
	}
	const acc, el = "__foreach_acc", "__foreach_el"
	walk(body, func(r *sql.ColumnRef) {
		switch {
		case len(r.Parts) == 1 && strings.EqualFold(r.Parts[0], target):
			r.Parts = []string{acc}
		case len(r.Parts) == 1 && r.Parts[0] == item:
			r.Parts = []string{el, "v"}
		case len(r.Parts) == 1 && r.Parts[0] == iter:
			r.Parts = []string{el, "i"}
		}
	})
	call := func(name string, args ...sql.Expr) sql.Expr { return &sql.Call{At: at, Name: name, Args: args} }
	pair := call("named_struct", strLit(at, "v"), col(at, "x"), strLit(at, "i"), col(at, "i"))
	zipped := call("transform", arr, &sql.Lambda{At: at, Params: []string{"x", "i"}, Body: pair})
	fold := call("aggregate", zipped, col(at, target), &sql.Lambda{At: at, Params: []string{acc, el}, Body: body})
	// A value that is no array is left as it was (OpenSearch's no-op).
	return t.replaceOrAppend(at, []string{target}, []sql.Expr{fold})
}
