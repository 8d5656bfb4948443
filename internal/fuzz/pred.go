package fuzz

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// exprGen draws random expressions over one table's columns; every
// column reference is prefixed with qual ("" or "a.").
type exprGen struct {
	r    *rand.Rand
	cols []Column
	qual string
}

// colsOf returns the columns whose type satisfies ok.
func (g *exprGen) colsOf(ok func(Type) bool) []Column {
	var out []Column
	for _, c := range g.cols {
		if ok(c.Type) {
			out = append(out, c)
		}
	}
	return out
}

func (g *exprGen) ref(c Column) string { return g.qual + c.Name }

// pred draws a boolean expression of at most depth levels of nesting.
func (g *exprGen) pred(depth int) string {
	r := g.r
	if depth <= 0 {
		return g.atom()
	}
	switch r.IntN(8) {
	case 0, 1:
		return "(" + g.pred(depth-1) + " AND " + g.pred(depth-1) + ")"
	case 2, 3:
		return "(" + g.pred(depth-1) + " OR " + g.pred(depth-1) + ")"
	case 4:
		return "(NOT " + g.pred(depth-1) + ")"
	case 5:
		// A CASE that yields a boolean.
		return fmt.Sprintf("(CASE WHEN %s THEN %s ELSE %s END)", g.pred(depth-1), g.pred(depth-1), g.pred(depth-1))
	}
	return g.atom()
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">=", "<=>", "!="}

// atom draws a leaf predicate.
func (g *exprGen) atom() string {
	r := g.r
	c := g.cols[r.IntN(len(g.cols))]
	switch r.IntN(12) {
	case 0:
		if r.IntN(2) == 0 {
			return g.ref(c) + " IS NULL"
		}
		return g.ref(c) + " IS NOT NULL"
	case 1:
		// IN list, sometimes with a NULL (NOT IN then never holds).
		var items []string
		for i, n := 0, 1+r.IntN(4); i < n; i++ {
			if r.IntN(8) == 0 {
				items = append(items, "NULL")
			} else {
				items = append(items, genLiteral(r, c.Type, false))
			}
		}
		not := ""
		if r.IntN(3) == 0 {
			not = "NOT "
		}
		return fmt.Sprintf("%s %sIN (%s)", g.ref(c), not, strings.Join(items, ", "))
	case 2:
		if c.Type == Boolean {
			return g.ref(c)
		}
		a, b := genLiteral(r, c.Type, false), genLiteral(r, c.Type, false)
		not := ""
		if r.IntN(3) == 0 {
			not = "NOT "
		}
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", g.scalar(c), not, a, b)
	case 3:
		if ss := g.colsOf(func(t Type) bool { return t == String }); len(ss) > 0 {
			pats := []string{"'a%'", "'%b'", "'_'", "'%|%'", "''", "'%'", "'a_c'", "'%\\%%'", "'%é%'", "'A%'"}
			not := ""
			if r.IntN(3) == 0 {
				not = "NOT "
			}
			return fmt.Sprintf("%s %sLIKE %s", g.ref(ss[r.IntN(len(ss))]), not, pats[r.IntN(len(pats))])
		}
	case 4, 5:
		// Arithmetic against a literal.
		if ns := g.colsOf(Type.numeric); len(ns) > 0 {
			return fmt.Sprintf("%s %s %s", g.arith(2), cmpOps[r.IntN(len(cmpOps))], genLiteral(r, ns[r.IntN(len(ns))].Type, false))
		}
	case 6:
		// Two columns of one type family.
		for _, d := range g.cols {
			if d.Name != c.Name && (d.Type == c.Type || (d.Type.numeric() && c.Type.numeric())) && r.IntN(2) == 0 {
				return fmt.Sprintf("%s %s %s", g.ref(c), cmpOps[r.IntN(len(cmpOps))], g.ref(d))
			}
		}
	case 7:
		return fmt.Sprintf("coalesce(%s, %s) %s %s", g.ref(c), genLiteral(r, c.Type, false), cmpOps[r.IntN(len(cmpOps))], genLiteral(r, c.Type, false))
	case 8:
		if c.Type == String {
			fns := []string{"length(%s) > 1", "upper(%s) = 'A'", "lower(%s) = 'a'", "concat(%s, 'x') = 'ax'", "substring(%s, 1, 1) = 'a'", "trim(%s) = ''"}
			return fmt.Sprintf(fns[r.IntN(len(fns))], g.ref(c))
		}
	}
	if c.Type == Boolean && r.IntN(2) == 0 {
		return g.ref(c)
	}
	return fmt.Sprintf("%s %s %s", g.scalar(c), cmpOps[r.IntN(len(cmpOps))], genLiteral(r, c.Type, false))
}

// scalar is c itself, or for a number sometimes a CASE or coalesce over it.
func (g *exprGen) scalar(c Column) string {
	r := g.r
	if !c.Type.numeric() || r.IntN(3) != 0 {
		return g.ref(c)
	}
	if r.IntN(2) == 0 {
		return fmt.Sprintf("coalesce(%s, %s)", g.ref(c), genLiteral(r, c.Type, false))
	}
	return fmt.Sprintf("(CASE WHEN %s THEN %s ELSE %s END)", g.atom(), g.ref(c), genLiteral(r, c.Type, false))
}

// arith draws a numeric expression over the numeric columns.
func (g *exprGen) arith(depth int) string {
	r := g.r
	ns := g.colsOf(Type.numeric)
	leaf := func() string {
		if r.IntN(4) == 0 {
			return genLiteral(r, ns[r.IntN(len(ns))].Type, false)
		}
		return g.ref(ns[r.IntN(len(ns))])
	}
	if depth <= 0 || r.IntN(3) == 0 {
		return leaf()
	}
	switch r.IntN(5) {
	case 0:
		return "(" + g.arith(depth-1) + " + " + g.arith(depth-1) + ")"
	case 1:
		return "(" + g.arith(depth-1) + " - " + g.arith(depth-1) + ")"
	case 2:
		return "(" + g.arith(depth-1) + " * " + leaf() + ")"
	case 3:
		return "abs(" + g.arith(depth-1) + ")"
	}
	return "(-" + g.arith(depth-1) + ")"
}
