package physical

import "sluice/internal/exec"

// letInputAggregateEmitAnyOrder tells the hash aggregate feeding op
// through only projections and filters that its groups' order does not
// matter, when op is a global aggregate (one row whatever the order)
// whose aggregates are exact in any order: SELECT count(*) FROM (SELECT
// k ... GROUP BY k). A spilled inner aggregate then skips the final merge
// into first-seen order.
func letInputAggregateEmitAnyOrder(op exec.Operator, groupKeys int, in *localStage) {
	outer, ok := op.(*exec.HashAggregate)
	if !ok || groupKeys > 0 || !outer.AnyOrder() {
		return
	}
	for i := len(in.Ops) - 1; i >= 0; i-- {
		switch t := in.Ops[i].(type) {
		case *exec.Project, *exec.Filter:
			continue
		case *exec.HashAggregate:
			t.EmitInAnyOrder()
		}
		return
	}
}
