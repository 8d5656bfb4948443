package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// TestOperators checks the list against real instances.
func TestOperators(t *testing.T) {
	b := nestedBatch(t)
	s := b.Schema()
	i64 := arrow.PrimitiveTypes.Int64
	id := expr.Col(0, "id", i64)
	f, _ := NewFilter(s, tcmp{0, 1})
	p, _ := NewProject([]expr.Expr{id}, []string{"id"})
	h, _ := NewHashAggregate(nil, nil, nil)
	j, _ := NewHashJoin(context.Background(), InnerJoin, s, s, nil, []expr.Expr{id}, []expr.Expr{id}, nil)
	g, _ := NewGenerate([]expr.Expr{expr.Col(1, "tags", s.Field(1).Type)}, nil, 0, false, false)
	et, _ := NewEventTime(tsSchema, 0)
	wa := newTumbleCount(t, Append)
	sa := NewStreamAggregate(h, Complete)
	sw, _ := NewSessionWindow(tsSchema, nil, expr.Col(0, "ts", tsSchema.Field(0).Type), 60_000_000, "__session")
	win, _ := NewWindow(s, nil, nil, nil, nil, nil)
	ops := map[string]Operator{
		"Window": win,
		"Filter": f, "Project": p, "Limit": NewLimit(s, 1, 0), "HashAggregate": h,
		"Sort": NewSort(s, nil), "TopN": NewTopN(s, nil, 1, 0), "Distinct": NewDistinct(s), "HashJoin": j, "Generate": g,
		"EventTime": et, "WindowAggregate": wa, "StreamAggregate": sa, "SessionWindow": sw,
		"WindowPartitioner": wa.Partitioner(4),
	}
	list := Operators()
	if len(list) != len(ops) {
		t.Fatalf("%d listed, %d known", len(list), len(ops))
	}
	for _, info := range list {
		op, ok := ops[info.Name]
		if !ok {
			t.Fatalf("%s not known", info.Name)
		}
		if _, st := op.(Stateful); st != info.Stateful {
			t.Errorf("%s: Stateful listed %v", info.Name, info.Stateful)
		}
		if !strings.HasPrefix(op.String(), info.Name) {
			t.Errorf("%s: EXPLAIN line %q", info.Name, op.String())
		}
	}
}
