package ppl

import "sluice/internal/sql"

// appendCmd reads append [ source=... | ... ].
func (p *parser) appendCmd(at sql.Pos) (*Append, error) {
	if !p.acceptOp("[") {
		return nil, p.errExpected("'[' and a subsearch")
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	sub, err := p.pipeline(true)
	p.leave()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp("]"); err != nil {
		return nil, err
	}
	return &Append{At: at, Sub: sub}, nil
}

// expand reads expand field [as alias].
func (p *parser) expand(at sql.Pos) (*Expand, error) {
	f, err := p.name("a field name")
	if err != nil {
		return nil, err
	}
	e := &Expand{At: at, Field: f}
	e.As, err = p.alias()
	return e, err
}

// flatten reads flatten field [as a, b, ...] (or as (a, b, ...)).
func (p *parser) flatten(at sql.Pos) (*Flatten, error) {
	f, err := p.name("a field name")
	if err != nil {
		return nil, err
	}
	fl := &Flatten{At: at, Field: f}
	if !p.acceptKw("as") {
		return fl, nil
	}
	paren := p.acceptOp("(")
	for {
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		fl.As = append(fl.As, n)
		if !p.acceptOp(",") {
			break
		}
	}
	if paren {
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	return fl, nil
}

// appendCol reads appendcol [override=b] [ command | ... ].
func (p *parser) appendCol(at sql.Pos) (*AppendCol, error) {
	ac := &AppendCol{At: at}
	if _, v, ok := p.option("override"); ok {
		b, err := boolValue(v)
		if err != nil {
			return nil, err
		}
		ac.Override = b
	}
	var err error
	ac.Commands, err = p.subCommands()
	return ac, err
}

// subCommands reads [ command | ... ], a subsearch without a source.
func (p *parser) subCommands() ([]Command, error) {
	if !p.acceptOp("[") {
		return nil, p.errExpected("'[' and the commands of a subsearch")
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	var cmds []Command
	for {
		if len(cmds) == maxCommands {
			return nil, syntaxErr(p.tok().pos, "more than %d commands in one pipeline", maxCommands)
		}
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c)
		if !p.acceptOp("|") {
			break
		}
	}
	return cmds, p.expectOp("]")
}

// regex reads regex field = 'pattern' or regex field != 'pattern'.
func (p *parser) regex(at sql.Pos) (*Regex, error) {
	f, err := p.name("a field name")
	if err != nil {
		return nil, err
	}
	r := &Regex{At: at, Field: f}
	switch {
	case p.acceptOp("!="):
		r.Not = true
	case p.acceptOp("="):
	default:
		return nil, p.errExpected("'=' or '!='")
	}
	t := p.tok()
	if t.kind != tkString {
		return nil, p.errExpected("a quoted pattern")
	}
	p.advance()
	r.Pattern, r.PatAt = t.text, t.pos
	return r, nil
}

// mvexpand reads mvexpand field [limit=n].
func (p *parser) mvexpand(at sql.Pos) (*Expand, error) {
	f, err := p.name("a field name")
	if err != nil {
		return nil, err
	}
	e := &Expand{At: at, Field: f}
	if _, v, ok := p.option("limit"); ok {
		if e.Limit, err = optionInt(v, "limit", 1); err != nil {
			return nil, err
		}
	}
	return e, nil
}
