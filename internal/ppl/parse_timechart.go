package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// timechart reads timechart [options] agg [by field]; the options may
// also follow the aggregation.
func (p *parser) timechart(at sql.Pos) (*Timechart, error) {
	tc := &Timechart{At: at, TimeField: Name{At: at, Name: "@timestamp"}, Limit: 10, UseOther: true, UseNull: true, NullStr: "NULL"}
	span := "1m"
	spanAt := at
	hasAgg := false
	for !p.atEnd() {
		if k, v, ok := p.option("timefield", "span", "limit", "useother", "usenull", "nullstr"); ok {
			var err error
			switch k {
			case "timefield":
				if v.kind != tkIdent {
					return nil, syntaxErr(v.pos, "timefield: want a field name")
				}
				tc.TimeField = Name{At: v.pos, Name: v.text}
			case "span":
				if v.kind != tkDuration && v.kind != tkNumber {
					return nil, syntaxErr(v.pos, "span: want a time span such as 5m or 1h")
				}
				span, spanAt = v.text, v.pos
				if v.kind == tkNumber && p.tok().kind == tkIdent && p.tok().off == v.end {
					span += p.advance().text
				}
			case "limit":
				tc.Limit, err = optionInt(v, k, 0)
			case "useother":
				tc.UseOther, err = boolValue(v)
			case "usenull":
				tc.UseNull, err = boolValue(v)
			case "nullstr":
				if v.kind != tkString && v.kind != tkIdent {
					return nil, syntaxErr(v.pos, "nullstr: want a string")
				}
				tc.NullStr = v.text
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		if hasAgg {
			if !p.atKw("by") || tc.By != nil {
				return nil, p.errExpected("a timechart option, by or '|'")
			}
			p.advance()
			n, err := p.name("a field name")
			if err != nil {
				return nil, err
			}
			tc.By = &n
			continue
		}
		from := p.i
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		tc.Agg = Agg{At: e.Pos(), Call: e, Name: p.text(from)}
		if n, err := p.alias(); err != nil {
			return nil, err
		} else if n != "" {
			tc.Agg.Name = n
		}
		hasAgg = true
		if p.atOp(",") {
			return nil, syntaxErr(p.tok().pos, "timechart takes one aggregation")
		}
	}
	if !hasAgg {
		return nil, p.errExpected("an aggregation such as count()")
	}
	i := 0
	for i < len(span) && (isDigit(span[i]) || span[i] == '.') {
		i++
	}
	if i == 0 || i == len(span) {
		return nil, syntaxErr(spanAt, "span %q: want a number and a unit such as 5m", span)
	}
	tf := tc.TimeField
	tc.Span = &Span{At: spanAt, Field: &sql.ColumnRef{At: tf.At, Parts: strings.Split(tf.Name, ".")}, Size: span[:i], Unit: span[i:]}
	if strings.HasPrefix(tf.Name, "@") {
		tc.Span.Field = &sql.ColumnRef{At: tf.At, Parts: []string{tf.Name}}
	}
	return tc, nil
}
