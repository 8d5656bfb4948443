package fuzz

// NoREC (non-optimizing reference engine construction, Rigger and Su,
// ESEC/FSE 2020): SELECT count(*) FROM t WHERE p, which the optimizer may
// push into the scan, prune partitions and skip Parquet row groups with,
// must equal SELECT sum(CASE WHEN p THEN 1 ELSE 0 END) FROM t, which
// evaluates p on every row as a plain expression.
//
// It catches: predicate pushdown, partition pruning, statistics-based
// skipping and filter rewrites (constant folding, IN-list and BETWEEN
// lowering, NOT pushing) that disagree with evaluating p row by row.
//
// A side that fails is skipped, not reported: the engine follows Spark's
// ANSI mode, where -(-2147483648) is an overflow error, and whether a row
// reaches such an expression depends on which conjunct runs first (or was
// pushed into the scan), which Spark leaves unspecified too.
//
// It cannot catch: an expression evaluated wrongly in both places (the
// projection and the filter share the expression evaluator), wrong values
// read from the file, or errors in operators other than the filter.

import "context"

func drawNoREC(g *exprGen, t *Table) check {
	return noREC(t.Name, g.pred(3))
}

// noREC is the NoREC check of predicate p over table name.
func noREC(name, p string) check {
	q1 := "SELECT count(*) FROM " + name + " WHERE " + p
	q2 := "SELECT coalesce(sum(CASE WHEN " + p + " THEN 1 ELSE 0 END), 0) FROM " + name
	return check{oracle: "norec", pred: p, run: func(ctx context.Context, e env) *finding {
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
