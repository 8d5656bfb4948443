package ppl

import (
	"sluice/internal/sql"
)

// XYSeries is xyseries [sep=s] [format=f] x y in (v, ...) d, ...: a row
// per x value, a column per data field and listed y value.
type XYSeries struct {
	At          sql.Pos
	X, Y        Name
	Values      []string
	Data        []Name
	Sep, Format string
}

func (c *XYSeries) pos() sql.Pos { return c.At }

func (p *parser) xyseries(at sql.Pos) (*XYSeries, error) {
	c := &XYSeries{At: at, Sep: ": "}
	for {
		k, v, ok := p.option("sep", "format")
		if !ok {
			break
		}
		if v.kind != tkString {
			return nil, syntaxErr(v.pos, "xyseries %s: want a quoted string", k)
		}
		if k == "sep" {
			c.Sep = v.text
		} else {
			c.Format = v.text
		}
	}
	var err error
	if c.X, err = p.name("the x field"); err != nil {
		return nil, err
	}
	if c.Y, err = p.name("the y name field"); err != nil {
		return nil, err
	}
	if !p.acceptKw("in") {
		return nil, p.errExpected("in (\"value\", ...): xyseries pivots the listed values only")
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	for !p.acceptOp(")") {
		v := p.advance()
		if v.kind != tkString && v.kind != tkNumber {
			return nil, syntaxErr(v.pos, "xyseries in (...): want quoted values, not %s", describe(v))
		}
		c.Values = append(c.Values, v.text)
		if !p.atOp(")") {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
	}
	if len(c.Values) == 0 {
		return nil, syntaxErr(at, "xyseries in (...) needs at least one value")
	}
	for {
		n, err := p.name("a data field")
		if err != nil {
			return nil, err
		}
		c.Data = append(c.Data, n)
		if !p.acceptOp(",") {
			break
		}
	}
	return c, nil
}
