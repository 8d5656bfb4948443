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
