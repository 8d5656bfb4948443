package file

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"sluice/internal/types"
)

// conform returns arr as type t: arr itself (retained) when the types
// already agree, else a safe cast (overflow and lossy conversions are
// errors). Building a batch from columns of the wrong type would panic,
// so every column crossing this package's edges passes through here.
func conform(ctx context.Context, arr arrow.Array, t arrow.DataType, column string) (arrow.Array, error) {
	if arrow.TypeEqual(arr.DataType(), t) {
		arr.Retain()
		return arr, nil
	}
	out, err := compute.CastArray(ctx, arr, compute.SafeCastOptions(t))
	if err != nil {
		return nil, fmt.Errorf("column %s: cannot convert %s to %s: %w", column, types.SQLName(arr.DataType()), types.SQLName(t), err)
	}
	return out, nil
}
