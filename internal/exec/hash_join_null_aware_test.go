package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// TestNullAwareAntiJoin checks x NOT IN (build keys): an empty build side
// keeps every row (NULL probes too), a NULL build key keeps none, and
// otherwise NULL probe keys are dropped along with matches.
func TestNullAwareAntiJoin(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	probe := []arrow.RecordBatch{typedBatch(t, []any{int64(1), int64(2), nil, int64(4)}, []any{"a", "b", "c", "d"}, []any{int64(1), int64(2), int64(3), int64(4)})}
	pk := []expr.Expr{expr.Col(0, "k", i64)}
	bk := []expr.Expr{expr.Col(0, "bk", i64)}
	tests := []struct {
		name  string
		build []any
		want  []string
	}{
		{"no nulls", []any{int64(1), int64(3)}, []string{"2,b,2", "4,d,4"}},
		{"null in build", []any{int64(1), nil}, nil},
		{"empty build", []any{}, []string{"1,a,1", "2,b,2", "NULL,c,3", "4,d,4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			build := []arrow.RecordBatch{batchOf(t, []string{"bk"}, tt.build)}
			j, err := NewHashJoin(context.Background(), NullAwareAntiJoin, probe[0].Schema(), build[0].Schema(), build, pk, bk, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Release()
			eqRows(t, runOps(t, probe, j), tt.want)
		})
	}
	build := []arrow.RecordBatch{batchOf(t, []string{"bk"}, []any{int64(1)})}
	if _, err := NewHashJoin(context.Background(), NullAwareAntiJoin, probe[0].Schema(), build[0].Schema(), build, nil, nil, nil); err == nil {
		t.Fatal("want an error for a null-aware anti join without a key")
	}
}
