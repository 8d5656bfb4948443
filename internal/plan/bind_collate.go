package plan

import (
	"strings"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// Spark 4's collations, as far as Sluice goes: UTF8_BINARY, the default,
// compares bytes; UTF8_LCASE compares the lower-case forms. Strings carry
// no collation in Sluice's types, so x COLLATE UTF8_LCASE is bound where
// it is compared: an operand of =, <>, <, <=, >, >=, <=>, IN or BETWEEN
// makes the whole comparison compare lower(x) with lower(y), and an ORDER
// BY item sorts by lower(x). Anywhere else (GROUP BY, DISTINCT, a SELECT
// item) it is refused rather than silently compared byte-wise.

const (
	collationBinary = "UTF8_BINARY"
	collationLCase  = "UTF8_LCASE"
)

// collationOf checks c's name and returns it upper-cased.
func collationOf(c *sql.Collate) (string, error) {
	name := strings.ToUpper(c.Name)
	switch name {
	case collationBinary, collationLCase:
		return name, nil
	}
	return "", errAt(c, "unsupported collation %s: Sluice supports UTF8_BINARY and UTF8_LCASE", c.Name)
}

// comparisonCollation is the explicit collation of a comparison's
// operands: "" when none is written, an error when two differ, as Spark's
// COLLATION_MISMATCH.
func comparisonCollation(operands ...sql.Expr) (string, error) {
	var found string
	var at *sql.Collate
	for _, o := range operands {
		c, ok := o.(*sql.Collate)
		if !ok {
			continue
		}
		name, err := collationOf(c)
		if err != nil {
			return "", err
		}
		if found != "" && name != found {
			return "", errAt(c, "collation mismatch: %s and %s are both explicit (the first at line %d:%d)", found, name, at.At.Line, at.At.Col)
		}
		found, at = name, c
	}
	return found, nil
}

// bindCollated binds a comparison operand under collation coll: the
// COLLATE itself is dropped, and under UTF8_LCASE the value is lowered.
func (eb *exprBinder) bindCollated(e sql.Expr, coll string) (expr.Expr, error) {
	inner := e
	if c, ok := e.(*sql.Collate); ok {
		inner = c.X
	}
	x, err := eb.bind(inner)
	if err != nil {
		return nil, err
	}
	if coll != collationLCase {
		return x, nil
	}
	if t := types.Normalize(x.Type()); !types.IsString(t) && t.ID() != types.Null.ID() {
		return nil, errAt(e, "COLLATE %s needs a STRING, got %s", coll, typeName(x.Type()))
	}
	return expr.Call("lower", x)
}

// bindCollatedAll binds operands under their comparison's collation.
func (eb *exprBinder) bindCollatedAll(es []sql.Expr, coll string) ([]expr.Expr, error) {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		x, err := eb.bindCollated(e, coll)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// bindCollate binds x COLLATE name outside a comparison: UTF8_BINARY is
// what a string is anyway; UTF8_LCASE is refused.
func (eb *exprBinder) bindCollate(c *sql.Collate) (expr.Expr, error) {
	name, err := collationOf(c)
	if err != nil {
		return nil, err
	}
	x, err := eb.bind(c.X)
	if err != nil {
		return nil, err
	}
	if t := types.Normalize(x.Type()); !types.IsString(t) {
		return nil, errAt(c, "COLLATE %s needs a STRING, got %s", name, typeName(x.Type()))
	}
	if name == collationLCase {
		return nil, errAt(c, "COLLATE UTF8_LCASE is only supported on an operand of a comparison (=, <>, <, <=, >, >=, <=>, IN, BETWEEN) or an ORDER BY item; group by lower(x) instead")
	}
	return x, nil
}

// isComparison reports the binary operators a collation applies to.
func isComparison(op string) bool {
	switch op {
	case sql.OpEq, sql.OpNe, sql.OpLt, sql.OpLe, sql.OpGt, sql.OpGe, sql.OpNullSafeEq:
		return true
	}
	return false
}

// collatedOrder rewrites ORDER BY x COLLATE c items: UTF8_LCASE sorts by
// lower(x), UTF8_BINARY by x. Items are copied, never changed in place.
func collatedOrder(items []*sql.OrderItem) ([]*sql.OrderItem, error) {
	var out []*sql.OrderItem
	for i, o := range items {
		c, ok := o.Expr.(*sql.Collate)
		if !ok {
			continue
		}
		name, err := collationOf(c)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = append([]*sql.OrderItem{}, items...)
		}
		cp := *o
		cp.Expr = c.X
		if name == collationLCase {
			cp.Expr = &sql.Call{At: c.At, Name: "lower", Args: []sql.Expr{c.X}}
		}
		out[i] = &cp
	}
	if out == nil {
		return items, nil
	}
	return out, nil
}
