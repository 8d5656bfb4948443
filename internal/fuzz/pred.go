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
	// duck keeps to the expressions Spark and DuckDB define alike (the
	// DuckDB oracle, duckdb_oracle.go lists what is left out and why).
	duck bool
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
	switch r.IntN(15) {
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
			if g.duck {
				// No '\\' escape: DuckDB's LIKE has no default escape
				// character (Spark's is the backslash).
				pats = []string{"'a%'", "'%b'", "'_'", "'%|%'", "''", "'%'", "'a_c'", "'%é%'", "'A%'"}
			}
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
			if g.duck {
				// No concat: DuckDB's skips NULLs, Spark's is NULL.
				fns = []string{"length(%s) > 1", "upper(%s) = 'A'", "lower(%s) = 'a'", "%s || 'x' = 'ax'", "substring(%s, 1, 1) = 'a'", "trim(%s) = ''"}
			}
			return fmt.Sprintf(fns[r.IntN(len(fns))], g.ref(c))
		}
	case 9, 10:
		return g.crossType(c)
	case 11:
		return g.function(c)
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
			// Small literals: the data's extremes overflow (an ANSI
			// error, a skipped check) often enough already.
			return []string{"1", "-2", "3", "0", "0.5", "-1.25", "10"}[r.IntN(7)]
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
	// "(-(x))", not "(-x)": x may start with a minus, and "--" starts a
	// comment.
	return "(-(" + g.arith(depth-1) + "))"
}

// crossLiterals are literals of other types than a column's, compared
// with it through Spark's implicit casts (a string against a number or a
// date, a date against a timestamp, an integer against a double).
var crossLiterals = map[Type][]string{
	BigInt:    {"'1'", "'-5'", "1.5", "2.0", "CAST(3 AS DOUBLE)", "'1e2'"},
	Int:       {"'1'", "'7'", "' 3'", "0.5", "CAST(10 AS BIGINT)", "10.0"},
	Double:    {"1", "'2.5'", "'NaN'", "CAST(0 AS BIGINT)", "'-0.0'", "'Infinity'"},
	String:    {"1", "10", "-1", "0.5", "true", "DATE '2026-01-01'"},
	Boolean:   {"'true'", "'false'", "'t'", "'no'"},
	Date:      {"TIMESTAMP '2026-01-01 00:00:00'", "TIMESTAMP '2026-11-30 12:00:00'", "'2026-01-01'", "'1970-01-01'"},
	Timestamp: {"DATE '2026-01-01'", "DATE '2026-11-30'", "'2026-11-30 12:00:00'", "'2026-01-01'", "'1970-01-01T00:00:00'"},
}

// crossType compares c with a literal of another type.
func (g *exprGen) crossType(c Column) string {
	r := g.r
	lits := crossLiterals[c.Type]
	if g.duck {
		lits = duckCrossLiterals[c.Type]
	}
	return fmt.Sprintf("%s %s %s", g.ref(c), cmpOps[r.IntN(len(cmpOps))], lits[r.IntN(len(lits))])
}

// function applies a scalar function to c and compares the result.
func (g *exprGen) function(c Column) string {
	r := g.r
	x := g.ref(c)
	var fns []string
	switch c.Type {
	case BigInt, Int:
		fns = []string{"CAST(%s AS STRING) = '1'", "%s % 3 = 1", "greatest(%s, 0) = 0", "least(%s, 2) < 1", "nullif(%s, 0) IS NULL", "if(%s > 0, 1, 0) = 1", "CAST(%s AS DOUBLE) > 1.5", "pmod(%s, 2) = 0"}
	case Double:
		fns = []string{"isnan(%s)", "floor(%s) = 0", "ceil(%s) > 1", "round(%s) = 3", "CAST(%s AS STRING) = 'NaN'", "abs(%s) < 1", "greatest(%s, 0.5) = 0.5", "%s / 2 > 1", "nanvl(%s, 0.0) = 0.0"}
	case String:
		fns = []string{"length(%s) = 1", "%s || 'b' = 'ab'", "startswith(%s, 'a')", "contains(%s, '|')", "instr(%s, 'b') > 0", "reverse(%s) = 'ba'", "CAST(%s AS INT) > 0", "%s RLIKE '^[a-z]+$'", "char_length(%s) > 1", "lpad(%s, 3, '*') = '**a'"}
	case Boolean:
		fns = []string{"CAST(%s AS INT) = 1", "NOT %s", "%s = true", "%s <=> NULL", "if(%s, 1, 2) = 2"}
	case Date:
		fns = []string{"year(%s) = 2026", "month(%s) = 12", "date_add(%s, 1) > DATE '2026-12-01'", "datediff(%s, DATE '2026-01-01') > 0", "CAST(%s AS STRING) LIKE '2026%'", "dayofweek(%s) = 1", "last_day(%s) = %s"}
	case Timestamp:
		fns = []string{"hour(%s) = 12", "CAST(%s AS DATE) = DATE '2026-11-30'", "date_trunc('DAY', %s) = %s", "unix_timestamp(%s) > 0", "CAST(%s AS STRING) LIKE '%.5'", "second(%s) > 0", "year(%s) < 2000"}
	}
	if g.duck {
		fns = duckFunctions[c.Type]
	}
	f := fns[r.IntN(len(fns))]
	return strings.ReplaceAll(f, "%s", x)
}
