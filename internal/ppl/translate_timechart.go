package ppl

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"strconv"
	"strings"

	"sluice/internal/sql"
)

// unitSeconds is each interval unit's length in seconds, for the per_*
// rates (calendar spans vary in length and are refused).
var unitSeconds = map[string]float64{"milliseconds": 0.001, "seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "weeks": 604800}

// perRates maps timechart's rate functions to seconds per unit.
var perRates = map[string]float64{"per_second": 1, "per_minute": 60, "per_hour": 3600, "per_day": 86400}

// timechart aggregates per time bucket (and by value): rows of the
// bucket start (named after the time field), the by value, then the
// aggregation, sorted by both. With a by field and limit n > 0 only the
// n values with the largest sum of the aggregation over all buckets keep
// their name; the rest are re-aggregated as OTHER (useother=true) or
// left out. NULL by values are the category nullstr (usenull=true) or
// left out. The input goes into a CTE, read once for the buckets and
// once more for the OTHER re-aggregation.
func (t *translator) timechart(c *Timechart) error {
	at := c.At
	tf, ok, err := t.resolve(c.TimeField.Name)
	if err != nil {
		return err
	}
	if !ok {
		return errAt(c.TimeField.At, "timechart: field %s not found (timefield= names the time field)", c.TimeField.Name)
	}
	c.Span.Field = col(c.TimeField.At, tf)
	bucket, window, err := t.spanExpr(c.Span)
	if err != nil {
		return err
	}
	if window {
		bucket = &sql.FieldAccess{At: c.Span.At, X: bucket, Name: "start"}
	}
	agg, err := t.fixIf(c.Agg.Call)
	if err != nil {
		return err
	}
	if agg, err = t.perRate(agg, c.Span); err != nil {
		return err
	}
	var byExpr sql.Expr
	var byName string
	if c.By != nil {
		if byExpr, err = t.ref(*c.By); err != nil {
			return err
		}
		byName = c.By.Name
		byExpr = &sql.Call{At: c.By.At, Name: "coalesce", Args: []sql.Expr{
			&sql.Cast{At: c.By.At, X: byExpr, Type: mustType("STRING")}, strLit(c.By.At, c.NullStr)}}
	}
	*t.n++
	n := *t.n
	rows, grouped, ranks := fmt.Sprintf("_tc%d", n), fmt.Sprintf("_tg%d", n), fmt.Sprintf("_tr%d", n)
	// rows: the input with its bucket and by category.
	rowItems := []*sql.SelectItem{star(at), item(bucket, "__t")}
	if byExpr != nil {
		rowItems = append(rowItems, item(byExpr, "__b"))
	}
	// Rows without a time are in no bucket, as in OpenSearch.
	rowSel := &sql.Select{At: at, Items: rowItems, From: t.sub(at), Where: &sql.Is{At: at, X: col(at, tf), Not: true, Is: sql.IsNull}}
	if c.By != nil && !c.UseNull {
		by, _ := t.ref(*c.By)
		rowSel.Where = allNotNull(at, []sql.Expr{col(at, tf), by})
	}
	with := []*sql.CTE{{At: at, Name: rows, Query: &sql.Query{At: at, Body: rowSel}}}
	final := func(from sql.TableExpr) *sql.Select {
		s := &sql.Select{At: at, From: from, Items: []*sql.SelectItem{item(col(at, "__t"), tf)}}
		if c.By != nil {
			s.Items = append(s.Items, item(col(at, "__b"), byName))
		}
		s.Items = append(s.Items, item(col(at, "__v"), c.Agg.Name))
		return s
	}
	body, with := splitSpec{at: at, rows: rows, grouped: grouped, ranks: ranks, alias: "_t", agg: agg, by: c.By != nil,
		limit: c.Limit, desc: true, useOther: c.UseOther, otherStr: "OTHER", final: final}.body(with)
	order := []*sql.OrderItem{{At: at, Expr: col(at, tf)}}
	if c.By != nil {
		order = append(order, &sql.OrderItem{At: at, Expr: col(at, byName)})
	}
	t.set(body)
	t.q.With, t.q.OrderBy = with, order
	return nil
}

// perRate rewrites per_second(x) (per_minute, per_hour, per_day) into
// sum(x) * unit seconds / span seconds, a DOUBLE.
func (t *translator) perRate(e sql.Expr, sp *Span) (sql.Expr, error) {
	call, ok := e.(*sql.Call)
	if !ok {
		return e, nil
	}
	per, ok := perRates[strings.ToLower(call.Name)]
	if !ok {
		return e, nil
	}
	if len(call.Args) != 1 {
		return nil, errAt(call.At, "%s takes one field", call.Name)
	}
	unit, ok := spanUnits[sp.Unit]
	if !ok {
		unit, ok = spanUnits[strings.ToLower(sp.Unit)]
	}
	size, err := strconv.ParseFloat(sp.Size, 64)
	if !ok || err != nil || len(sp.Unit) == 1 && calendarUnits[sp.Unit] != "" {
		return nil, errAt(call.At, "%s needs a fixed span (ms, s, m, h, d, w), not %s%s", call.Name, sp.Size, sp.Unit)
	}
	secs := size * unitSeconds[unit]
	at := call.At
	sum := &sql.Call{At: at, Name: "sum", Args: call.Args}
	dbl := &sql.Cast{At: at, X: sum, Type: mustType("DOUBLE")}
	return &sql.Binary{At: at, Op: sql.OpDiv, L: &sql.Binary{At: at, Op: sql.OpMul, L: dbl, R: floatLit(at, per)}, R: floatLit(at, secs)}, nil
}

func floatLit(at sql.Pos, f float64) *sql.Literal {
	return &sql.Literal{At: at, Kind: sql.LitFloat, Value: strconv.FormatFloat(f, 'e', -1, 64)}
}

func mustType(name string) arrow.DataType {
	typ, _ := sql.ParseType(name)
	return typ
}
