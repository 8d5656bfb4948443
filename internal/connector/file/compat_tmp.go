package file

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/format"
)

// TEMPORARY: format.Infer has not landed yet; this becomes format.Infer
// when it does.
var (
	formatInfer = func(ctx context.Context, files []format.File, opts format.Options, sampleRows int) (*arrow.Schema, error) {
		return nil, errors.New("schema inference is not available yet (format.Infer)")
	}
)
