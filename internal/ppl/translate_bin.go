package ppl

import (
	"regexp"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// bin replaces a field by its bucket (under the alias, if given, in its
// place): for a number, the string "lo-hi" of its span-wide bucket
// (floor(x / span) * span; whole numbers when the span is one), as
// OpenSearch prints it; for a time, the bucket's start (a tumbling window
// from the epoch, date_trunc for months).
func (t *translator) bin(c *Bin) error {
	at := c.At
	f, ok, err := t.resolve(c.Field.Name)
	if err != nil {
		return err
	}
	x := sql.Expr(col(c.Field.At, f))
	if !ok {
		if !strings.Contains(c.Field.Name, ".") {
			return errAt(c.Field.At, "field %s not found", c.Field.Name)
		}
		// A path into structs: its bucket is a column of the dotted name.
		if x, err = t.ref(c.Field); err != nil {
			return err
		}
		f = c.Field.Name
	}
	e, err := t.binExpr(c, x)
	if err != nil {
		return err
	}
	if c.As == "" || strings.EqualFold(c.As, f) {
		return t.replaceOrAppend(at, []string{f}, []sql.Expr{e})
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	from := t.sub(at)
	var items []*sql.SelectItem
	for _, cc := range cols {
		switch {
		case cc == f:
			items = append(items, item(e, c.As))
		case strings.EqualFold(cc, c.As):
		default:
			items = append(items, item(col(at, from.Alias, cc), cc))
		}
	}
	t.set(&sql.Select{At: at, Items: items, From: from})
	return nil
}

// binExpr is the bucket of x by c's options, in OpenSearch's priority:
// span, minspan, bins, start/end, else the default.
func (t *translator) binExpr(c *Bin, x sql.Expr) (sql.Expr, error) {
	at := c.At
	num := func(s string) sql.Expr { return numberLiteral(token{text: s, pos: at}) }
	call := func(kind string, args ...sql.Expr) sql.Expr {
		return &sql.Call{At: at, Name: "ppl_bin", Args: append([]sql.Expr{strLit(at, kind), x}, args...)}
	}
	over := func(agg string) sql.Expr {
		return &sql.Call{At: at, Name: agg, Args: []sql.Expr{call("num")}, Over: &sql.WindowSpec{At: at}}
	}
	rng := func() sql.Expr { return &sql.Binary{At: at, Op: sql.OpSub, L: over("max"), R: over("min")} }
	switch {
	case c.Span != nil && c.LogBase > 0:
		f := func(v float64) sql.Expr { return num(strconv.FormatFloat(v, 'f', -1, 64)) }
		return call("log", f(c.LogCoef), f(c.LogBase)), nil
	case c.Span != nil:
		return t.binSpan(c, x)
	case c.MinSpan != "":
		return call("minspan", num(c.MinSpan), rng()), nil
	case c.Bins != "":
		return call("bins", num(c.Bins), rng(), over("max")), nil
	case c.Start != "" || c.End != "":
		opt := func(s string) sql.Expr {
			if s == "" {
				return &sql.Cast{At: at, X: &sql.Literal{At: at, Kind: sql.LitNull}, Type: mustType("DOUBLE")}
			}
			return num(s)
		}
		return call("range", over("min"), over("max"), opt(c.Start), opt(c.End)), nil
	}
	return call("default", rng()), nil
}

// binSpan is span=: a number's "lo-hi" bucket, a time's bucket start,
// aligned to aligntime= for spans under a day.
func (t *translator) binSpan(c *Bin, x sql.Expr) (sql.Expr, error) {
	at := c.At
	c.Span.Field = x
	switch c.Span.Unit {
	case "microseconds", "centiseconds", "deciseconds":
		if c.AlignTime != "" {
			return nil, errAt(c.Span.At, "bin aligntime= with a span under a second is not supported")
		}
		n, err := strconv.ParseFloat(c.Span.Size, 64)
		if err != nil {
			return nil, errAt(c.Span.At, "span size %q must be a number", c.Span.Size)
		}
		c.Span.Size = strconv.FormatFloat(n*map[string]float64{"microseconds": 0.001, "centiseconds": 10, "deciseconds": 100}[c.Span.Unit], 'f', -1, 64)
		c.Span.Unit = "ms"
	}
	if c.Span.Unit == "" {
		size, err := strconv.ParseFloat(c.Span.Size, 64)
		if err != nil || size <= 0 {
			return nil, errAt(c.Span.At, "span %q must be a positive number", c.Span.Size)
		}
		// Text holding a number (rex's groups) bins as the number.
		c.Span.Field = &sql.Call{At: at, Name: "ppl_bin", Args: []sql.Expr{strLit(at, "num"), x}}
		lo, _, err := t.spanExpr(c.Span)
		if err != nil {
			return nil, err
		}
		var hi sql.Expr = &sql.Binary{At: at, Op: sql.OpAdd, L: lo, R: numberLiteral(token{text: c.Span.Size, pos: at})}
		str := func(x sql.Expr) sql.Expr {
			if size == float64(int64(size)) && !strings.Contains(c.Span.Size, ".") {
				x = &sql.Cast{At: at, X: x, Type: mustType("BIGINT")}
			}
			return &sql.Cast{At: at, X: x, Type: mustType("STRING")}
		}
		return &sql.Call{At: at, Name: "concat", Args: []sql.Expr{str(lo), strLit(at, "-"), str(hi)}}, nil
	}
	if c.AlignTime != "" {
		if e, ok, err := t.binAligned(c, x); ok || err != nil {
			return e, err
		}
	}
	b, window, err := t.spanExpr(c.Span)
	if err != nil {
		return nil, err
	}
	if window {
		b = &sql.FieldAccess{At: c.Span.At, X: b, Name: "start"}
	}
	return b, nil
}

// binAligned is a time span under a day aligned as OpenSearch's
// AlignmentHandler does: ref + floor((t - ref) / span) * span in epoch
// seconds, ref the epoch seconds given, or for '@d[+-]offset' the start
// of the earliest row's day plus the offset. Day and month spans, and
// earliest/latest, keep the plain buckets (ok false), as in OpenSearch.
func (t *translator) binAligned(c *Bin, x sql.Expr) (sql.Expr, bool, error) {
	at := c.At
	unit := spanUnits[c.Span.Unit]
	if unit == "" {
		unit = spanUnits[strings.ToLower(c.Span.Unit)]
	}
	secs := map[string]float64{"seconds": 1, "minutes": 60, "hours": 3600}[unit]
	if secs == 0 {
		if unit == "milliseconds" {
			return nil, false, errAt(c.Span.At, "bin aligntime= with a span under a second is not supported")
		}
		return nil, false, nil
	}
	n, err := strconv.ParseFloat(c.Span.Size, 64)
	if err != nil || n <= 0 {
		return nil, false, errAt(c.Span.At, "span size %q must be a positive number", c.Span.Size)
	}
	ts := &sql.Cast{At: at, X: x, Type: mustType("TIMESTAMP")}
	epoch := func(e sql.Expr) sql.Expr { return &sql.Call{At: at, Name: "unix_seconds", Args: []sql.Expr{e}} }
	lit := func(v float64) sql.Expr {
		return numberLiteral(token{text: strconv.FormatFloat(v, 'f', -1, 64), pos: at})
	}
	a := strings.TrimSpace(c.AlignTime)
	var ref sql.Expr
	switch {
	case strings.EqualFold(a, "earliest") || strings.EqualFold(a, "latest"):
		return nil, false, nil
	case binEpoch.MatchString(a):
		ref = numberLiteral(token{text: a, pos: at})
	default:
		m := binDayModifier.FindStringSubmatch(strings.ToLower(a))
		if m == nil {
			return nil, false, errAt(c.At, "bin aligntime=%q is not supported (want earliest, latest, epoch seconds or '@d', '@d+3h', '@d-30m')", a)
		}
		off := 0.0
		if m[2] != "" {
			v, _ := strconv.ParseFloat(m[2], 64)
			off = v * map[string]float64{"h": 3600, "": 3600, "m": 60, "s": 1}[m[3]]
			if m[1] == "-" {
				off = -off
			}
		}
		first := &sql.Call{At: at, Name: "min", Args: []sql.Expr{epoch(ts)}, Over: &sql.WindowSpec{At: at}}
		day := &sql.Binary{At: at, Op: sql.OpMul, L: &sql.Call{At: at, Name: "floor", Args: []sql.Expr{&sql.Binary{At: at, Op: sql.OpDiv, L: first, R: lit(86400)}}}, R: lit(86400)}
		ref = &sql.Binary{At: at, Op: sql.OpAdd, L: day, R: lit(off)}
	}
	iv := lit(n * secs)
	k := &sql.Call{At: at, Name: "floor", Args: []sql.Expr{&sql.Binary{At: at, Op: sql.OpDiv, L: &sql.Binary{At: at, Op: sql.OpSub, L: epoch(ts), R: ref}, R: iv}}}
	start := &sql.Binary{At: at, Op: sql.OpAdd, L: ref, R: &sql.Binary{At: at, Op: sql.OpMul, L: k, R: iv}}
	return &sql.Call{At: at, Name: "timestamp_seconds", Args: []sql.Expr{start}}, true, nil
}

var (
	binEpoch       = regexp.MustCompile(`^\d+$`)
	binDayModifier = regexp.MustCompile(`^@d(?:([+-])(\d+)([hms]?))?$`)
)
