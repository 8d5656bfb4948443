package plan

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestIsWindowKey(t *testing.T) {
	window := types.Struct(arrow.Field{Name: "start", Type: types.Timestamp}, arrow.Field{Name: "end", Type: types.Timestamp})
	other := types.Struct(arrow.Field{Name: "start", Type: types.BigInt}, arrow.Field{Name: "end", Type: types.BigInt})
	for _, c := range []struct {
		typ  arrow.DataType
		want bool
	}{{window, true}, {other, false}, {types.Timestamp, false}} {
		if got := IsWindowKey(expr.Col(0, "w", c.typ)); got != c.want {
			t.Errorf("IsWindowKey(%s) = %v", c.typ, got)
		}
	}
}
