package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/exec"
	"sluice/internal/plan"
)

// newOperator builds the physical operator for a single-input node that
// does not run inside scan workers.
func newOperator(n plan.Node) (exec.Operator, error) {
	switch t := n.(type) {
	case *plan.Limit:
		return exec.NewLimit(t.Input.Schema(), t.N, t.Offset), nil
	}
	return nil, fmt.Errorf("%T: %w", n, ErrNotSupported)
}

func newJoin(j *plan.Join, build []arrow.RecordBatch) (exec.Operator, error) {
	return nil, fmt.Errorf("join: %w", ErrNotSupported)
}
