package fuzz

// Ternary logic partitioning (TLP, Rigger and Su, OOPSLA 2020): every row
// makes a predicate p exactly one of TRUE, FALSE or NULL, so
//
//	count(*) = count(*) WHERE p + count(*) WHERE NOT p + count(*) WHERE (p) IS NULL
//
// and a GROUP BY's per-group counts, minima and maxima merge the same way
// from the three partitions.
//
// It catches: a filter that drops or duplicates rows for one truth value
// (three-valued logic of NOT, AND, OR, IN with NULLs, BETWEEN, LIKE,
// CASE; a pushed-down or pruned predicate that is wrong only for some
// branch, since the three queries push different predicates into the
// scan, the partition pruner and Parquet statistics); grouping that
// splits or merges keys differently under different filters.
//
// It cannot catch: a wrong answer that is consistent across the three
// partitions and the unfiltered query (an expression evaluated wrongly
// the same way everywhere, a value read wrongly from the file, a wrong
// count(*) of the whole table), or wrong values in columns the check does
// not aggregate.

import (
	"context"
	"fmt"
	"math/big"
	"strings"
)

// drawTLPCount partitions a count(*) over the table or, one time in
// three, over a self-join (the predicate then over the left side, so the
// join's filter pushdown is exercised too).
func drawTLPCount(g *exprGen, t *Table) check {
	from := t.Name
	if g.r.IntN(3) == 0 {
		k := t.Cols[g.r.IntN(len(t.Cols))].Name
		join := []string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}[g.r.IntN(4)]
		from = fmt.Sprintf("%s a %s %s b ON a.%s = b.%s", t.Name, join, t.Name, k, k)
		g = &exprGen{r: g.r, cols: g.cols, qual: []string{"a.", "b."}[g.r.IntN(2)]}
	}
	return tlpCount(from, g.pred(3))
}

// tlpCount is the TLP check of count(*) FROM from partitioned by p.
func tlpCount(from, p string) check {
	base := "SELECT count(*) FROM " + from
	parts := tlpParts(base, p)
	return check{oracle: "tlp-count", pred: p, run: func(ctx context.Context, e env) *finding {
		total, err := one(ctx, e.eng, base)
		if err != nil {
			return skip(err)
		}
		sum := new(big.Int)
		var got []string
		for _, q := range parts {
			v, err := one(ctx, e.eng, q)
			if err != nil {
				return skip(err)
			}
			n, ok := new(big.Int).SetString(v, 10)
			if !ok {
				return &finding{query1: base, answer1: total, query2: q, answer2: "not a count: " + v}
			}
			sum.Add(sum, n)
			got = append(got, v)
		}
		if sum.String() != total {
			return &finding{query1: base, answer1: total, query2: joinQueries(parts...),
				answer2: strings.Join(got, " + ") + " = " + sum.String()}
		}
		return nil
	}}
}

// tlpParts are base filtered by p, NOT p and p IS NULL, with GROUP BY
// suffix appended.
func tlpParts(base, p string, suffix ...string) []string {
	s := strings.Join(suffix, "")
	return []string{
		base + " WHERE " + p + s,
		base + " WHERE NOT (" + p + ")" + s,
		base + " WHERE (" + p + ") IS NULL" + s,
	}
}

// drawTLPGroupBy groups by a column k and aggregates count(*), count(c)
// and, for an integer c, min(c) and max(c); the three partitions' groups
// merge (counts add, minima and maxima combine) into the unfiltered
// query's groups.
func drawTLPGroupBy(g *exprGen, t *Table) check {
	r := g.r
	k := t.Cols[r.IntN(len(t.Cols))]
	c := t.Cols[r.IntN(len(t.Cols))]
	aggs := "count(*), count(" + c.Name + ")"
	minmax := c.Type == BigInt || c.Type == Int
	if minmax {
		aggs += ", min(" + c.Name + "), max(" + c.Name + ")"
	}
	p := g.pred(3)
	base := fmt.Sprintf("SELECT %s, %s FROM %s", k.Name, aggs, t.Name)
	whole := base + " GROUP BY " + k.Name
	parts := tlpParts(base, p, " GROUP BY "+k.Name)
	return check{oracle: "tlp-groupby", pred: p, run: func(ctx context.Context, e env) *finding {
		want := query(ctx, e.eng, whole)
		if want.err != nil {
			return skip(want.err)
		}
		merged := map[string][]*big.Int{}
		for _, q := range parts {
			a := query(ctx, e.eng, q)
			if a.err != nil {
				return skip(a.err)
			}
			for _, row := range a.rows {
				cells := strings.Split(row, " | ")
				// The key may itself hold " | "; the aggregates are the
				// last cells.
				n := 2
				if minmax {
					n = 4
				}
				key := strings.Join(cells[:len(cells)-n], " | ")
				vals := make([]*big.Int, n)
				for i, s := range cells[len(cells)-n:] {
					if s != "NULL" {
						vals[i], _ = new(big.Int).SetString(s, 10)
					}
				}
				m, ok := merged[key]
				if !ok {
					merged[key] = vals
					continue
				}
				for i, v := range vals {
					switch {
					case v == nil:
					case m[i] == nil:
						m[i] = v
					case i < 2:
						m[i].Add(m[i], v)
					case i == 2 && v.Cmp(m[i]) < 0, i == 3 && v.Cmp(m[i]) > 0:
						m[i] = v
					}
				}
			}
		}
		var rows []string
		for key, vals := range merged {
			cells := []string{key}
			for _, v := range vals {
				if v == nil {
					cells = append(cells, "NULL")
				} else {
					cells = append(cells, v.String())
				}
			}
			rows = append(rows, strings.Join(cells, " | "))
		}
		got := answer{rows: sortRows(rows)}
		if !got.equal(want) {
			return &finding{query1: whole, answer1: want.String(), query2: joinQueries(parts...), answer2: got.String()}
		}
		return nil
	}}
}

// drawTLPDistinct: the distinct values of some columns are the union of
// their distinct values under p, NOT p and p IS NULL.
func drawTLPDistinct(g *exprGen, t *Table) check {
	r := g.r
	a, b := t.Cols[r.IntN(len(t.Cols))], t.Cols[r.IntN(len(t.Cols))]
	base := fmt.Sprintf("SELECT DISTINCT %s, %s FROM %s", a.Name, b.Name, t.Name)
	p := g.pred(3)
	parts := tlpParts(base, p)
	return check{oracle: "tlp-distinct", pred: p, run: func(ctx context.Context, e env) *finding {
		want := query(ctx, e.eng, base)
		if want.err != nil {
			return skip(want.err)
		}
		seen := map[string]bool{}
		var rows []string
		for _, q := range parts {
			a := query(ctx, e.eng, q)
			if a.err != nil {
				return skip(a.err)
			}
			for _, row := range a.rows {
				if !seen[row] {
					seen[row] = true
					rows = append(rows, row)
				}
			}
		}
		got := answer{rows: sortRows(rows)}
		if !got.equal(want) {
			return &finding{query1: base, answer1: want.String(), query2: joinQueries(parts...), answer2: got.String()}
		}
		return nil
	}}
}
