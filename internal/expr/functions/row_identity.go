package functions

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/types"
)

// Row identity: where a row came from and a unique number for it.

// bindInputFileName is input_file_name() where the binder found no file
// table in scope to read _file from (plan.exprBinder.inputFileName): "",
// as Spark answers for rows that come from no file.
func bindInputFileName(args []Arg) (*Bound, error) {
	return &Bound{Type: types.String, Eval: func(_ context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
		return strResult(n, nil, false, func(int) (string, bool) { return "", true }), nil
	}}, nil
}

// bindMonotonicallyIncreasingID numbers rows for one call site: unique
// and increasing in the order batches are evaluated, as Spark promises,
// but dense (0, 1, 2, ...) rather than Spark's partition id << 33 plus
// the row's position in its partition, since Sluice's scan splits are
// not numbered where expressions run. Parallel scan workers take blocks
// of numbers as they go, so the numbering of a multi-split scan is not
// deterministic, as in Spark; a stream numbers on across epochs until it
// restarts.
func bindMonotonicallyIncreasingID(args []Arg) (*Bound, error) {
	if len(args) != 0 {
		return nil, fmt.Errorf("expects no arguments")
	}
	var next atomic.Int64
	return &Bound{Type: types.BigInt, Eval: func(_ context.Context, n int, _ []arrow.Array) (arrow.Array, error) {
		base := next.Add(int64(n)) - int64(n)
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			b.UnsafeAppend(base + int64(i))
		}
		return b.NewArray(), nil
	}}, nil
}
