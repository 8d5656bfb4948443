// Package plan turns parsed SQL into a tree of logical nodes, rewrites it
// with an ordered list of rules, and prints it for EXPLAIN.
//
// The binder resolves names against the catalog and builds expressions
// (internal/expr) over each node's input schema by column index:
//
//	q, _ := sql.ParseOne("SELECT status, count(*) FROM logs WHERE size > 0 GROUP BY status")
//	node, _ := plan.NewBinder(tables).BindQuery(q.(*sql.SelectStmt).Query)
//	node, _ = plan.Optimize(node)
//	fmt.Print(plan.Format(node))
//	// Aggregate keys=[status] aggs=[count(*)]
//	//   Scan logs columns=[status, size] filter=(size > 0)
//
// # Files
//
// Logical nodes have a file each (filter.go, join.go, window.go, ...); the
// binder is binder.go and bind_*.go; rules are rule_*.go and rules.go holds
// the ordered lists; prune_columns.go prunes unused columns (every node type
// needs a case there); Format prints a plan for EXPLAIN.
//
// # Subqueries
//
// bind_subquery.go binds each subquery to an Apply node (apply.go) whose
// plan reads the enclosing queries through expr.OuterRef (depth 1 = the
// query it is in). The decorrelate_* rules (SubqueryRules in rules.go, run
// to their own fixpoint before the others; decorrelate.go pulls correlated
// conditions up through filters, projections, aggregates, joins, ORDER BY
// and LIMIT) turn every Apply into semi, anti, null-aware anti, cross and
// left joins, so EXPLAIN never shows one.
//
// # Rules
//
// OptimizeContext runs SubqueryRules, then Rules, each to a fixpoint,
// prunes columns, pushes projections and filters into each scan's source,
// then runs ScanRules once (push_aggregate_into_scan,
// push_limit_into_scan) over the finalized scans. The binder and
// OptimizeContext stop on a cancelled ctx; long AND/OR chains bind as
// balanced trees, so planning stays linear in the query's size.
//
// # Other rewrites in the binder
//
// bind_grouping.go turns grouping sets into an Explode of the set ids;
// bind_generator.go turns every generator (explode, posexplode, inline,
// stack, json_tuple) into one Explode; window_stream.go lets a stream's
// window function through only when it is partitioned by an append-mode
// windowed aggregation's event-time window. SetOperation (INTERSECT/EXCEPT
// [ALL]) stays one node through the rules and is lowered by
// physical.Compile to a side-tagged Union, a HashAggregate of per-side
// counts, a Filter and (ALL) an Explode.
package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// Node is a logical plan node.
//
// Expressions inside a node refer to its input's columns by index: for a
// unary node the child's schema, for a Join the left columns then the
// right ones. WithChildren returns a copy with new inputs of the same
// schemas; it never mutates the receiver.
type Node interface {
	Schema() *arrow.Schema
	Children() []Node
	WithChildren(children ...Node) (Node, error)
	// String is the node's one line in EXPLAIN.
	String() string
}

func wantChildren(n Node, got []Node, want int) error {
	if len(got) != want {
		return fmt.Errorf("internal error: %T takes %d children, got %d", n, want, len(got))
	}
	return nil
}

// Format prints the tree, one node per line, children indented by two
// spaces.
func Format(n Node) string {
	var b strings.Builder
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(n.String())
		b.WriteByte('\n')
		for _, c := range n.Children() {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

func exprList(es []expr.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// schemaOf builds a schema of nullable fields from names and types.
func schemaOf(names []string, ts []arrow.DataType) *arrow.Schema {
	fs := make([]arrow.Field, len(names))
	for i := range names {
		fs[i] = arrow.Field{Name: names[i], Type: ts[i], Nullable: true}
	}
	return arrow.NewSchema(fs, nil)
}
