package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// convertFuncs are convert's functions: ppl_convert's, ctime and mktime
// (ppl_ctime, ppl_mktime), and none, which keeps the value.
var convertFuncs = map[string]bool{"auto": true, "num": true, "rmcomma": true, "rmunit": true,
	"memk": true, "dur2sec": true, "mstime": true, "none": true, "ctime": true, "mktime": true}

// convert reads convert [timeformat=s] fn(f) [as a] [, fn(f) [as a]]...
func (p *parser) convert(at sql.Pos) (*Convert, error) {
	c := &Convert{At: at}
	if _, v, ok := p.option("timeformat"); ok {
		if v.kind != tkString {
			return nil, syntaxErr(v.pos, "convert timeformat= wants a quoted format")
		}
		c.TimeFormat = v.text
	}
	for {
		t := p.tok()
		if t.kind != tkIdent || t.quoted || !isOp(p.peek(1), "(") {
			return nil, p.errExpected("a conversion such as auto(field)")
		}
		fn := strings.ToLower(t.text)
		if !convertFuncs[fn] {
			return nil, syntaxErr(t.pos, "unknown convert function %s() (want auto, num, rmcomma, rmunit, memk, dur2sec, mstime, ctime, mktime or none)", t.text)
		}
		p.advance()
		p.advance()
		f, err := p.name("a field name")
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
		conv := Conversion{At: t.pos, Func: fn, Field: f}
		if p.atKw("as") {
			a, err := p.alias()
			if err != nil {
				return nil, err
			}
			conv.As = a
		}
		c.Convs = append(c.Convs, conv)
		if !p.acceptOp(",") {
			break
		}
	}
	if !p.atEnd() {
		return nil, p.errExpected("',' or '|'")
	}
	return c, nil
}
