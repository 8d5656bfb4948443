// Package pushdown normalizes bound predicates for the connectors that
// translate filters into their own query language: file pruning (partition
// folders, Parquet min/max statistics), Bleve queries and OpenSearch DSL.
//
// Normalize walks an expr.Expr once and returns a small tree: And, Or and
// Not over leaves that test one column against constants, the column always
// on the left. Whatever it cannot normalize is an Opaque leaf:
//
//	switch n := pushdown.Normalize(pred, schema, pushdown.IntegerCasts).(type) {
//	case pushdown.Compare: // n.Ref.Name() n.Op n.Value.V, e.g. status > 5 for 5 < status
//	case pushdown.Opaque:  // not translatable: left to the engine
//	}
//
// Every node means exactly what the expression it came from means, given
// the Casts rule; whether a connector's translation of it is exact (a
// superset, a lossy time range, ...) stays the connector's decision.
package pushdown

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Pred is a normalized predicate: And, Or, Not, Compare, In, IsNull,
// Between, Match or Opaque.
type Pred interface {
	// String prints the node for tests and debugging, with types:
	// (status:INT > 5:INT).
	String() string
	pred()
}

// And is Left AND Right, kept binary as the binder builds it so that
// translations keep their shape.
type And struct{ Left, Right Pred }

// Or is Left OR Right.
type Or struct{ Left, Right Pred }

// Not is NOT Arg.
type Not struct{ Arg Pred }

// Op is a comparison operator, spelled as the function registry names it.
type Op string

// The comparisons Normalize recognizes; <=> (null-safe) is not one of them.
const (
	Eq Op = "="
	Ne Op = "<>"
	Lt Op = "<"
	Le Op = "<="
	Gt Op = ">"
	Ge Op = ">="
)

// flipped is the operator with its operands swapped: 5 < x is x > 5. It is
// also the set of names Normalize turns into Compare.
var flipped = map[Op]Op{Eq: Eq, Ne: Ne, Lt: Gt, Le: Ge, Gt: Lt, Ge: Le}

// Compare is Ref Op Value.
type Compare struct {
	Ref   Ref
	Op    Op
	Value Value
}

// In is Ref [NOT] IN (Values); a list holding NULL or a non-constant is
// Opaque, so Values are all constants.
type In struct {
	Ref    Ref
	Values []Value
	Not    bool
}

// IsNull is Ref IS [NOT] NULL.
type IsNull struct {
	Ref Ref
	Not bool
}

// Between is Ref BETWEEN Lo AND Hi.
type Between struct {
	Ref    Ref
	Lo, Hi Value
}

// Match is the full-text match(Ref, Text), or match_phrase when Phrase.
type Match struct {
	Ref    Ref
	Text   string
	Phrase bool
}

// Opaque is a part Normalize does not know: connectors push nothing for it
// (an AND of it and a known part may still push the known part, inexactly).
type Opaque struct{ Expr expr.Expr }

// Ref is the column, or struct field inside one, that a leaf tests.
type Ref struct {
	// Index is the column's position in the schema given to Normalize.
	Index int
	// Column is the column's name in that schema.
	Column string
	// Path names the struct fields below the column, outermost first;
	// empty for the column itself.
	Path []string
	// Type is the column's or field's own type, under any cast seen
	// through: a connector compares its stored values, not the cast ones.
	Type arrow.DataType
}

// Name is the dotted name search engines index the field under: col, or
// col.field.sub.
func (r Ref) Name() string {
	if len(r.Path) == 0 {
		return r.Column
	}
	return r.Column + "." + strings.Join(r.Path, ".")
}

// Value is a constant operand, never NULL: a comparison with NULL is
// Opaque (it is never TRUE, and no connector pushes it).
type Value struct {
	// V is the value as expr.Literal holds it: int32 for INT and DATE
	// days, int64 for BIGINT and TIMESTAMP micros, float64, string, bool,
	// decimal128.Num, ...
	V any
	// Type is the literal's type, implicit casts already folded in: a
	// DATE's int32 tells itself from an INT's by it.
	Type arrow.DataType
}

func (And) pred()     {}
func (Or) pred()      {}
func (Not) pred()     {}
func (Compare) pred() {}
func (In) pred()      {}
func (IsNull) pred()  {}
func (Between) pred() {}
func (Match) pred()   {}
func (Opaque) pred()  {}

func (p And) String() string { return "(" + p.Left.String() + " AND " + p.Right.String() + ")" }
func (p Or) String() string  { return "(" + p.Left.String() + " OR " + p.Right.String() + ")" }
func (p Not) String() string { return "(NOT " + p.Arg.String() + ")" }
func (p Compare) String() string {
	return "(" + p.Ref.String() + " " + string(p.Op) + " " + p.Value.String() + ")"
}

func (p In) String() string {
	vals := make([]string, len(p.Values))
	for i, v := range p.Values {
		vals[i] = v.String()
	}
	kw := " IN ("
	if p.Not {
		kw = " NOT IN ("
	}
	return "(" + p.Ref.String() + kw + strings.Join(vals, ", ") + "))"
}

func (p IsNull) String() string {
	if p.Not {
		return "(" + p.Ref.String() + " IS NOT NULL)"
	}
	return "(" + p.Ref.String() + " IS NULL)"
}

func (p Between) String() string {
	return "(" + p.Ref.String() + " BETWEEN " + p.Lo.String() + " AND " + p.Hi.String() + ")"
}

func (p Match) String() string {
	fn := "match"
	if p.Phrase {
		fn = "match_phrase"
	}
	return fmt.Sprintf("%s(%s, %q)", fn, p.Ref, p.Text)
}

func (p Opaque) String() string { return "opaque(" + p.Expr.String() + ")" }

// String prints name:TYPE.
func (r Ref) String() string { return r.Name() + ":" + types.SQLName(r.Type) }

// String prints value:TYPE, strings quoted.
func (v Value) String() string {
	if s, ok := v.V.(string); ok {
		return fmt.Sprintf("%q:%s", s, types.SQLName(v.Type))
	}
	return fmt.Sprintf("%v:%s", v.V, types.SQLName(v.Type))
}
