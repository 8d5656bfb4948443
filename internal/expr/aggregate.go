package expr

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
)

// Accumulator folds rows into groups for one aggregate; see
// functions.Accumulator for the contract.
type Accumulator = functions.Accumulator

// Aggregate is a bound aggregate call such as count(DISTINCT clientip).
// Args are already cast to what the accumulator reads: exec evaluates
// them per batch and passes the arrays to Update.
//
// With a FILTER (WHERE cond), Filtered is true and cond is the last of
// Args (exec evaluates it like any argument; the accumulator drops the
// rows where it is not TRUE).
type Aggregate struct {
	Name     string
	Args     []Expr
	Distinct bool
	Filtered bool
	bound    *functions.AggBound
}

// NewFilteredAggregate is NewAggregate with FILTER (WHERE filter);
// filter nil is no filter.
func NewFilteredAggregate(name string, args []Expr, distinct bool, filter Expr) (*Aggregate, error) {
	a, err := NewAggregate(name, args, distinct)
	if err != nil || filter == nil {
		return a, err
	}
	if filter.Type().ID() != arrow.BOOL && filter.Type().ID() != arrow.NULL {
		return nil, fmt.Errorf("FILTER condition must be BOOLEAN, got %s", filter.Type())
	}
	c := *a
	c.Args = append(append([]Expr{}, a.Args...), filter)
	c.Filtered = true
	c.bound = functions.Filtered(a.bound)
	return &c, nil
}

// CallArgs are the arguments of the call itself (Args without the FILTER
// condition).
func (a *Aggregate) CallArgs() []Expr {
	if a.Filtered {
		return a.Args[:len(a.Args)-1]
	}
	return a.Args
}

// FilterExpr is the FILTER condition, nil when there is none.
func (a *Aggregate) FilterExpr() Expr {
	if a.Filtered {
		return a.Args[len(a.Args)-1]
	}
	return nil
}

// NewAggregate binds an aggregate by name; count(*) has no args.
func NewAggregate(name string, args []Expr, distinct bool) (*Aggregate, error) {
	def, ok := functions.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown aggregate function %s", strings.ToLower(name))
	}
	if def.Kind != functions.Aggregate {
		return nil, fmt.Errorf("%s is not an aggregate function", def.Name)
	}
	if err := def.CheckArity(len(args)); err != nil {
		return nil, err
	}
	if distinct && len(args) == 0 {
		return nil, fmt.Errorf("%s(DISTINCT) needs an argument", def.Name)
	}
	b, err := def.Agg(bindArgs(args), distinct)
	if err != nil {
		return nil, err
	}
	cargs, err := applyCasts(args, b.Casts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", def.Name, err)
	}
	if distinct {
		b = functions.Distinct(b)
	}
	return &Aggregate{Name: def.Name, Args: cargs, Distinct: distinct, bound: b}, nil
}

// Type is the result type.
func (a *Aggregate) Type() arrow.DataType { return a.bound.Type }

// String prints the call: count(*), count(DISTINCT clientip).
func (a *Aggregate) String() string {
	f := ""
	if a.Filtered {
		f = " FILTER (WHERE " + a.FilterExpr().String() + ")"
	}
	args := a.CallArgs()
	if len(args) == 0 {
		return a.Name + "(*)" + f
	}
	parts := make([]string, len(args))
	for i, x := range args {
		parts[i] = x.String()
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	return a.Name + "(" + d + strings.Join(parts, ", ") + ")" + f
}

// NewAccumulator returns empty state for this aggregate.
func (a *Aggregate) NewAccumulator() Accumulator { return a.bound.New() }

// Remap returns a copy reading remapped columns.
func (a *Aggregate) Remap(mapping map[int]int) *Aggregate {
	c := *a
	c.Args = make([]Expr, len(a.Args))
	for i, x := range a.Args {
		c.Args[i] = Remap(x, mapping)
	}
	return &c
}
