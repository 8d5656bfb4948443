package ppl

import (
	"strings"

	"sluice/internal/sql"
)

// bin reads bin field span=s [as alias]; the other options of
// OpenSearch's bin are refused.
func (p *parser) bin(at sql.Pos) (*Bin, error) {
	f, err := p.name("a field name")
	if err != nil {
		return nil, err
	}
	b := &Bin{At: at, Field: f}
	for !p.atEnd() {
		if p.atKw("as") {
			if b.As, err = p.alias(); err != nil {
				return nil, err
			}
			continue
		}
		k, v, ok := p.option("span", "bins", "minspan", "start", "end", "aligntime")
		if !ok {
			return nil, p.errExpected("span=, as or '|'")
		}
		if k != "span" {
			return nil, syntaxErr(v.pos, "bin %s= is not supported (only span=)", k)
		}
		text := v.text
		if v.kind == tkNumber && p.tok().kind == tkIdent && p.tok().off == v.end {
			text += p.advance().text
		} else if v.kind != tkNumber && v.kind != tkDuration {
			return nil, syntaxErr(v.pos, "bin span=%s is not supported (want a number or a time span such as 1h)", v.text)
		}
		i := 0
		for i < len(text) && (isDigit(text[i]) || text[i] == '.') {
			i++
		}
		unit := text[i:]
		if u, ok := binUnits[unit]; ok {
			unit = u
		}
		b.Span = &Span{At: v.pos, Field: &sql.ColumnRef{At: f.At, Parts: strings.Split(f.Name, ".")}, Size: text[:i], Unit: unit}
		if strings.HasPrefix(f.Name, "@") {
			b.Span.Field = &sql.ColumnRef{At: f.At, Parts: []string{f.Name}}
		}
	}
	if b.Span == nil {
		return nil, syntaxErr(at, "bin needs span= (bins=, minspan=, start= and end= are not supported)")
	}
	return b, nil
}

// binUnits are bin's unit spellings that span() does not know.
var binUnits = map[string]string{
	"us": "microseconds", "cs": "centiseconds", "ds": "deciseconds",
	"secs": "s", "hr": "h", "hrs": "h", "mins": "m", "mon": "M",
}
