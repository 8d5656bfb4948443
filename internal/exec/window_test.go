package exec

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

func winFunc(t testing.TB, name string, args []expr.Expr, ignoreNulls bool) *expr.WindowFunc {
	t.Helper()
	f, err := expr.NewWindowFunc(name, args, ignoreNulls)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func rowsFrame(pre, fol int64) expr.WindowFrame {
	return expr.WindowFrame{Unit: expr.FrameRows,
		Start: expr.FrameBound{Kind: expr.Preceding, N: pre, Text: strconv.FormatInt(pre, 10)},
		End:   expr.FrameBound{Kind: expr.Following, N: fol, Text: strconv.FormatInt(fol, 10)}}
}

// A partition that spans input batches is computed whole; NULL keys
// form their own partition, sorted first.
func TestWindowPartitionsAcrossBatches(t *testing.T) {
	names := []string{"k", "v"}
	b1 := batchOf(t, names, []any{"a", "b", nil, "a"}, ints(int64(3), int64(1), int64(7), int64(1)))
	b2 := batchOf(t, names, []any{"a", "b", nil}, ints(int64(3), int64(2), nil))
	defer b1.Release()
	defer b2.Release()
	k := expr.Col(0, "k", arrow.BinaryTypes.String)
	v := expr.Col(1, "v", arrow.PrimitiveTypes.Int64)
	funcs := []*expr.WindowFunc{
		winFunc(t, "row_number", nil, false),
		winFunc(t, "rank", nil, false),
		winFunc(t, "sum", []expr.Expr{v}, false),
		winFunc(t, "lag", []expr.Expr{v}, false),
		winFunc(t, "count", nil, false),
	}
	frames := []expr.WindowFrame{expr.WholePartition, expr.WholePartition, expr.DefaultOrderedFrame, expr.WholePartition, expr.WholePartition}
	w, err := NewWindow(b1.Schema(), []expr.Expr{k}, []SortKey{{Expr: v, NullsFirst: true}}, funcs, frames, []string{"rn", "r", "s", "l", "n"})
	if err != nil {
		t.Fatal(err)
	}
	got := runOps(t, []arrow.RecordBatch{b1, b2}, w)
	eqRows(t, got, []string{
		"NULL,NULL,1,1,NULL,NULL,2",
		"NULL,7,2,2,7,NULL,2",
		"a,1,1,1,1,NULL,3",
		"a,3,2,2,7,1,3",
		"a,3,3,2,7,3,3",
		"b,1,1,1,1,NULL,2",
		"b,2,2,2,3,1,2",
	})
}

// naiveWindow recomputes row_number, a sliding sum and lag over rows
// already sorted by (k, v), as "k,v,rn,sum,lag".
func naiveWindow(rows []string, pre, fol int) []string {
	type row struct{ k, v string }
	var parsed []row
	for _, r := range rows {
		f := strings.Split(r, ",")
		parsed = append(parsed, row{f[0], f[2]})
	}
	var out []string
	for start := 0; start < len(parsed); {
		end := start
		for end < len(parsed) && parsed[end].k == parsed[start].k {
			end++
		}
		for i := start; i < end; i++ {
			var sum int64
			for j := max(start, i-pre); j <= min(end-1, i+fol); j++ {
				n, _ := strconv.ParseInt(parsed[j].v, 10, 64)
				sum += n
			}
			lag := "NULL"
			if i > start {
				lag = parsed[i-1].v
			}
			out = append(out, fmt.Sprintf("%s,%s,%d,%d,%s", parsed[i].k, parsed[i].v, i-start+1, sum, lag))
		}
		start = end
	}
	return out
}

func spillWindow(t *testing.T, in []arrow.RecordBatch, part []expr.Expr, pre, fol int64) *Window {
	v := expr.Col(2, "v", arrow.PrimitiveTypes.Int64)
	funcs := []*expr.WindowFunc{
		winFunc(t, "row_number", nil, false),
		winFunc(t, "sum", []expr.Expr{v}, false),
		winFunc(t, "lag", []expr.Expr{v}, false),
	}
	frames := []expr.WindowFrame{expr.WholePartition, rowsFrame(pre, fol), expr.WholePartition}
	w, err := NewWindow(in[0].Schema(), part, []SortKey{{Expr: v, NullsFirst: true}}, funcs, frames, []string{"rn", "s", "l"})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// project keeps k, v and the window columns of rendered rows.
func windowCols(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		f := strings.Split(r, ",")
		out[i] = strings.Join(append([]string{f[0]}, f[2:]...), ",")
	}
	return out
}

// Under a tiny budget the sort spills; the result is the in-memory one,
// and both match a naive recomputation.
func TestWindowSpillMatchesInMemory(t *testing.T) {
	in := spillInput(t, 30000, 5000)
	k := expr.Col(0, "k", arrow.PrimitiveTypes.Int64)
	want := runOps(t, in, spillWindow(t, in, []expr.Expr{k}, 2, 0))
	eqRows(t, windowCols(want), naiveWindow(want, 2, 0))
	w := spillWindow(t, in, []expr.Expr{k}, 2, 0)
	b, dir := tinyBudget(t)
	w.SetMemoryBudget(b)
	got := runOps(t, in, w)
	eqRows(t, got, want)
	checkSpilled(t, b, dir)
}

// A sliding frame over one large partition is folded in several chunks.
func TestWindowSlidingFrameInChunks(t *testing.T) {
	in := spillInput(t, 30000, 5000)
	got := runOps(t, in, spillWindow(t, in, nil, 1, 2))
	// No partition keys: every row is in one partition; give naiveWindow
	// one key.
	keyed := make([]string, len(got))
	for i, r := range got {
		f := strings.Split(r, ",")
		keyed[i] = "all," + strings.Join(f[1:], ",")
	}
	eqRows(t, windowCols(keyed), naiveWindow(keyed, 1, 2))
}

// A partition that alone outgrows the budget fails with a clear error.
func TestWindowPartitionOverBudget(t *testing.T) {
	in := spillInput(t, 30000, 5000)
	w := spillWindow(t, in, nil, 1, 0)
	b, _ := tinyBudget(t)
	w.SetMemoryBudget(b)
	src := memtable.New(in[0].Schema(), in)
	defer src.Release()
	splits, err := src.Plan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &Stage{Scan: &Scan{Source: src, Splits: splits, Parallelism: 1}, Ops: []Operator{w}}
	out := NewCollect()
	defer out.Release()
	err = Run(context.Background(), st, WatermarkEnd, out, nil)
	if err == nil || !strings.Contains(err.Error(), "one partition holds more than the memory limit") {
		t.Fatalf("err = %v", err)
	}
}
