package ppl

import (
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
	if !ok {
		return errAt(c.Field.At, "field %s not found", c.Field.Name)
	}
	c.Span.Field = col(c.Field.At, f)
	var e sql.Expr
	switch c.Span.Unit {
	case "microseconds", "centiseconds", "deciseconds":
		n, err := strconv.ParseFloat(c.Span.Size, 64)
		if err != nil {
			return errAt(c.Span.At, "span size %q must be a number", c.Span.Size)
		}
		c.Span.Size = strconv.FormatFloat(n*map[string]float64{"microseconds": 0.001, "centiseconds": 10, "deciseconds": 100}[c.Span.Unit], 'f', -1, 64)
		c.Span.Unit = "ms"
	}
	if c.Span.Unit == "" {
		size, err := strconv.ParseFloat(c.Span.Size, 64)
		if err != nil || size <= 0 {
			return errAt(c.Span.At, "span %q must be a positive number", c.Span.Size)
		}
		lo, _, err := t.spanExpr(c.Span)
		if err != nil {
			return err
		}
		var hi sql.Expr = &sql.Binary{At: at, Op: sql.OpAdd, L: lo, R: numberLiteral(token{text: c.Span.Size, pos: at})}
		str := func(x sql.Expr) sql.Expr {
			if size == float64(int64(size)) && !strings.Contains(c.Span.Size, ".") {
				x = &sql.Cast{At: at, X: x, Type: mustType("BIGINT")}
			}
			return &sql.Cast{At: at, X: x, Type: mustType("STRING")}
		}
		e = &sql.Call{At: at, Name: "concat", Args: []sql.Expr{str(lo), strLit(at, "-"), str(hi)}}
	} else {
		b, window, err := t.spanExpr(c.Span)
		if err != nil {
			return err
		}
		if window {
			b = &sql.FieldAccess{At: c.Span.At, X: b, Name: "start"}
		}
		e = b
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
