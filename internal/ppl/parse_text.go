package ppl

import (
	"strings"

	"sluice/internal/sql"
)

func (p *parser) parse(at sql.Pos, grok bool) (*ParseRegex, error) {
	f, err := p.primary()
	if err != nil {
		return nil, err
	}
	t := p.tok()
	if t.kind != tkString {
		return nil, p.errExpected("a quoted pattern")
	}
	p.advance()
	return &ParseRegex{At: at, Field: f, Pattern: t.text, PatAt: t.pos, Grok: grok}, nil
}

func (p *parser) patterns(at sql.Pos) (*Patterns, error) {
	pt := &Patterns{At: at, NewField: "patterns_field"}
	for !p.atEnd() {
		if k, v, ok := p.option("new_field", "pattern", "method", "mode"); ok {
			switch k {
			case "new_field":
				pt.NewField = v.text
			case "pattern":
				if v.kind != tkString {
					return nil, syntaxErr(v.pos, "pattern: want a quoted regular expression")
				}
				pt.Pattern = v.text
			case "method":
				if !strings.EqualFold(v.text, "simple_pattern") {
					return nil, syntaxErr(v.pos, "patterns method %q is not supported (only simple_pattern)", v.text)
				}
			case "mode":
				if !strings.EqualFold(v.text, "label") {
					return nil, syntaxErr(v.pos, "patterns mode %q is not supported (only label)", v.text)
				}
			}
			continue
		}
		if pt.Field != nil {
			return nil, p.errExpected("'|' or end of query")
		}
		f, err := p.primary()
		if err != nil {
			return nil, err
		}
		pt.Field = f
	}
	if pt.Field == nil {
		return nil, p.errExpected("a field name")
	}
	return pt, nil
}

func (p *parser) fillNull(at sql.Pos) (*FillNull, error) {
	f := &FillNull{At: at}
	switch {
	case p.acceptKw("with"):
		e, err := p.additive()
		if err != nil {
			return nil, err
		}
		f.With = e
		if p.acceptKw("in") {
			if f.Fields, err = p.names("a field name"); err != nil {
				return nil, err
			}
		}
	case p.acceptKw("using"):
		for {
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("="); err != nil {
				return nil, err
			}
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			f.Using = append(f.Using, Assign{At: n.At, Name: n.Name, Expr: e})
			if !p.acceptOp(",") {
				break
			}
		}
	case p.atKw("value") && isOp(p.peek(1), "="):
		p.advance()
		p.advance()
		e, err := p.primary()
		if err != nil {
			return nil, err
		}
		f.With = e
		for !p.atEnd() {
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			f.Fields = append(f.Fields, n)
			p.acceptOp(",")
		}
	default:
		return nil, p.errExpected("with, using or value=")
	}
	return f, nil
}
