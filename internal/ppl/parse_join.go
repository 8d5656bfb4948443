package ppl

import (
	"strings"

	"sluice/internal/sql"
)

func (p *parser) lookupFields() ([]LookupField, error) {
	var out []LookupField
	for {
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		lf := LookupField{At: n.At, Name: n.Name}
		if p.acceptKw("as") {
			lf.AsAt = p.tok().pos
			a, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			lf.As = a.Name
		}
		out = append(out, lf)
		if !p.acceptOp(",") {
			return out, nil
		}
	}
}

func (p *parser) lookup(at sql.Pos) (*Lookup, error) {
	name, _, err := p.tableName()
	if err != nil {
		return nil, err
	}
	l := &Lookup{At: at, Table: name}
	if l.Keys, err = p.lookupFields(); err != nil {
		return nil, err
	}
	switch {
	case p.acceptKw("replace"), p.acceptKw("output"):
	case p.acceptKw("append"):
		l.Append = true
	default:
		return l, nil
	}
	l.Cols, err = p.lookupFields()
	return l, err
}

// join reads [type] join [type=t] [overwrite=b] [max=n] [left = l]
// [right = r] (on|where) cond | fields, then the right dataset.
func (p *parser) join() (*Join, error) {
	j := &Join{At: p.tok().pos, Kind: "inner"}
	var kind []string
	for !p.atKw("join") {
		t := p.tok()
		if t.kind != tkIdent || len(kind) == 2 {
			return nil, p.errExpected("join")
		}
		kind = append(kind, strings.ToLower(t.text))
		p.advance()
	}
	p.advance()
	if len(kind) > 0 {
		k, err := joinKind(strings.Join(kind, " "), j.At)
		if err != nil {
			return nil, err
		}
		j.Kind = k
	}
	for {
		k, v, ok := p.option("type", "overwrite", "max", "left", "right")
		if !ok {
			break
		}
		switch k {
		case "type":
			kk, err := joinKind(strings.ToLower(v.text), v.pos)
			if err != nil {
				return nil, err
			}
			j.Kind = kk
		case "overwrite":
			b, err := boolValue(v)
			if err != nil {
				return nil, err
			}
			j.NoOverwrite = !b
		case "max":
			n, err := optionInt(v, "join max", 0)
			if err != nil {
				return nil, err
			}
			j.Max = n
		case "left":
			j.LeftAlias = v.text
		case "right":
			j.RightAlias = v.text
		}
	}
	if p.acceptKw("on") || p.acceptKw("where") {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		j.On = e
	} else {
		// join a, b table2: the field list form; the last name is the
		// right dataset.
		for p.tok().kind == tkIdent && !p.atEnd() {
			if p.peek(1).kind == tkEOF || isOp(p.peek(1), "|") || isKw(p.peek(1), "as") {
				break
			}
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			j.Fields = append(j.Fields, n)
			p.acceptOp(",")
		}
	}
	j.RightAt = p.tok().pos
	if p.acceptOp("[") {
		sub, err := p.pipeline(true)
		if err != nil {
			return nil, err
		}
		if err := p.expectOp("]"); err != nil {
			return nil, err
		}
		j.Right = &Source{At: j.RightAt, Sub: sub}
	} else {
		name, at, err := p.tableName()
		if err != nil {
			return nil, err
		}
		j.Right = &Source{At: at, Table: name}
	}
	if p.acceptKw("as") {
		a, err := p.name("an alias")
		if err != nil {
			return nil, err
		}
		j.Right.Alias = a.Name
	}
	return j, nil
}

func joinKind(k string, at sql.Pos) (string, error) {
	switch k {
	case "inner", "left", "right", "full", "cross", "semi", "anti":
		return k, nil
	case "outer", "left outer":
		return "left", nil
	case "right outer":
		return "right", nil
	case "full outer":
		return "full", nil
	case "left semi":
		return "semi", nil
	case "left anti":
		return "anti", nil
	}
	return "", syntaxErr(at, "unknown join type %q (want inner, left, right, full, cross, semi or anti)", k)
}
