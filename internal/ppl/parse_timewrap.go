package ppl

import (
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// Timewrap is timewrap [n]unit [align=end]: a timechart's buckets
// wrapped into one column per period of n units.
type Timewrap struct {
	At      sql.Pos
	N       int64
	Unit    string // second, minute, hour, day or week
	Seconds int64  // one unit's length
}

func (c *Timewrap) pos() sql.Pos { return c.At }

// timewrapUnits maps timewrap's unit spellings to a name and its seconds.
var timewrapUnits = map[string]struct {
	name string
	secs int64
}{
	"s": {"second", 1}, "sec": {"second", 1}, "secs": {"second", 1}, "second": {"second", 1}, "seconds": {"second", 1},
	"m": {"minute", 60}, "min": {"minute", 60}, "mins": {"minute", 60}, "minute": {"minute", 60}, "minutes": {"minute", 60},
	"h": {"hour", 3600}, "hr": {"hour", 3600}, "hrs": {"hour", 3600}, "hour": {"hour", 3600}, "hours": {"hour", 3600},
	"d": {"day", 86400}, "day": {"day", 86400}, "days": {"day", 86400},
	"w": {"week", 604800}, "week": {"week", 604800}, "weeks": {"week", 604800},
}

func (p *parser) timewrap(at sql.Pos) (*Timewrap, error) {
	v := p.advance()
	text := v.text
	if v.kind == tkNumber && p.tok().kind == tkIdent && p.tok().off == v.end {
		text += p.advance().text
	} else if v.kind != tkDuration && v.kind != tkIdent {
		return nil, syntaxErr(v.pos, "timewrap: want a span such as 1day or week, not %s", describe(v))
	}
	i := 0
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	n := int64(1)
	if i > 0 {
		n, _ = strconv.ParseInt(text[:i], 10, 64)
	}
	u, ok := timewrapUnits[strings.ToLower(text[i:])]
	if text[i:] == "M" || !ok {
		return nil, syntaxErr(v.pos, "timewrap %s: want a unit s, m, h, d or w (months, quarters and years are not supported)", text)
	}
	if n <= 0 {
		return nil, syntaxErr(v.pos, "timewrap %s: the span must be positive", text)
	}
	c := &Timewrap{At: at, N: n, Unit: u.name, Seconds: u.secs}
	if _, v, ok := p.option("align"); ok {
		if !isKw(v, "end") {
			return nil, syntaxErr(v.pos, "timewrap align=%s is not supported (only align=end)", v.text)
		}
	}
	return c, nil
}
