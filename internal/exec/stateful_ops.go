package exec

import (
	"fmt"
)

// StatefulOp is one stateful operator of a plan, with an id that stays
// the same across restarts of the same query.
type StatefulOp struct {
	// ID is the operator's kind and its ordinal among the plan's
	// operators of that kind: "window_aggregate-0".
	ID string
	Op Stateful
	// Description is the operator's own, with the properties of the
	// StateShapers in front of it.
	Description StateDescription
}

// StatefulOps lists root's stateful operators in a fixed order: input
// stages before their consumer, within a stage in chain order. Scan.Local
// is called once to see the scan workers' operators, which are stateless
// but may be StateShapers.
func StatefulOps(root *Stage) ([]StatefulOp, error) {
	var out []StatefulOp
	seen := map[string]int{}
	var shape []StateProperty
	visit := func(op Operator) {
		if s, ok := op.(StateShaper); ok {
			shape = append(shape, s.StateShape()...)
		}
		sf, ok := op.(Stateful)
		if !ok {
			return
		}
		d := sf.StateDescription().With(shape...)
		shape = nil
		out = append(out, StatefulOp{ID: fmt.Sprintf("%s-%d", d.Kind, seen[d.Kind]), Op: sf, Description: d})
		seen[d.Kind]++
	}
	var walk func(*Stage) error
	walk = func(s *Stage) error {
		for _, in := range s.Inputs {
			if err := walk(in); err != nil {
				return err
			}
		}
		if s.Scan != nil && s.Scan.Local != nil {
			local, err := s.Scan.Local()
			if err != nil {
				return fmt.Errorf("listing stateful operators: %w", err)
			}
			for _, op := range local {
				visit(op)
			}
		}
		for _, op := range s.Ops {
			visit(op)
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	return out, nil
}
