// Package functions holds Sluice's scalar functions, operators and
// aggregates as vectorized kernels over Arrow arrays, and the one registry
// (registry.go) that lists every one of them.
//
// A function is bound once per call site: its Binder sees the argument
// types (and the values of constant arguments, so a regexp or a date
// format is compiled once) and returns the result type, the casts the
// arguments need and a Kernel that runs over whole arrays:
//
//	def, _ := functions.Lookup("upper")
//	b, _ := def.Bind([]functions.Arg{{Type: types.String}})
//	out, _ := b.Eval(ctx, n, []arrow.Array{names}) // STRING, NULL where names is NULL
//
// Package expr builds on this; most callers want expr.Call instead.
package functions

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Kind says how the planner treats a registry entry.
type Kind string

// The kinds of registry entries.
const (
	Scalar    Kind = "scalar"    // one value per row: a Kernel
	Aggregate Kind = "aggregate" // folds groups of rows: an Accumulator
	Generator Kind = "generator" // several rows per input row (explode, hop): the planner
	Window    Kind = "window"    // session windows: the planner, no kernel
	// WindowFunction entries run only with OVER (...) over a sorted
	// partition: a WindowMaker (window_ranking.go, window_offsets.go).
	WindowFunction Kind = "window function"
)

// Arg describes one argument at bind time. Const is true when the
// argument is a constant; Value is then its Go value in the form Lit
// accepts (nil for NULL, int64 micros for TIMESTAMP, ...).
type Arg struct {
	Type  arrow.DataType
	Const bool
	Value any
}

// Kernel evaluates a bound function over n rows. args hold n elements each
// (already cast to the types the Binder asked for); the result is owned by
// the caller. Kernels never keep args.
type Kernel func(ctx context.Context, n int, args []arrow.Array) (arrow.Array, error)

// Bound is a function resolved for one call site.
type Bound struct {
	Type arrow.DataType
	// Casts gives, per argument, the type the argument must be cast to
	// before Eval (nil: use as is). A nil slice means no casts.
	Casts []arrow.DataType
	Eval  Kernel
}

// Binder resolves a function for the given arguments or explains why it
// does not apply.
type Binder func(args []Arg) (*Bound, error)

// Def is one registry entry.
type Def struct {
	Name    string
	Aliases []string
	MinArgs int
	MaxArgs int // -1: any number
	Kind    Kind
	// Operator marks SQL operators ("+", "and", "like", ...), which are
	// called through syntax rather than by name.
	Operator bool
	// Volatile functions (now, rand, uuid) are never constant-folded.
	Volatile bool
	Bind     Binder      // scalar functions and operators
	Agg      AggMaker    // aggregates
	Win      WindowMaker // window functions
	Doc      string
}

// CheckArity returns the error users see for a wrong argument count.
func (d *Def) CheckArity(n int) error {
	if n >= d.MinArgs && (d.MaxArgs < 0 || n <= d.MaxArgs) {
		return nil
	}
	var want string
	switch {
	case d.MaxArgs < 0:
		want = fmt.Sprintf("at least %d argument%s", d.MinArgs, plural(d.MinArgs))
	case d.MinArgs == d.MaxArgs:
		want = fmt.Sprintf("%d argument%s", d.MinArgs, plural(d.MinArgs))
	case d.MaxArgs == d.MinArgs+1:
		want = fmt.Sprintf("%d or %d arguments", d.MinArgs, d.MaxArgs)
	default:
		want = fmt.Sprintf("%d to %d arguments", d.MinArgs, d.MaxArgs)
	}
	return fmt.Errorf("function %s expects %s, got %d", d.Name, want, n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var byName = func() map[string]*Def {
	m := map[string]*Def{}
	for i := range registry {
		d := &registry[i]
		m[d.Name] = d
		for _, a := range d.Aliases {
			m[a] = d
		}
	}
	return m
}()

// Lookup finds a function or operator by name, case-insensitively.
func Lookup(name string) (*Def, bool) {
	d, ok := byName[strings.ToLower(name)]
	return d, ok
}

// All returns every registry entry, in registry order.
func All() []Def { return registry }

// Is reports whether name is registered with the given kind.
func Is(name string, k Kind) bool {
	d, ok := Lookup(name)
	return ok && d.Kind == k
}
