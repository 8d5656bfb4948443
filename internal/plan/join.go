package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// JoinKind says which unmatched rows a join keeps.
type JoinKind int

// Join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	CrossJoin
	// SemiJoin keeps the left rows with a match (IN, EXISTS), AntiJoin
	// those without (NOT EXISTS); both output only the left columns.
	SemiJoin
	AntiJoin
	// NullAwareAntiJoin is x NOT IN (subquery) on one key and no
	// residual: an empty right side keeps every left row; otherwise a NULL
	// left key or any NULL right key keeps none.
	NullAwareAntiJoin
)

func (k JoinKind) String() string {
	return [...]string{"Inner", "Left", "Right", "Full", "Cross", "Semi", "Anti", "NullAwareAnti"}[k]
}

// LeftOnly reports whether the join outputs only the left columns.
func (k JoinKind) LeftOnly() bool { return k == SemiJoin || k == AntiJoin || k == NullAwareAntiJoin }

// Join is an equi-join run as a hash join: Right is the build side, held
// in memory; Left streams through. Output columns are Left's then
// Right's. LeftKeys are over Left's schema, RightKeys over Right's;
// Residual (may be nil) is over the joined row.
type Join struct {
	Left, Right Node
	Kind        JoinKind
	LeftKeys    []expr.Expr
	RightKeys   []expr.Expr
	Residual    expr.Expr
}

// Schema is left columns then right columns (only the left ones for
// semi and anti joins).
func (j *Join) Schema() *arrow.Schema {
	fs := append([]arrow.Field{}, j.Left.Schema().Fields()...)
	if !j.Kind.LeftOnly() {
		fs = append(fs, j.Right.Schema().Fields()...)
	}
	for i := range fs {
		fs[i].Nullable = true
	}
	return arrow.NewSchema(fs, nil)
}

// Children are left then right.
func (j *Join) Children() []Node { return []Node{j.Left, j.Right} }

// WithChildren replaces both sides.
func (j *Join) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(j, children, 2); err != nil {
		return nil, err
	}
	c := *j
	c.Left, c.Right = children[0], children[1]
	return &c, nil
}

func (j *Join) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "HashJoin %s", j.Kind)
	if len(j.LeftKeys) > 0 {
		pairs := make([]string, len(j.LeftKeys))
		for i := range j.LeftKeys {
			pairs[i] = j.LeftKeys[i].String() + " = " + j.RightKeys[i].String()
		}
		fmt.Fprintf(&b, " on=[%s]", strings.Join(pairs, ", "))
	}
	if j.Residual != nil {
		fmt.Fprintf(&b, " residual=%s", j.Residual)
	}
	return b.String()
}
