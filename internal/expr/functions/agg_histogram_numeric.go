package functions

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// histogram_numeric(x, nb) is Spark's (Hive's NumericHistogram, after
// Ben-Haim and Tom-Tov): values go into bins kept sorted by centre, a
// value equal to a centre adds to its height, and while there are more
// than nb bins the two closest merge into their weighted mean, ties
// broken by java.util.Random(31183) as Spark's are. The result is an
// ARRAY<STRUCT<x, y DOUBLE>> of the bins in order, x of the input's type
// (an integer centre truncated, as Spark's toInt; DECIMAL gives DOUBLE);
// NULL for a group with no values. Rows fold in the order the group
// receives them, so with several scan splits the bins of a large group
// may differ slightly from one run (or from Spark) to another.
func makeHistogramNumeric(args []Arg, distinct bool) (*AggBound, error) {
	t := types.Normalize(args[0].Type)
	if !types.IsNumeric(t) && t.ID() != arrow.NULL {
		return nil, fmt.Errorf("function histogram_numeric expects a numeric column, got %s", sqlName(t))
	}
	nb, ok := toInt64(args[1].Value)
	if !args[1].Const || !ok {
		return nil, fmt.Errorf("function histogram_numeric expects a constant number of bins")
	}
	if nb < 2 {
		return nil, fmt.Errorf("histogram_numeric: the number of bins must be at least 2, got %d", nb)
	}
	xt := t
	switch {
	case t.ID() == arrow.NULL:
		xt = types.Int
	case t.ID() == arrow.DECIMAL128, t.ID() == arrow.FLOAT32:
		xt = types.Double
	}
	integral := types.IsInteger(xt)
	rt := types.Array(arrow.StructOf(
		arrow.Field{Name: "x", Type: xt, Nullable: true},
		arrow.Field{Name: "y", Type: types.Double, Nullable: true}))
	return tupleAgg(rt, []arrow.DataType{types.Double, nil}, []bool{true, false}, func(rows [][]any) (any, error) {
		if len(rows) == 0 {
			return nil, nil
		}
		h := &numericHistogram{nb: int(nb), prng: newJavaRandom(31183)}
		for _, r := range rows {
			h.add(r[0].(float64))
		}
		out := make([]any, len(h.bins))
		for i, b := range h.bins {
			var x any = b.x
			if integral {
				x = int64(math.Trunc(b.x))
			}
			out[i] = map[string]any{"x": x, "y": b.y}
		}
		return out, nil
	}), nil
}

type histBin struct{ x, y float64 }

type numericHistogram struct {
	nb   int
	bins []histBin
	prng *javaRandom
}

func (h *numericHistogram) add(v float64) {
	bin := 0
	for l, r := 0, len(h.bins); l < r; {
		bin = (l + r) / 2
		if h.bins[bin].x > v {
			r = bin
		} else if h.bins[bin].x < v {
			bin++
			l = bin
		} else {
			break
		}
	}
	if bin < len(h.bins) && h.bins[bin].x == v {
		h.bins[bin].y++
		return
	}
	h.bins = append(h.bins, histBin{})
	copy(h.bins[bin+1:], h.bins[bin:])
	h.bins[bin] = histBin{x: v, y: 1}
	if len(h.bins) > h.nb {
		h.trim()
	}
}

// trim merges the closest bins until nb remain.
func (h *numericHistogram) trim() {
	for len(h.bins) > h.nb {
		smallest := h.bins[1].x - h.bins[0].x
		loc, count := 0, 1
		for i := 1; i < len(h.bins)-1; i++ {
			d := h.bins[i+1].x - h.bins[i].x
			if d < smallest {
				smallest, loc, count = d, i, 1
			} else if d == smallest {
				count++
				if h.prng.nextDouble() <= 1/float64(count) {
					loc = i
				}
			}
		}
		a, b := h.bins[loc], h.bins[loc+1]
		d := a.y + b.y
		x := a.x * (a.y / d)
		x += b.x / d * b.y
		h.bins[loc] = histBin{x: x, y: d}
		h.bins = append(h.bins[:loc+1], h.bins[loc+2:]...)
	}
}

// nextDouble is java.util.Random.nextDouble.
func (r *javaRandom) nextDouble() float64 {
	return float64(int64(r.next(26))<<27+int64(r.next(27))) * (1.0 / (1 << 53))
}
