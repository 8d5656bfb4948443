package fuzz

// Skipping-index equivalence: a Flint skipping index only decides which
// files are read, so a query over a table with one must return what the
// same query returns without it. Each table has a twin over the same
// files (same LOCATION, another name) with CREATE SKIPPING INDEX on a
// random subset of its columns, each MIN_MAX, VALUE_SET (sometimes with
// a limit smaller than the file's distinct values, so the set is dropped)
// or BLOOM_FILTER, and PARTITION on a partition column. The twin and its
// index are made the first time a check needs them, so tables no check
// reaches cost nothing.
//
// Predicates are mostly what the index can use (conjuncts col = v, IN,
// <, <=, >, >=, BETWEEN, against literals of the column's type and of
// other types), and-ed with a general predicate now and then, or or-ed
// so that nothing may be skipped. Each check runs EXPLAIN on the indexed
// side and counts the checks that skipped a file (Stats.IndexSkipped),
// so a run shows the oracle exercised skipping.
//
// It catches: a file skipped that holds a matching row: MIN_MAX ranges
// compared in the wrong type or order (NaN, -0.0, ±Infinity, strings
// against numbers, dates against timestamps, implicit casts), value sets
// and bloom filters missing a value as written (NULL, empty or unicode
// strings, separators), a negated or or-ed conjunct used to skip, and a
// partition value compared encoded.
//
// It cannot catch: a wrong answer the index does not cause (both sides
// share everything else), a file rewritten after it was indexed (the
// generated files never change), or skipping that is merely too timid
// (a file read that could have been skipped is not a wrong answer; the
// count shows whether skipping happens at all).

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// indexSkips counts the skipping checks whose indexed side skipped at
// least one file (Stats.IndexSkipped), indexChecks those that compared
// (Stats.IndexChecks).
var indexSkips, indexChecks int

// indexTwin is a table's indexed twin: the same files under another name
// with a skipping index, created on first use.
type indexTwin struct {
	name  string
	setup []string
	// done is set once setup ran; err is what it failed with.
	done bool
	err  error
}

// drawIndexTwin draws the index over t's twin: each column is left out
// about one time in three, else indexed by a kind drawn for its type.
func drawIndexTwin(r randIntN, t *Table) *indexTwin {
	tw := &indexTwin{name: t.Name + "_si"}
	c := *t
	c.Name, c.Batches = tw.name, nil
	var cols []string
	for i, col := range t.Cols {
		if r.IntN(3) == 0 {
			continue
		}
		if i == t.Part {
			cols = append(cols, col.Name+" PARTITION")
			continue
		}
		kinds := []string{"MIN_MAX", "VALUE_SET", "BLOOM_FILTER", "VALUE_SET(2)"}
		if col.Type == Boolean {
			kinds = []string{"VALUE_SET"}
		}
		cols = append(cols, col.Name+" "+kinds[r.IntN(len(kinds))])
	}
	if len(cols) == 0 {
		cols = []string{t.Cols[0].Name + " MIN_MAX"}
		if t.Part == 0 {
			cols = []string{t.Cols[0].Name + " PARTITION"}
		}
	}
	tw.setup = append(c.Statements(), "CREATE SKIPPING INDEX ON "+tw.name+" ("+strings.Join(cols, ", ")+")")
	return tw
}

// randIntN is the part of *rand.Rand the draws use.
type randIntN interface{ IntN(int) int }

// skipAtom draws a conjunct an index can use: a column against a literal
// (of its type, or one time in four of another), IN or BETWEEN.
func (g *exprGen) skipAtom() string {
	r := g.r
	c := g.cols[r.IntN(len(g.cols))]
	lit := func() string { return genLiteral(r, c.Type, false) }
	switch r.IntN(8) {
	case 0:
		var items []string
		for i, n := 0, 1+r.IntN(3); i < n; i++ {
			items = append(items, lit())
		}
		return fmt.Sprintf("%s IN (%s)", g.ref(c), strings.Join(items, ", "))
	case 1:
		return fmt.Sprintf("%s BETWEEN %s AND %s", g.ref(c), lit(), lit())
	case 2:
		return g.crossType(c)
	case 3:
		return g.atom()
	}
	ops := []string{"=", "=", "<", "<=", ">", ">="}
	return fmt.Sprintf("%s %s %s", g.ref(c), ops[r.IntN(len(ops))], lit())
}

// skipPred is one to three skippable conjuncts, sometimes and-ed with a
// general predicate or or-ed with another conjunct.
func (g *exprGen) skipPred() string {
	r := g.r
	parts := []string{g.skipAtom()}
	for i, n := 0, r.IntN(3); i < n; i++ {
		parts = append(parts, g.skipAtom())
	}
	p := strings.Join(parts, " AND ")
	switch r.IntN(6) {
	case 0:
		p = "(" + p + ") AND " + g.pred(1)
	case 1:
		p = "(" + p + ") OR " + g.skipAtom()
	}
	return p
}

var skippedRe = regexp.MustCompile(`skipped=(\d+)`)

// drawSkipping compares SELECT * or a GROUP BY count under a skippable
// predicate on the table and on its indexed twin.
func drawSkipping(g *exprGen, t *Table) check {
	p := g.skipPred()
	var q string
	if g.r.IntN(4) == 0 {
		k := t.Cols[g.r.IntN(len(t.Cols))].Name
		q = "SELECT " + k + ", count(*) FROM " + t.Name + " WHERE " + p + " GROUP BY " + k
	} else {
		q = "SELECT * FROM " + t.Name + " WHERE " + p
	}
	return skippingCheck(t, q)
}

// skippingCheck runs q on t and on its indexed twin t.Index.
func skippingCheck(t *Table, q string) check {
	return check{oracle: "skipping", pred: q, run: func(ctx context.Context, e env) *finding {
		tw := t.Index
		if tw == nil {
			return skip(fmt.Errorf("no index twin"))
		}
		if !tw.done {
			tw.done = true
			tw.err = createOn(ctx, e.eng, tw.setup)
		}
		if tw.err != nil {
			return skip(fmt.Errorf("creating the index: %w", tw.err))
		}
		want := query(ctx, e.eng, q)
		if want.err != nil {
			return skip(want.err)
		}
		q2 := strings.Replace(q, " FROM "+t.Name+" ", " FROM "+tw.name+" ", 1)
		got := query(ctx, e.eng, q2)
		if !got.equal(want) {
			return &finding{query1: q, answer1: want.String(), query2: joinQueries(append(append([]string{}, tw.setup...), q2)...), answer2: got.String()}
		}
		indexChecks++
		if ex := query(ctx, e.eng, "EXPLAIN "+q2); ex.err == nil {
			for _, m := range skippedRe.FindAllStringSubmatch(strings.Join(ex.rows, "\n"), -1) {
				if n, _ := strconv.Atoi(m[1]); n > 0 {
					indexSkips++
					break
				}
			}
		}
		return nil
	}}
}
