package conformance

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/connector"
	"sluice/internal/expr"
	"sluice/internal/types"
)

// ReadAll reads every batch of src, from nothing to its latest offset.
func ReadAll(t testing.TB, src connector.Source) []arrow.RecordBatch {
	t.Helper()
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatalf("Latest: %v", err)
	}
	splits, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var out []arrow.RecordBatch
	for _, sp := range splits {
		r, err := src.Open(ctx, sp)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		for {
			b, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				r.Close()
				t.Fatalf("Next: %v", err)
			}
			out = append(out, b)
		}
		if err := r.Close(); err != nil {
			t.Fatalf("closing a reader: %v", err)
		}
	}
	return out
}

// Rows prints the rows of batches that pred keeps (all when nil), sorted,
// one string a row with columns joined by "|", as types.FormatValue
// prints values (the search checks compare these).
func Rows(t testing.TB, batches []arrow.RecordBatch, pred expr.Expr) []string {
	t.Helper()
	return render(t, batches, pred, types.FormatValue)
}

// exactRows is Rows with values printed so that no two different values
// print the same: strings quoted, NULL apart from 'NULL', bytes in hex,
// doubles in full, nested values recursively.
func exactRows(t testing.TB, batches []arrow.RecordBatch, pred expr.Expr) []string {
	t.Helper()
	return render(t, batches, pred, exact)
}

func render(t testing.TB, batches []arrow.RecordBatch, pred expr.Expr, format func(arrow.Array, int) string) []string {
	t.Helper()
	var rows []string
	for _, b := range batches {
		var mask *array.Boolean
		if pred != nil {
			m, err := pred.Eval(context.Background(), b)
			if err != nil {
				t.Fatalf("evaluating %s: %v", pred, err)
			}
			mask = m.(*array.Boolean)
		}
		for i := 0; i < int(b.NumRows()); i++ {
			if mask != nil && (mask.IsNull(i) || !mask.Value(i)) {
				continue
			}
			parts := make([]string, b.NumCols())
			for c := range parts {
				parts[c] = format(b.Column(c), i)
			}
			rows = append(rows, strings.Join(parts, "|"))
		}
	}
	sort.Strings(rows)
	return rows
}

// exact prints one value unambiguously.
func exact(arr arrow.Array, i int) string {
	var b strings.Builder
	exactInto(&b, arr, i)
	return b.String()
}

func exactInto(b *strings.Builder, arr arrow.Array, i int) {
	if arr.IsNull(i) {
		b.WriteString("∅")
		return
	}
	switch a := arr.(type) {
	case *array.String:
		b.WriteString(strconv.Quote(a.Value(i)))
	case *array.Binary:
		b.WriteString("0x" + hex.EncodeToString(a.Value(i)))
	case *array.Float64:
		b.WriteString(strconv.FormatFloat(a.Value(i), 'g', -1, 64))
	case *array.Timestamp:
		b.WriteString(types.FormatValue(a, i) + "/" + strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Map:
		keys, items := a.Keys(), a.Items()
		start, end := a.ValueOffsets(i)
		b.WriteByte('{')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				b.WriteString(", ")
			}
			exactInto(b, keys, j)
			b.WriteString(": ")
			exactInto(b, items, j)
		}
		b.WriteByte('}')
	case *array.List:
		start, end := a.ValueOffsets(i)
		b.WriteByte('[')
		for j := int(start); j < int(end); j++ {
			if j > int(start) {
				b.WriteString(", ")
			}
			exactInto(b, a.ListValues(), j)
		}
		b.WriteByte(']')
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		b.WriteByte('{')
		for f := 0; f < st.NumFields(); f++ {
			if f > 0 {
				b.WriteString(", ")
			}
			b.WriteString(st.Field(f).Name + ": ")
			exactInto(b, a.Field(f), i)
		}
		b.WriteByte('}')
	default:
		b.WriteString(types.FormatValue(arr, i))
	}
}

// diff fails with the first differences between two sorted row lists.
func diff(t testing.TB, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") == strings.Join(want, "\n") && len(got) == len(want) {
		return
	}
	t.Errorf("got %d rows, want %d", len(got), len(want))
	g, w := map[string]int{}, map[string]int{}
	for _, r := range got {
		g[r]++
	}
	for _, r := range want {
		w[r]++
	}
	shown := 0
	for _, r := range want {
		if g[r] < w[r] && shown < 5 {
			t.Errorf("missing: %s", short(r))
			g[r]++
			shown++
		}
	}
	for _, r := range got {
		if w[r] < g[r] && shown < 10 {
			t.Errorf("extra:   %s", short(r))
			w[r]++
			shown++
		}
	}
}

func count(batches []arrow.RecordBatch) int64 {
	var n int64
	for _, b := range batches {
		n += b.NumRows()
	}
	return n
}

func newBatch(schema *arrow.Schema, cols []arrow.Array, n int64) arrow.RecordBatch {
	return array.NewRecordBatch(schema, cols, n)
}

// short cuts a printed row for a failure message.
func short(r string) string {
	if len(r) > 200 {
		return r[:200] + "..."
	}
	return r
}
