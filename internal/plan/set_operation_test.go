package plan

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

func TestSetOperationLowerKeepsSchema(t *testing.T) {
	row := func(v int64, s string) []expr.Expr {
		return []expr.Expr{expr.MustLit(v, types.BigInt), expr.MustLit(s, types.String)}
	}
	names := []string{"id", "name"}
	ts := []arrow.DataType{types.BigInt, types.String}
	l := NewValues(names, ts, [][]expr.Expr{row(1, "a"), row(2, "b")})
	r := NewValues([]string{"x", "y"}, ts, [][]expr.Expr{row(1, "a")})
	for _, tc := range []struct {
		op   string
		all  bool
		name string
		gen  bool
	}{
		{SetIntersect, false, "Intersect", false},
		{SetIntersect, true, "Intersect All", true},
		{SetExcept, false, "Except", false},
		{SetExcept, true, "Except All", true},
	} {
		s := &SetOperation{Op: tc.op, All: tc.all, Left: l, Right: r}
		if s.String() != tc.name {
			t.Errorf("String() = %q, want %q", s.String(), tc.name)
		}
		low, err := s.Lower()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !low.Schema().Equal(l.Schema()) {
			t.Errorf("%s: lowered schema %s, want %s", tc.name, low.Schema(), l.Schema())
		}
		plan := Format(low)
		if strings.Contains(plan, "Explode") != tc.gen {
			t.Errorf("%s: repeat rows = %v, want %v:\n%s", tc.name, !tc.gen, tc.gen, plan)
		}
		if !strings.Contains(plan, "Aggregate keys=[id, name]") {
			t.Errorf("%s: want an aggregate over every column:\n%s", tc.name, plan)
		}
	}
}

func TestSetOperationWithChildren(t *testing.T) {
	v := NewValues([]string{"a"}, []arrow.DataType{types.Int}, [][]expr.Expr{{expr.MustLit(int32(1), types.Int)}})
	s := &SetOperation{Op: SetExcept, Left: v, Right: v}
	if _, err := s.WithChildren(v); err == nil {
		t.Fatal("WithChildren with one child succeeded")
	}
	n, err := s.WithChildren(v, v)
	if err != nil || n.(*SetOperation).Op != SetExcept {
		t.Fatalf("WithChildren = %v, %v", n, err)
	}
}
