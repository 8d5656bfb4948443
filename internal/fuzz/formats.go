package fuzz

// Format equivalence, a differential oracle: the same INSERTs written as
// JSON lines, CSV and Parquet must read back as the same rows, and a
// query over each must give the same answer. Each table has twins in the
// other two formats (Table.Twins), with the same partitioning, and a
// partitioned table one more, flat (not partitioned) in Parquet.
//
// It catches: values a writer or reader gets wrong for one format (NULL
// against the empty string in CSV, NaN and ±Infinity in JSON, quotes,
// separators and newlines inside CSV fields, timestamp fractions, unicode,
// Hive partition values against the same values stored in the file),
// and pushdown or statistics that are wrong for
// one format's reader only.
//
// CSV tables are read with multiLine 'true' (strings hold newlines); a CSV
// table with a single data column is left out, since a NULL there is an
// empty line, which Spark's reader skips too.
//
// It cannot catch: a value wrong the same way in all three formats (the
// INSERT path they share), or wrong answers that do not depend on the
// format.

import (
	"context"
	"errors"
	"strings"

	"sluice/internal/usererr"
)

var errLossyCSV = errors.New("a one-column CSV table loses its NULL rows (empty lines), as in Spark")

// drawFormats draws SELECT * with a predicate, or a GROUP BY, over the
// table; the same text runs on each twin.
func drawFormats(g *exprGen, t *Table) check {
	var q string
	if g.r.IntN(3) == 0 {
		k := t.Cols[g.r.IntN(len(t.Cols))].Name
		q = "SELECT " + k + ", count(*) FROM " + t.Name + " WHERE " + g.pred(2) + " GROUP BY " + k
	} else {
		q = "SELECT * FROM " + t.Name + " WHERE " + g.pred(2)
	}
	return check{oracle: "formats", pred: q, run: func(ctx context.Context, e env) *finding {
		if t.lossyCSV() {
			return skip(errLossyCSV)
		}
		want := query(ctx, e.eng, q)
		if want.err != nil {
			return skip(want.err)
		}
		for _, tw := range t.Twins {
			if tw.lossyCSV() {
				continue
			}
			q2 := strings.Replace(q, " FROM "+t.Name, " FROM "+tw.Name, 1)
			got := query(ctx, e.eng, q2)
			if k, ok := usererr.KindOf(got.err); ok && k == usererr.Evaluation {
				// Which rows an erroring expression meets depends on what
				// pruning left: a partitioned twin may never evaluate the
				// row that overflows in the flat one (ANSI errors, as in
				// Spark, are not promised under optimization).
				return skip(got.err)
			}
			if !got.equal(want) {
				return &finding{query1: t.Format + ": " + q, answer1: want.String(), query2: tw.Format + ": " + q2, answer2: got.String()}
			}
		}
		return nil
	}}
}
