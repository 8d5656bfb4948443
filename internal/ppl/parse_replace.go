package ppl

import (
	"sluice/internal/sql"
)

// replace reads replace 'p' WITH 'r' [, 'p' WITH 'r']... IN f [, f]...
func (p *parser) replace(at sql.Pos) (*Replace, error) {
	r := &Replace{At: at}
	for {
		t := p.tok()
		if t.kind != tkString {
			return nil, p.errExpected("a quoted pattern ('text' WITH 'replacement')")
		}
		p.advance()
		if err := p.expectKw("with"); err != nil {
			return nil, err
		}
		w := p.tok()
		if w.kind != tkString {
			return nil, p.errExpected("a quoted replacement")
		}
		p.advance()
		r.Pairs = append(r.Pairs, ReplacePair{At: t.pos, Pattern: t.text, Replacement: w.text})
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectKw("in"); err != nil {
		return nil, err
	}
	for {
		n, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		r.Fields = append(r.Fields, n)
		if !p.acceptOp(",") {
			break
		}
	}
	if !p.atEnd() {
		return nil, p.errExpected("',' or '|'")
	}
	return r, nil
}
