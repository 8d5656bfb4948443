package ppl

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// bin reads bin field [span=s] [minspan=n] [bins=n] [start=n] [end=n]
// [aligntime=t] [as alias], OpenSearch's options.
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
			return nil, p.errExpected("span=, bins=, minspan=, start=, end=, aligntime=, as or '|'")
		}
		switch k {
		case "span":
			if err := p.binSpan(b, f, v); err != nil {
				return nil, err
			}
		case "aligntime":
			switch {
			case v.kind == tkString || v.kind == tkNumber || v.kind == tkIdent && (isKw(v, "earliest") || isKw(v, "latest")):
				b.AlignTime = v.text
			default:
				return nil, syntaxErr(v.pos, "bin aligntime= wants earliest, latest, epoch seconds or a quoted time modifier such as '@d+3h', not %s", describe(v))
			}
		default:
			n, err := p.binNumber(k, v)
			if err != nil {
				return nil, err
			}
			switch k {
			case "bins":
				i, err := strconv.Atoi(n)
				if err != nil || i < 2 || i > 50000 {
					return nil, syntaxErr(v.pos, "bin bins= must be a whole number from 2 to 50000, not %s", n)
				}
				b.Bins = n
			case "minspan":
				b.MinSpan = n
			case "start":
				b.Start = n
			case "end":
				b.End = n
			}
		}
	}
	return b, nil
}

// binNumber reads the (possibly negative) number of option k whose first
// token is v.
func (p *parser) binNumber(k string, v token) (string, error) {
	sign := ""
	if isOp(v, "-") || isOp(v, "+") {
		if isOp(v, "-") {
			sign = "-"
		}
		v = p.advance()
	}
	if v.kind != tkNumber {
		return "", syntaxErr(v.pos, "bin %s= wants a number, not %s", k, describe(v))
	}
	if _, err := strconv.ParseFloat(v.text, 64); err != nil {
		return "", syntaxErr(v.pos, "bin %s= wants a number, not %s", k, v.text)
	}
	return sign + v.text, nil
}

// binSpan reads span=: a number, a time span (1h, 30seconds) or a log
// span ([c]log<b>: log10, 2log10, log2, ln).
func (p *parser) binSpan(b *Bin, f Name, v token) error {
	text := v.text
	if v.kind == tkNumber && p.tok().kind == tkIdent && p.tok().off == v.end {
		text += p.advance().text
	} else if v.kind == tkString {
		text = strings.TrimSpace(v.text)
	} else if v.kind != tkNumber && v.kind != tkDuration && v.kind != tkIdent {
		return syntaxErr(v.pos, "bin span=%s is not supported (want a number, a time span such as 1h or a log span such as log10)", v.text)
	}
	if m := binLogSpan.FindStringSubmatch(strings.ToLower(text)); m != nil {
		coef, base := 1.0, 0.0
		switch m[2] {
		case "e", "":
			base = math.E
		default:
			base, _ = strconv.ParseFloat(m[2], 64)
		}
		if m[1] != "" {
			var err error
			if coef, err = strconv.ParseFloat(m[1], 64); err != nil {
				return syntaxErr(v.pos, "bin span=%s: the log coefficient must be a number", text)
			}
		}
		if base <= 1 {
			return syntaxErr(v.pos, "bin span=%s: the log base must be above 1", text)
		}
		if coef <= 0 {
			return syntaxErr(v.pos, "bin span=%s: the log coefficient must be above 0", text)
		}
		b.LogCoef, b.LogBase = coef, base
		b.Span = &Span{At: v.pos}
		return nil
	}
	if v.kind == tkIdent {
		return syntaxErr(v.pos, "bin span=%s is not supported (want a number, a time span such as 1h or a log span such as log10)", v.text)
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
	return nil
}

// binLogSpan is a log span: coefficient, then base (e for loge and ln).
var binLogSpan = regexp.MustCompile(`^(?:(\d*\.?\d*)log(\d+\.?\d*|e)|()ln())$`)

// binUnits are bin's unit spellings that span() does not know.
var binUnits = map[string]string{
	"us": "microseconds", "cs": "centiseconds", "ds": "deciseconds",
	"secs": "s", "hr": "h", "hrs": "h", "mins": "m", "mon": "M",
}
