package plan

import "sluice/internal/expr"

// streamWindowsDefined reports whether every window function node in n
// is well defined in a stream: partitioned by the event-time window of a
// windowed aggregation below it. In append mode such an aggregation
// emits all groups of a window together, at the watermark that closes
// it, so each partition is complete when the window function sees it
// (Flink's window Top-N). Over raw rows, or partitioned by anything else,
// a partition would keep growing and its ranks never settle.
func streamWindowsDefined(n Node) bool {
	ok := true
	walkNodes(n, func(x Node) {
		if w, is := x.(*Window); is && ok {
			ok = windowPartitionedByEventWindow(w)
		}
	})
	return ok
}

func windowPartitionedByEventWindow(w *Window) bool {
	for _, p := range w.PartitionBy {
		if tracesToWindowKey(w.Input, p) {
			return true
		}
	}
	return false
}

// tracesToWindowKey follows e (a column, or a field of one such as
// window.start) down through row-wise nodes to an Aggregate key that is
// an event-time window.
func tracesToWindowKey(n Node, e expr.Expr) bool {
	for {
		if f, ok := e.(*expr.FieldExpr); ok && (f.Name == "start" || f.Name == "end") {
			e = f.Arg
			continue
		}
		break
	}
	c, ok := e.(*expr.Column)
	if !ok {
		return false
	}
	switch t := n.(type) {
	case *Aggregate:
		return c.Index < len(t.Keys) && IsWindowKey(t.Keys[c.Index])
	case *Project:
		return c.Index < len(t.Exprs) && tracesToWindowKey(t.Input, t.Exprs[c.Index])
	case *Filter:
		return tracesToWindowKey(t.Input, e)
	case *Window:
		return c.Index < t.Input.Schema().NumFields() && tracesToWindowKey(t.Input, e)
	}
	return false
}
