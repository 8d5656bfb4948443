package fuzz

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"sluice/internal/engine"
	"sluice/internal/slt"
)

// answer is a query's result: its rows rendered one renderer's way and
// sorted (a multiset), or the error it failed with.
type answer struct {
	rows []string
	err  error
}

// String prints the answer for a divergence report.
func (a answer) String() string {
	if a.err != nil {
		return "error: " + a.err.Error()
	}
	if len(a.rows) > 40 {
		return strings.Join(a.rows[:40], "\n") + "\n... (" + itoa(len(a.rows)) + " rows)"
	}
	return strings.Join(a.rows, "\n")
}

// equal compares two answers as multisets; two errors are equal (the
// oracles compare rows, not messages).
func (a answer) equal(b answer) bool {
	if (a.err != nil) != (b.err != nil) {
		return false
	}
	return a.err != nil || slices.Equal(a.rows, b.rows)
}

// query runs one statement and renders its rows.
func query(ctx context.Context, eng *engine.Engine, q string) answer {
	lastQuery = q
	statements++
	res, err := eng.Execute(ctx, q)
	if err != nil {
		return answer{err: err}
	}
	if len(res) == 0 {
		return answer{}
	}
	return answer{rows: render(res[len(res)-1])}
}

// lastQuery is the statement query last ran, so a panic can name it
// (checks run one at a time).
var lastQuery string

// statements counts the queries query ran (Stats.Queries).
var statements int

// render prints each row as the slt runner does (types.Text with doubles
// rounded to 12 significant digits, so a sum added in another order reads
// the same), with Spark's float equality: -0.0 reads as 0.0 (they are
// equal in comparisons, grouping and joins) and every NaN as NaN. The rows
// come back sorted, a multiset.
func render(res *engine.Result) []string {
	var out []string
	for _, b := range res.Batches {
		for i := 0; i < int(b.NumRows()); i++ {
			vals := make([]string, b.NumCols())
			for c := range vals {
				v := slt.Value(b.Column(c), i)
				if v == "-0.0" {
					v = "0.0"
				}
				vals[c] = v
			}
			out = append(out, strings.Join(vals, " | "))
		}
	}
	slices.Sort(out)
	return out
}

func itoa(n int) string {
	return strconv.Itoa(n)
}

// sortRows sorts rows in place and returns them.
func sortRows(rows []string) []string {
	slices.Sort(rows)
	return rows
}
