package conformance

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/connector"
)

// aggCalls are the aggregates the suite pushes, over whichever of their
// columns the table has.
var aggCalls = []connector.AggCall{
	{Func: "count"},
	{Func: "count", Column: "c_string"},
	{Func: "sum", Column: "c_int"},
	{Func: "avg", Column: "c_int"},
	{Func: "min", Column: "c_int"},
	{Func: "max", Column: "c_int"},
	{Func: "min", Column: "c_bigint"},
	{Func: "max", Column: "c_bigint"},
	{Func: "min", Column: "c_double"},
	{Func: "max", Column: "c_double"},
	{Func: "sum", Column: "c_double"},
}

// checkAggregates pushes GROUP BYs (none, then each scalar column) and
// compares the groups the source computes with the same groups computed
// here from the full read. A source may decline (ok false); what it
// accepts must be exact.
func (c *target) checkAggregates(t *testing.T, full connector.Source, all []arrow.RecordBatch, schema *arrow.Schema) {
	var aggs []connector.AggCall
	for _, a := range aggCalls {
		if a.Column == "" || len(schema.FieldIndices(a.Column)) > 0 {
			aggs = append(aggs, a)
		}
	}
	groupings := [][]connector.GroupKey{nil}
	for _, k := range []string{"c_boolean", "c_int", "c_bigint", "c_string", "c_date", "c_decimal"} {
		if len(schema.FieldIndices(k)) > 0 {
			groupings = append(groupings, []connector.GroupKey{{Column: k}})
		}
	}
	if len(schema.FieldIndices("c_boolean")) > 0 && len(schema.FieldIndices("c_int")) > 0 {
		groupings = append(groupings, []connector.GroupKey{{Column: "c_boolean"}, {Column: "c_int"}})
	}
	for _, g := range groupings {
		name := "no keys"
		if len(g) > 0 {
			var ks []string
			for _, k := range g {
				ks = append(ks, k.Column)
			}
			name = "by " + strings.Join(ks, ",")
		}
		c.runCheck(t, name, func(t *testing.T) {
			for _, a := range aggs {
				c.runCheck(t, a.Func+"("+a.Column+")", func(t *testing.T) {
					src, ok, err := full.(connector.AggregatePusher).PushAggregate(g, []connector.AggCall{a})
					if err != nil {
						t.Fatalf("PushAggregate(%v, %v): %v", g, a, err)
					}
					if !ok {
						t.Skipf("declined %s(%s)", a.Func, a.Column)
					}
					got := aggRows(ReadAll(t, src))
					want := groupHere(t, all, g, a)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("%s(%s) %s:\npushed:\n  %s\ncomputed from the rows:\n  %s", a.Func, a.Column, name,
							strings.Join(got, "\n  "), strings.Join(want, "\n  "))
					}
				})
			}
		})
	}
}

// aggRows prints a pushed aggregate's rows: keys exactly, aggregates as
// numbers.
func aggRows(batches []arrow.RecordBatch) []string {
	var out []string
	for _, b := range batches {
		for i := 0; i < int(b.NumRows()); i++ {
			parts := make([]string, b.NumCols())
			for c := range parts {
				if c == int(b.NumCols())-1 {
					parts[c] = number(b.Column(c), i)
				} else {
					parts[c] = exact(b.Column(c), i)
				}
			}
			out = append(out, strings.Join(parts, "|"))
		}
	}
	sort.Strings(out)
	return out
}

// number prints a numeric value so that an integer and an equal double
// print alike (sums of doubles to 12 significant digits, since they
// depend on the order of addition), while a BIGINT beyond 2^53 that went
// through a double does not.
func number(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "∅"
	}
	switch x := a.(type) {
	case *array.Int64:
		return strconv.FormatInt(x.Value(i), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(x.Value(i)), 10)
	case *array.Float64:
		return float(x.Value(i))
	}
	return exact(a, i)
}

func float(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 12, 64)
}

// groupHere computes one aggregate per group of keys, as SQL does: NULL
// keys make their own group, aggregates skip NULLs, sum, avg, min and
// max over no values are NULL.
func groupHere(t *testing.T, all []arrow.RecordBatch, keys []connector.GroupKey, a connector.AggCall) []string {
	type acc struct {
		n, vals  int64
		isum     int64
		fsum     float64
		min, max arrow.Array
		minI     int
		maxI     int
	}
	groups := map[string]*acc{}
	for _, b := range all {
		for i := 0; i < int(b.NumRows()); i++ {
			var ks []string
			for _, k := range keys {
				ks = append(ks, exact(b.Column(b.Schema().FieldIndices(k.Column)[0]), i))
			}
			k := strings.Join(ks, "|")
			g := groups[k]
			if g == nil {
				g = &acc{}
				groups[k] = g
			}
			g.n++
			if a.Column == "" {
				continue
			}
			col := b.Column(b.Schema().FieldIndices(a.Column)[0])
			if col.IsNull(i) {
				continue
			}
			g.vals++
			numeric := true
			switch x := col.(type) {
			case *array.Int32:
				g.isum += int64(x.Value(i))
				g.fsum += float64(x.Value(i))
			case *array.Int64:
				g.isum += x.Value(i)
				g.fsum += float64(x.Value(i))
			case *array.Float64:
				g.fsum += x.Value(i)
			default:
				numeric = false
			}
			if !numeric {
				continue
			}
			if g.min == nil || less(col, i, g.min, g.minI) {
				g.min, g.minI = col, i
			}
			if g.max == nil || less(g.max, g.maxI, col, i) {
				g.max, g.maxI = col, i
			}
		}
	}
	var out []string
	for k, g := range groups {
		var v string
		switch {
		case a.Func == "count" && a.Column == "":
			v = strconv.FormatInt(g.n, 10)
		case a.Func == "count":
			v = strconv.FormatInt(g.vals, 10)
		case g.vals == 0:
			v = "∅"
		case a.Func == "sum" && a.Column == "c_double":
			v = float(g.fsum)
		case a.Func == "sum":
			v = strconv.FormatInt(g.isum, 10)
		case a.Func == "avg":
			v = float(g.fsum / float64(g.vals))
		case a.Func == "min":
			v = number(g.min, g.minI)
		case a.Func == "max":
			v = number(g.max, g.maxI)
		default:
			t.Fatalf("no reference for %s", a.Func)
		}
		if len(keys) > 0 {
			v = k + "|" + v
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// less compares two non-NULL numeric values.
func less(a arrow.Array, i int, b arrow.Array, j int) bool {
	switch x := a.(type) {
	case *array.Int32:
		return x.Value(i) < b.(*array.Int32).Value(j)
	case *array.Int64:
		return x.Value(i) < b.(*array.Int64).Value(j)
	case *array.Float64:
		return x.Value(i) < b.(*array.Float64).Value(j)
	}
	panic(fmt.Sprintf("conformance: no order for %s", a.DataType()))
}
