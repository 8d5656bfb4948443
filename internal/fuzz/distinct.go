package fuzz

// Distinct-aggregate equivalence: an aggregate over DISTINCT values must
// equal the plain aggregate over a DISTINCT subquery,
//
//	SELECT k, count(DISTINCT c) FROM t WHERE p GROUP BY k
//	  = SELECT k, count(c) FROM (SELECT DISTINCT k, c FROM t WHERE p) GROUP BY k
//
// (and the same without k, and for sum and avg of an INT), so the distinct aggregate's own hash set and
// the DISTINCT operator must agree on which values are equal.
//
// It catches: a distinct aggregate that compares values differently from
// DISTINCT and GROUP BY (Spark treats -0.0 and 0.0 as one value and every
// NaN as one, in both), NULLs counted as values, distinct state lost when
// partials merge.
//
// It cannot catch: both sides wrong the same way (if DISTINCT itself
// kept -0.0 and 0.0 apart, so would both); the other oracles compare
// DISTINCT with GROUP BY and TLP partitions.

import (
	"context"
	"fmt"
)

func drawDistinct(g *exprGen, t *Table) check {
	r := g.r
	// DOUBLE too: count(DISTINCT) kept -0.0 and 0.0 apart once
	// (testdata/slt/fuzz/count_distinct_negative_zero.slt).
	c := t.Cols[r.IntN(len(t.Cols))]
	p := g.pred(2)
	agg := "count"
	if c.Type == Int {
		// sum and avg too, of INT only: a BIGINT sum may overflow on
		// one side only (testdata/slt/fuzz/aggregate_merge_error_panic.slt
		// once panicked on it).
		agg = []string{"count", "sum", "avg"}[r.IntN(3)]
	}
	var q1, q2 string
	if r.IntN(2) == 0 {
		q1 = fmt.Sprintf("SELECT %s(DISTINCT %s) FROM %s WHERE %s", agg, c.Name, t.Name, p)
		q2 = fmt.Sprintf("SELECT %s(%s) FROM (SELECT DISTINCT %s FROM %s WHERE %s) d", agg, c.Name, c.Name, t.Name, p)
	} else {
		k := t.Cols[r.IntN(len(t.Cols))]
		if k.Name == c.Name {
			q1 = fmt.Sprintf("SELECT %s, %s(DISTINCT %s) FROM %s WHERE %s GROUP BY %s", k.Name, agg, c.Name, t.Name, p, k.Name)
			q2 = fmt.Sprintf("SELECT %s, %s(%s) FROM (SELECT DISTINCT %s FROM %s WHERE %s) d GROUP BY %s", k.Name, agg, c.Name, c.Name, t.Name, p, k.Name)
		} else {
			q1 = fmt.Sprintf("SELECT %s, %s(DISTINCT %s) FROM %s WHERE %s GROUP BY %s", k.Name, agg, c.Name, t.Name, p, k.Name)
			q2 = fmt.Sprintf("SELECT %s, %s(%s) FROM (SELECT DISTINCT %s, %s FROM %s WHERE %s) d GROUP BY %s", k.Name, agg, c.Name, k.Name, c.Name, t.Name, p, k.Name)
		}
	}
	return check{oracle: "distinct", pred: q1, run: func(ctx context.Context, e env) *finding {
		a1, a2 := query(ctx, e.eng, q1), query(ctx, e.eng, q2)
		if a1.err != nil {
			return skip(a1.err)
		}
		if a2.err != nil {
			return skip(a2.err)
		}
		if !a1.equal(a2) {
			return &finding{query1: q1, answer1: a1.String(), query2: q2, answer2: a2.String()}
		}
		return nil
	}}
}
