package ppl

import (
	"fmt"
	"math"
	"strings"
	"time"

	"sluice/internal/sql"
)

// timewrap pivots the timechart before it: a row per offset within a
// period (shown as that offset in the latest period), a column per
// period, oldest first, named <agg>_<k><unit>s_before ... <agg>_latest_<unit>.
// Periods are epoch-aligned; the latest holds the search's end, the
// upper bound of a where on the time field before the timechart (as
// OpenSearch's align=end). The columns are the periods from the where's
// lower bound to it, so both bounds are needed: a plan's columns are
// fixed before it reads data.
func (t *translator) timewrap(c *Timewrap) error {
	at := c.At
	if len(t.done) == 0 {
		return errAt(at, "timewrap must follow timechart")
	}
	tc, ok := t.done[len(t.done)-1].(*Timechart)
	if !ok {
		return errAt(at, "timewrap must follow timechart")
	}
	if tc.By != nil {
		return errAt(at, "timewrap after timechart ... by is not supported")
	}
	lo, hi, ok := timeBounds(t.done[:len(t.done)-1], tc.TimeField.Name)
	if !ok {
		return errAt(at, "timewrap needs a where with a lower and an upper bound on %s before the timechart (its columns are the periods between them)", tc.TimeField.Name)
	}
	w := c.N * c.Seconds
	p0 := floorDiv(hi, w)
	first := floorDiv(lo, w)
	if p0-first > 1000 {
		return errAt(at, "timewrap: more than 1000 periods between the where's bounds")
	}
	cols, err := t.columns()
	if err != nil {
		return err
	}
	tf, agg := cols[0], cols[len(cols)-1]
	secs := &sql.Call{At: at, Name: "unix_seconds", Args: []sql.Expr{col(at, tf)}}
	lit := func(v int64) sql.Expr { return intLit(at, v) }
	period := &sql.Call{At: at, Name: "floor", Args: []sql.Expr{&sql.Binary{At: at, Op: sql.OpDiv, L: secs, R: lit(w)}}}
	offset := &sql.Binary{At: at, Op: sql.OpSub, L: secs, R: &sql.Binary{At: at, Op: sql.OpMul, L: period, R: lit(w)}}
	shown := &sql.Call{At: at, Name: "timestamp_seconds", Args: []sql.Expr{&sql.Binary{At: at, Op: sql.OpAdd, L: lit(p0 * w), R: offset}}}
	sel := &sql.Select{At: at, From: t.sub(at), Items: []*sql.SelectItem{item(shown, tf)}, GroupBy: []sql.Expr{offset}}
	for k := p0 - first; k >= 0; k-- {
		pick := &sql.Case{At: at, Whens: []*sql.When{{At: at, Cond: &sql.Binary{At: at, Op: sql.OpEq, L: period, R: lit(p0 - k)}, Then: col(at, agg)}}}
		v := &sql.Call{At: at, Name: "first", Args: []sql.Expr{pick, &sql.Literal{At: at, Kind: sql.LitBool, Value: "TRUE"}}}
		sel.Items = append(sel.Items, item(v, timewrapName(agg, c, k)))
	}
	t.set(sel)
	t.q.OrderBy = []*sql.OrderItem{{At: at, Expr: col(at, tf)}}
	return nil
}

// timewrapName is period k's column: agg_latest_day, agg_1day_before,
// agg_2days_before (k periods of n units back).
func timewrapName(agg string, c *Timewrap, k int64) string {
	if k == 0 {
		return agg + "_latest_" + c.Unit
	}
	n := k * c.N
	unit := c.Unit
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%s_%d%s_before", agg, n, unit)
}

func floorDiv(a, b int64) int64 { return int64(math.Floor(float64(a) / float64(b))) }

// timeBounds finds the bounds (epoch seconds) a where before puts on
// field f: f >= 'ts' (or >) and f <= 'ts' (or <), possibly ANDed.
func timeBounds(cmds []Command, f string) (lo, hi int64, ok bool) {
	var haveLo, haveHi bool
	var visit func(e sql.Expr)
	visit = func(e sql.Expr) {
		b, isBin := e.(*sql.Binary)
		if !isBin {
			return
		}
		if b.Op == sql.OpAnd {
			visit(b.L)
			visit(b.R)
			return
		}
		r, isCol := b.L.(*sql.ColumnRef)
		l, isLit := b.R.(*sql.Literal)
		if !isCol || !isLit || l.Kind != sql.LitString || !strings.EqualFold(strings.Join(r.Parts, "."), f) {
			return
		}
		ts, err := parseBound(l.Value)
		if err != nil {
			return
		}
		switch b.Op {
		case sql.OpGe, sql.OpGt:
			lo, haveLo = ts, true
		case sql.OpLe, sql.OpLt:
			hi, haveHi = ts, true
		}
	}
	for _, c := range cmds {
		if w, isWhere := c.(*Where); isWhere {
			visit(w.Cond)
		}
	}
	return lo, hi, haveLo && haveHi && lo <= hi
}

func parseBound(s string) (int64, error) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02"} {
		if ts, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return ts.Unix(), nil
		}
	}
	return 0, fmt.Errorf("no time: %q", s)
}
