package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestIsNullSeesTheUntypedNull(t *testing.T) {
	n := array.NewNull(3)
	defer n.Release()
	if n.IsNull(1) {
		t.Log("arrow now reports Null-type rows as null itself")
	}
	if !IsNull(n, 1) {
		t.Fatal("a Null-type array's rows are NULL")
	}
	b := array.NewInt32Builder(memory.DefaultAllocator)
	b.AppendValues([]int32{1, 0}, []bool{true, false})
	a := b.NewArray()
	defer a.Release()
	if IsNull(a, 0) || !IsNull(a, 1) {
		t.Fatal("typed nulls follow the validity bitmap")
	}
	if FormatValue(n, 0) != "NULL" || ValueAt(n, 0) != nil {
		t.Fatal("printing an untyped NULL")
	}
}
