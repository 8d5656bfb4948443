package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

// nestedBatch is (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>):
// row 0 [a b] {x:1}; row 1 NULL {}; row 2 [] NULL; row 3 [NULL] {y:2 z:3}.
func nestedBatch(t testing.TB) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	ids := array.NewInt64Builder(mem)
	ids.AppendValues([]int64{0, 1, 2, 3}, nil)
	lb := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	sb := lb.ValueBuilder().(*array.StringBuilder)
	lb.Append(true)
	sb.Append("a")
	sb.Append("b")
	lb.AppendNull()
	lb.Append(true)
	lb.Append(true)
	sb.AppendNull()
	mb := array.NewMapBuilder(mem, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64, false)
	kb := mb.KeyBuilder().(*array.StringBuilder)
	ib := mb.ItemBuilder().(*array.Int64Builder)
	mb.Append(true)
	kb.Append("x")
	ib.Append(1)
	mb.Append(true)
	mb.AppendNull()
	mb.Append(true)
	kb.Append("y")
	ib.Append(2)
	kb.Append("z")
	ib.Append(3)
	cols := []arrow.Array{ids.NewArray(), lb.NewArray(), mb.NewArray()}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: cols[0].DataType()}, {Name: "tags", Type: cols[1].DataType()}, {Name: "attrs", Type: cols[2].DataType()},
	}, nil)
	return array.NewRecordBatch(schema, cols, 4)
}

func TestGenerate(t *testing.T) {
	b := nestedBatch(t)
	id := expr.Col(0, "id", arrow.PrimitiveTypes.Int64)
	tags := expr.Col(1, "tags", b.Schema().Field(1).Type)
	attrs := expr.Col(2, "attrs", b.Schema().Field(2).Type)
	tests := []struct {
		name            string
		exprs           []expr.Expr
		index           int
		outer, position bool
		cols            []string
		want            []string
	}{
		{"explode", []expr.Expr{id, tags}, 1, false, false, []string{"id", "col"}, []string{"0,a", "0,b", "3,NULL"}},
		{"explode_outer", []expr.Expr{tags, id}, 0, true, false, []string{"col", "id"}, []string{"a,0", "b,0", "NULL,1", "NULL,2", "NULL,3"}},
		{"posexplode", []expr.Expr{id, tags}, 1, false, true, []string{"id", "pos", "col"}, []string{"0,0,a", "0,1,b", "3,0,NULL"}},
		{"map", []expr.Expr{id, attrs}, 1, false, false, []string{"id", "key", "value"}, []string{"0,x,1", "3,y,2", "3,z,3"}},
		{"map outer pos", []expr.Expr{id, attrs}, 1, true, true, []string{"id", "pos", "key", "value"},
			[]string{"0,0,x,1", "1,NULL,NULL,NULL", "2,NULL,NULL,NULL", "3,0,y,2", "3,1,z,3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGenerate(tt.exprs, nil, tt.index, tt.outer, tt.position)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range tt.cols {
				if g.Schema().Field(i).Name != c {
					t.Fatalf("schema %s", g.Schema())
				}
			}
			eqRows(t, runOps(t, []arrow.RecordBatch{b}, g), tt.want)
		})
	}
	if _, err := NewGenerate([]expr.Expr{id}, nil, 0, false, false); err == nil {
		t.Fatal("want error exploding BIGINT")
	}
	if _, err := NewGenerate([]expr.Expr{id, tags}, []string{"x"}, 1, false, false); err == nil {
		t.Fatal("want names error")
	}
	g, _ := NewGenerate([]expr.Expr{id, tags}, []string{"i", "tag"}, 1, true, false)
	if g.String() != "Generate explode_outer(tags) [id, tags]" || g.Schema().Field(1).Name != "tag" {
		t.Fatal(g.String())
	}
}
