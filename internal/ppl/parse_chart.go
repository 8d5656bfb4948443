package ppl

import (
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// Chart is chart [options] agg [as n] [by row [span=s] [, col]] or
// [over row [span=s]] [by col]: one aggregation per row split value (and
// column split category).
type Chart struct {
	At       sql.Pos
	Agg      Agg
	Row, Col *ChartSplit
	Limit    int64
	Bottom   bool
	UseOther bool
	OtherStr string
	UseNull  bool
	NullStr  string
}

// ChartSplit is a split field, with span= a bucket of it.
type ChartSplit struct {
	Field Name
	Span  *Span
}

func (c *Chart) pos() sql.Pos { return c.At }

// chart reads chart's options (before or after the aggregation), the
// aggregation and its splits.
func (p *parser) chart(at sql.Pos) (*Chart, error) {
	c := &Chart{At: at, Limit: 10, UseOther: true, OtherStr: "OTHER", UseNull: true, NullStr: "NULL"}
	hasAgg := false
	for !p.atEnd() {
		if k, v, ok := p.option("limit", "useother", "usenull", "nullstr", "otherstr"); ok {
			var err error
			switch k {
			case "limit":
				err = chartLimit(c, p, v)
			case "useother":
				c.UseOther, err = boolValue(v)
			case "usenull":
				c.UseNull, err = boolValue(v)
			case "nullstr", "otherstr":
				if v.kind != tkString && v.kind != tkIdent {
					return nil, syntaxErr(v.pos, "chart %s: want a string", k)
				}
				if k == "nullstr" {
					c.NullStr = v.text
				} else {
					c.OtherStr = v.text
				}
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		if !hasAgg {
			from := p.i
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.Agg = Agg{At: e.Pos(), Call: e, Name: p.text(from)}
			if n, err := p.alias(); err != nil {
				return nil, err
			} else if n != "" {
				c.Agg.Name = n
			}
			hasAgg = true
			if p.atOp(",") {
				return nil, syntaxErr(p.tok().pos, "chart takes one aggregation")
			}
			continue
		}
		switch {
		case p.atKw("over") && c.Row == nil && c.Col == nil:
			p.advance()
			s, err := p.chartSplit()
			if err != nil {
				return nil, err
			}
			c.Row = s
		case p.atKw("by") && c.Col == nil:
			p.advance()
			s, err := p.chartSplit()
			if err != nil {
				return nil, err
			}
			if c.Row != nil {
				c.Col = s
				break
			}
			c.Row = s
			if p.atOp(",") {
				p.advance()
			}
			if !p.atEnd() && p.tok().kind == tkIdent && !p.atKw("by") && !p.atKw("over") {
				if _, _, ok := p.peekOption(); !ok {
					if c.Col, err = p.chartSplit(); err != nil {
						return nil, err
					}
				}
			}
		default:
			return nil, p.errExpected("a chart option, over, by or '|'")
		}
	}
	if !hasAgg {
		return nil, p.errExpected("an aggregation such as count()")
	}
	return c, nil
}

// peekOption reports whether the next tokens are key=value.
func (p *parser) peekOption() (string, token, bool) {
	t := p.tok()
	if t.kind == tkIdent && !t.quoted && isOp(p.peek(1), "=") {
		return t.text, p.peek(2), true
	}
	return "", token{}, false
}

// chartSplit reads field [span=s].
func (p *parser) chartSplit() (*ChartSplit, error) {
	n, err := p.name("a field name")
	if err != nil {
		return nil, err
	}
	s := &ChartSplit{Field: n}
	if _, v, ok := p.option("span"); ok {
		text := v.text
		if v.kind == tkNumber && p.tok().kind == tkIdent && p.tok().off == v.end {
			text += p.advance().text
		} else if v.kind != tkNumber && v.kind != tkDuration {
			return nil, syntaxErr(v.pos, "chart span=%s: want a number or a time span such as 1h", v.text)
		}
		i := 0
		for i < len(text) && (isDigit(text[i]) || text[i] == '.') {
			i++
		}
		unit := text[i:]
		if u, ok := binUnits[unit]; ok {
			unit = u
		}
		s.Span = &Span{At: v.pos, Size: text[:i], Unit: unit}
	}
	return s, nil
}

// chartLimit reads limit=N, topN or bottomN (0: no limit).
func chartLimit(c *Chart, p *parser, v token) error {
	text := v.text
	if v.kind == tkNumber && p.tok().kind == tkIdent && p.tok().off == v.end {
		text += p.advance().text
	}
	low := strings.ToLower(text)
	switch {
	case strings.HasPrefix(low, "top"):
		low = low[3:]
	case strings.HasPrefix(low, "bottom"):
		low, c.Bottom = low[6:], true
	}
	n, err := strconv.ParseInt(low, 10, 64)
	if err != nil || n < 0 {
		return syntaxErr(v.pos, "chart limit=%s: want a whole number, topN or bottomN", text)
	}
	c.Limit = n
	return nil
}
