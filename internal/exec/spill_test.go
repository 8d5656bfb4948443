package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

// spillInput is (k BIGINT with NULLs, s STRING with NULLs and many
// distinct values, v BIGINT arrival order), in batches of 1000 rows.
func spillInput(t testing.TB, rows, keys int) []arrow.RecordBatch {
	r := rand.New(rand.NewSource(7))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	var out []arrow.RecordBatch
	for done := 0; done < rows; done += 1000 {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := 0; i < 1000; i++ {
			k := r.Intn(keys)
			if k%97 == 0 {
				rb.Field(0).AppendNull()
			} else {
				rb.Field(0).(*array.Int64Builder).Append(int64(k % 50))
			}
			if k%89 == 0 {
				rb.Field(1).AppendNull()
			} else {
				rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("key-%d", k))
			}
			rb.Field(2).(*array.Int64Builder).Append(int64(done + i))
		}
		out = append(out, rb.NewRecordBatch())
		rb.Release()
	}
	return out
}

// tinyBudget is a budget small enough that every spilling operator
// spills many times over spillInput, in a dir the test checks is left
// empty.
func tinyBudget(t *testing.T) (*MemoryBudget, string) {
	dir := filepath.Join(t.TempDir(), "tmp")
	return NewMemoryBudget(64<<10, dir), dir
}

func checkSpilled(t *testing.T, b *MemoryBudget, dir string) {
	t.Helper()
	if b.Spills() == 0 {
		t.Fatal("the operator never spilled: the test proves nothing")
	}
	if used := b.Used(); used != 0 {
		t.Errorf("budget still holds %d bytes after the query", used)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), SpillFilePrefix) {
			t.Errorf("spill file %s left behind", e.Name())
		}
	}
}

func TestSortSpillMatchesInMemory(t *testing.T) {
	in := spillInput(t, 30000, 5000)
	k := expr.Col(0, "k", arrow.PrimitiveTypes.Int64)
	s := expr.Col(1, "s", arrow.BinaryTypes.String)
	for _, keys := range [][]SortKey{
		{{Expr: k, NullsFirst: true}},             // many ties: stability shows
		{{Expr: s, Desc: true}, {Expr: k}},        // strings, NULLs last
		{{Expr: k, Desc: true, NullsFirst: true}}, // desc, NULLs first
	} {
		t.Run(sortKeysString(keys), func(t *testing.T) {
			want := runOps(t, in, NewSort(in[0].Schema(), keys))
			srt := NewSort(in[0].Schema(), keys)
			b, dir := tinyBudget(t)
			srt.SetMemoryBudget(b)
			got := runOps(t, in, srt)
			eqRows(t, got, want)
			checkSpilled(t, b, dir)
		})
	}
}

func spillAggs(t *testing.T) []*expr.Aggregate {
	v := expr.Col(2, "v", arrow.PrimitiveTypes.Int64)
	s := expr.Col(1, "s", arrow.BinaryTypes.String)
	var out []*expr.Aggregate
	for _, c := range []struct {
		name string
		args []expr.Expr
	}{{"count", nil}, {"sum", []expr.Expr{v}}, {"min", []expr.Expr{v}}, {"max", []expr.Expr{s}}, {"count", []expr.Expr{s}}} {
		a, err := expr.NewAggregate(c.name, c.args, false)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

func TestHashAggregateSpillMatchesInMemory(t *testing.T) {
	in := spillInput(t, 40000, 20000)
	k := expr.Col(0, "k", arrow.PrimitiveTypes.Int64)
	s := expr.Col(1, "s", arrow.BinaryTypes.String)
	for name, keys := range map[string][]expr.Expr{"string key": {s}, "int and string keys": {k, s}, "int key": {k}} {
		t.Run(name, func(t *testing.T) {
			names := make([]string, len(keys))
			for i := range names {
				names[i] = fmt.Sprintf("g%d", i)
			}
			mk := func() *HashAggregate {
				h, err := NewHashAggregate(keys, names, spillAggs(t))
				if err != nil {
					t.Fatal(err)
				}
				return h
			}
			want := runOps(t, in, mk())
			h := mk()
			b, dir := tinyBudget(t)
			if name == "int key" {
				b = NewMemoryBudget(2<<10, dir) // 50 groups: spill them anyway
			}
			h.SetMemoryBudget(b)
			got := runOps(t, in, h)
			eqRows(t, got, want)
			checkSpilled(t, b, dir)
		})
	}
}

func TestDistinctSpillMatchesInMemory(t *testing.T) {
	in := spillInput(t, 40000, 20000)
	// Drop v (unique per row) so there are duplicates to remove.
	p, err := NewProject([]expr.Expr{expr.Col(0, "k", arrow.PrimitiveTypes.Int64), expr.Col(1, "s", arrow.BinaryTypes.String)}, []string{"k", "s"})
	if err != nil {
		t.Fatal(err)
	}
	schema := p.Schema()
	want := runOps(t, in, p, NewDistinct(schema))
	d := NewDistinct(schema)
	b, dir := tinyBudget(t)
	d.SetMemoryBudget(b)
	got := runOps(t, in, p, d)
	// Rows first seen after the overflow come at the end, which is still
	// first-seen order: the same as in memory.
	eqRows(t, got, want)
	checkSpilled(t, b, dir)
}

func TestStreamingStateOverBudgetIsAClearError(t *testing.T) {
	ctx := context.Background()
	discard := OutputFunc(func(context.Context, Message) error { return nil })
	t.Run("window aggregate", func(t *testing.T) {
		w := newTumbleCount(t, Append)
		w.SetStateBudget("window_aggregate-0", NewMemoryBudget(64<<10, t.TempDir()))
		var err error
		for m := int64(0); m < 20000 && err == nil; m += 100 {
			mins := make([]int64, 100)
			for i := range mins {
				mins[i] = m + int64(i)
			}
			b := tsBatch(mins...)
			err = w.Process(ctx, b, discard)
			b.Release()
		}
		var st *StateTooLargeError
		if !errors.As(err, &st) || !errors.Is(err, ErrOverBudget) {
			t.Fatalf("want a StateTooLargeError, got %v", err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "window_aggregate-0 holds ") || !strings.Contains(msg, "over the memory limit of 64 KiB; raise memory_limit or shorten the window") {
			t.Fatalf("message: %s", msg)
		}
		if st.Held <= st.Limit {
			t.Fatalf("held %d is not over the limit %d", st.Held, st.Limit)
		}
	})
	t.Run("stream aggregate", func(t *testing.T) {
		in := spillInput(t, 20000, 20000)
		h, err := NewHashAggregate([]expr.Expr{expr.Col(1, "s", arrow.BinaryTypes.String)}, []string{"s"}, spillAggs(t))
		if err != nil {
			t.Fatal(err)
		}
		s := NewStreamAggregate(h, Update)
		s.SetStateBudget("stream_aggregate-0", NewMemoryBudget(64<<10, t.TempDir()))
		for _, b := range in {
			if err = s.Process(ctx, b, discard); err != nil {
				break
			}
		}
		if err == nil || !strings.HasPrefix(err.Error(), "stream_aggregate-0 holds ") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("distinct", func(t *testing.T) {
		in := spillInput(t, 20000, 20000)
		d := NewDistinct(in[0].Schema())
		d.SetStateBudget("distinct-0", NewMemoryBudget(64<<10, t.TempDir()))
		var err error
		for _, b := range in {
			if err = d.Process(ctx, b, discard); err != nil {
				break
			}
		}
		if err == nil || !strings.HasPrefix(err.Error(), "distinct-0 holds ") {
			t.Fatalf("got %v", err)
		}
	})
}
