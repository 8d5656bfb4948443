package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// HopWindowsExpr lists, for each row, every hopping window that holds its
// timestamp: ARRAY<STRUCT<start, end>>, earliest first. The planner
// explodes it to give HOP(ts, size, slide) one row per window.
type HopWindowsExpr struct {
	TS          Expr
	Size, Slide int64 // microseconds
}

// HopWindows builds the expression; ts must be a TIMESTAMP.
func HopWindows(ts Expr, size, slide int64) (Expr, error) {
	if ts.Type().ID() != arrow.TIMESTAMP {
		return nil, fmt.Errorf("hop expects a TIMESTAMP, got %s", types.SQLName(ts.Type()))
	}
	if size <= 0 || slide <= 0 {
		return nil, fmt.Errorf("hop window size and slide must be positive")
	}
	return &HopWindowsExpr{TS: ts, Size: size, Slide: slide}, nil
}

// Type is ARRAY<window>.
func (h *HopWindowsExpr) Type() arrow.DataType { return types.Array(WindowType) }

// Children is the timestamp.
func (h *HopWindowsExpr) Children() []Expr { return []Expr{h.TS} }

func (h *HopWindowsExpr) String() string {
	return fmt.Sprintf("hop_windows(%s, %dus, %dus)", h.TS, h.Size, h.Slide)
}

// Eval lists the windows of each row; a NULL timestamp has none.
func (h *HopWindowsExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	in, err := h.TS.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	ts, ok := in.(*array.Timestamp)
	if !ok {
		return nil, fmt.Errorf("hop: timestamp column is %s", in.DataType())
	}
	lb := array.NewListBuilder(memory.DefaultAllocator, WindowType)
	defer lb.Release()
	sb := lb.ValueBuilder().(*array.StructBuilder)
	starts := sb.FieldBuilder(0).(*array.TimestampBuilder)
	ends := sb.FieldBuilder(1).(*array.TimestampBuilder)
	for i := 0; i < ts.Len(); i++ {
		if ts.IsNull(i) {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		for _, s := range HopStarts(int64(ts.Value(i)), h.Size, h.Slide) {
			sb.Append(true)
			starts.Append(arrow.Timestamp(s))
			ends.Append(arrow.Timestamp(s + h.Size))
		}
	}
	return lb.NewArray(), nil
}

func (h *HopWindowsExpr) withChildren(c []Expr) Expr {
	cp := *h
	cp.TS = c[0]
	return &cp
}
