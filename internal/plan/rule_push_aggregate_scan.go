package plan

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/expr"
)

// PushAggregateIntoScan hands a GROUP BY straight over a scan to a source
// that computes it itself (connector.AggregatePusher: an OpenSearch
// aggregation), when every key and aggregate has an equivalent there.
// Aggregate(Filter?(Scan)) becomes Project(Scan of the pushed source),
// the Project casting the source's columns to the Aggregate's types.
//
// It runs once after Scan.Finalize (see ScanRules), over the source as it
// took the projection and filter: only that source knows whether the
// filter was pushed exactly, and it says ok only then, so dropping the
// Filter node is safe. It never pushes over a streaming query's input
// (Scan.Stream): a stream aggregates epoch by epoch into state the
// source cannot hold.
type PushAggregateIntoScan struct{}

// Name of the rule.
func (PushAggregateIntoScan) Name() string { return "push_aggregate_into_scan" }

// Apply replaces the Aggregate when its scan's source accepts it.
func (PushAggregateIntoScan) Apply(n Node) (Node, bool, error) {
	a, ok := n.(*Aggregate)
	if !ok {
		return n, false, nil
	}
	in := a.Input
	var where expr.Expr
	if f, ok := in.(*Filter); ok {
		in, where = f.Input, f.Pred
	}
	scan, ok := in.(*Scan)
	if !ok || scan.Source == nil || scan.Stream {
		return n, false, nil
	}
	if where != nil && (scan.Filter == nil || scan.Filter.String() != where.String()) {
		// The source never saw this filter, so cannot have applied it.
		return n, false, nil
	}
	pusher, ok := scan.Source.(connector.AggregatePusher)
	if !ok {
		return n, false, nil
	}
	groups, calls, ok := pushableAggregate(a)
	if !ok {
		return n, false, nil
	}
	src, ok, err := pusher.PushAggregate(groups, calls)
	if err != nil {
		return nil, false, fmt.Errorf("scan %s: pushing aggregate: %w", scan.Table, err)
	}
	if !ok {
		return n, false, nil
	}
	pushed := strings.TrimPrefix(a.String(), "Aggregate ")
	if where != nil {
		pushed += " where=" + where.String()
	}
	ns := &Scan{Table: scan.Table, Base: src, Fields: src.Schema().Fields(), Source: src, Pushed: pushed}
	out := a.Schema()
	exprs := make([]expr.Expr, out.NumFields())
	names := make([]string, out.NumFields())
	for i, f := range out.Fields() {
		sf := src.Schema().Field(i)
		var e expr.Expr = expr.Col(i, sf.Name, sf.Type)
		if !arrow.TypeEqual(sf.Type, f.Type) {
			if e, err = expr.Cast(e, f.Type); err != nil {
				return nil, false, fmt.Errorf("scan %s: pushed aggregate column %s: %w", scan.Table, f.Name, err)
			}
		}
		exprs[i], names[i] = e, f.Name
	}
	return &Project{Input: ns, Exprs: exprs, Names: names}, true, nil
}

// pushableAggregate describes a's keys and aggregates to a source: ok is
// false when one has no such description (DISTINCT, an expression
// argument, a function other than count/sum/avg/min/max).
func pushableAggregate(a *Aggregate) ([]connector.GroupKey, []connector.AggCall, bool) {
	var groups []connector.GroupKey
	for _, k := range a.Keys {
		g, ok := groupKeyOf(k)
		if !ok {
			return nil, nil, false
		}
		groups = append(groups, g)
	}
	var calls []connector.AggCall
	for _, g := range a.Aggs {
		if g.Distinct || g.Filtered {
			return nil, nil, false
		}
		switch g.Name {
		case "count", "sum", "avg", "min", "max":
		default:
			return nil, nil, false
		}
		call := connector.AggCall{Func: g.Name}
		switch len(g.Args) {
		case 0:
		case 1:
			arg := g.Args[0]
			if c, ok := arg.(*expr.CastExpr); ok && c.Implicit {
				// sum(int_col) widens to BIGINT; the source sums the column.
				arg = c.Arg
			}
			col, ok := arg.(*expr.Column)
			if !ok {
				return nil, nil, false
			}
			call.Column = col.Name
		default:
			return nil, nil, false
		}
		calls = append(calls, call)
	}
	return groups, calls, true
}

// groupKeyOf maps a GROUP BY key to a source's: a column, or date_trunc
// of a TIMESTAMP column to a fixed-width unit.
func groupKeyOf(e expr.Expr) (connector.GroupKey, bool) {
	switch t := e.(type) {
	case *expr.Column:
		return connector.GroupKey{Column: t.Name}, true
	case *expr.CallExpr:
		if t.Name != "date_trunc" || len(t.Args) != 2 {
			return connector.GroupKey{}, false
		}
		unit, ok := t.Args[0].(*expr.Literal)
		col, ok2 := t.Args[1].(*expr.Column)
		if !ok || !ok2 || col.Type().ID() != arrow.TIMESTAMP {
			return connector.GroupKey{}, false
		}
		u, _ := unit.Value.(string)
		d, ok := fixedUnits[strings.ToLower(u)]
		if !ok {
			return connector.GroupKey{}, false
		}
		return connector.GroupKey{Column: col.Name, Interval: d}, true
	}
	return connector.GroupKey{}, false
}

// fixedUnits are the date_trunc units of one fixed length (a month is not).
var fixedUnits = map[string]time.Duration{"second": time.Second, "minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}
