package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

func TestProject(t *testing.T) {
	b := batchOf(t, []string{"a", "b"}, ints(int64(1), nil, int64(3)), []any{"x", "y", nil})
	p, err := NewProject([]expr.Expr{tcol{1, arrow.BinaryTypes.String}, tcol{0, arrow.PrimitiveTypes.Int64}, tcmp{0, 1}}, []string{"b", "a", "big"})
	if err != nil {
		t.Fatal(err)
	}
	eqRows(t, runOps(t, []arrow.RecordBatch{b}, p), []string{"x,1,false", "y,NULL,NULL", "NULL,3,true"})
	if got := p.Schema().String(); p.Schema().NumFields() != 3 || p.Schema().Field(2).Name != "big" {
		t.Fatal(got)
	}
	if p.String() != "Project [c1 AS b, c0 AS a, (c0 > 1) AS big]" {
		t.Fatal(p.String())
	}
	if _, err := NewProject([]expr.Expr{tcol{0, arrow.PrimitiveTypes.Int64}}, nil); err == nil {
		t.Fatal("want error for name count mismatch")
	}
}
