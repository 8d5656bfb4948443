package sql

import "strings"

// WindowTimeColumn is the time column of the query's GROUP BY window
// call (TUMBLE(time, '1 Minute') gives time), "" when there is none:
// where Flint's watermark_delay puts the watermark when the table
// declares none.
func WindowTimeColumn(q *Query) string {
	var sel *Select
	for b := q.Body; sel == nil; {
		switch t := b.(type) {
		case *Select:
			sel = t
		case *Query:
			b = t.Body
		default:
			return ""
		}
	}
	for _, g := range sel.GroupBy {
		c, ok := g.(*Call)
		if !ok || len(c.Args) == 0 {
			continue
		}
		switch strings.ToLower(c.Name) {
		case "tumble", "window", "hop", "session", "session_window":
			if ref, ok := c.Args[0].(*ColumnRef); ok {
				return ref.Parts[len(ref.Parts)-1]
			}
		}
	}
	if sel.From != nil {
		if st, ok := sel.From.(*SubqueryTable); ok {
			return WindowTimeColumn(st.Query)
		}
	}
	return ""
}
