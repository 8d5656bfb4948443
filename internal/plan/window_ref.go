package plan

import (
	"strings"

	"sluice/internal/sql"
)

// windowCallNames are the GROUP BY calls whose result Spark and Flint let
// a query name as the column `window` (window.start, window.end).
var windowCallNames = []string{"tumble", "window", "hop", "session", "session_window"}

// windowFieldRef reads window.start / window.end (and any deeper field)
// in an aggregate query as that field of the query's GROUP BY window
// call, as Flint's materialized views write it:
//
//	SELECT window.start AS startTime, COUNT(*) FROM t GROUP BY TUMBLE(time, '1 Minute')
//
// It returns nil when e is not such a reference, when the input has a
// column named window (which then wins, as in Spark), or when GROUP BY
// has no window call or more than one.
func windowFieldRef(e sql.Expr, sel *sql.Select, sc *scope) sql.Expr {
	c, ok := e.(*sql.ColumnRef)
	if !ok || len(c.Parts) < 2 {
		return nil
	}
	// Spark names session_window's column session_window.
	names := windowCallNames
	switch {
	case strings.EqualFold(c.Parts[0], "session_window"):
		names = []string{"session_window"}
	case !strings.EqualFold(c.Parts[0], "window"):
		return nil
	}
	if col, _ := sc.find("", c.Parts[0]); col != nil {
		return nil
	}
	var call *sql.Call
	for _, g := range sel.GroupBy {
		gc, ok := g.(*sql.Call)
		if !ok {
			continue
		}
		for _, n := range names {
			if strings.EqualFold(gc.Name, n) {
				if call != nil {
					return nil
				}
				call = gc
			}
		}
	}
	if call == nil {
		return nil
	}
	var out sql.Expr = call
	for _, f := range c.Parts[1:] {
		out = &sql.FieldAccess{At: c.At, X: out, Name: f}
	}
	return out
}
