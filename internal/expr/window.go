package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// WindowPartition is one sorted partition as window functions see it;
// see functions.WindowPartition.
type WindowPartition = functions.WindowPartition

// WindowFunc is a bound window function call: a ranking or offset
// function (rank(), lag(x, 1)), or an aggregate over each row's frame
// (Agg set). Args are already cast to what the function reads; exec
// evaluates them over the partition.
type WindowFunc struct {
	Name        string
	Args        []Expr
	IgnoreNulls bool
	// Agg is set for an aggregate over the frame; Args are then its args.
	Agg   *Aggregate
	bound *functions.WindowBound
}

// IsWindowFunction reports whether name runs only with OVER (rank, lag).
func IsWindowFunction(name string) bool { return functions.Is(name, functions.WindowFunction) }

// orderSensitive aggregates depend on the order rows reach them.
var orderSensitive = map[string]bool{"first": true, "last": true, "collect_list": true}

// NewWindowFunc binds name over args: a window function, or any
// aggregate (count(*) has no args). IGNORE NULLS is valid for lag, lead,
// nth_value, first_value and last_value.
func NewWindowFunc(name string, args []Expr, ignoreNulls bool) (*WindowFunc, error) {
	def, ok := functions.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown window function %s", strings.ToLower(name))
	}
	w := &WindowFunc{Name: def.Name, IgnoreNulls: ignoreNulls}
	switch def.Kind {
	case functions.Aggregate:
		aargs := args
		if ignoreNulls {
			if def.Name != "first" && def.Name != "last" {
				return nil, fmt.Errorf("IGNORE NULLS is not valid for %s", def.Name)
			}
			if len(args) != 1 {
				return nil, fmt.Errorf("%s takes IGNORE NULLS or a second argument, not both", def.Name)
			}
			aargs = []Expr{args[0], MustLit(true, types.Boolean)}
		}
		a, err := NewAggregate(def.Name, aargs, false)
		if err != nil {
			return nil, err
		}
		w.Agg, w.Args = a, a.Args
		return w, nil
	case functions.WindowFunction:
	default:
		return nil, fmt.Errorf("%s is not a window function", def.Name)
	}
	if err := def.CheckArity(len(args)); err != nil {
		return nil, err
	}
	b, err := def.Win(bindArgs(args), ignoreNulls)
	if err != nil {
		return nil, err
	}
	cargs, err := applyCasts(args, b.Casts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", def.Name, err)
	}
	w.Args, w.bound = cargs, b
	return w, nil
}

// Type is the result type.
func (w *WindowFunc) Type() arrow.DataType {
	if w.Agg != nil {
		return w.Agg.Type()
	}
	return w.bound.Type
}

// UsesFrame reports whether the function reads each row's frame.
func (w *WindowFunc) UsesFrame() bool { return w.Agg != nil || w.bound.UsesFrame }

// NeedsOrder reports whether the window must have an ORDER BY.
func (w *WindowFunc) NeedsOrder() bool { return w.Agg == nil && w.bound.NeedsOrder }

// OrderSensitive reports whether an aggregate's result depends on the
// order of the frame's rows (first, last, collect_list).
func (w *WindowFunc) OrderSensitive() bool { return w.Agg != nil && orderSensitive[w.Agg.Name] }

// Eval computes one value per row of p (not for aggregates: exec folds
// their frames through the accumulator).
func (w *WindowFunc) Eval(ctx context.Context, p *WindowPartition) (arrow.Array, error) {
	if w.bound == nil {
		return nil, fmt.Errorf("internal error: %s is an aggregate", w.Name)
	}
	return w.bound.Eval(ctx, p)
}

// String prints the call: rank(), lag(x, 1) IGNORE NULLS.
func (w *WindowFunc) String() string {
	if w.Agg != nil {
		return w.Agg.String()
	}
	parts := make([]string, len(w.Args))
	for i, a := range w.Args {
		parts[i] = a.String()
	}
	s := w.Name + "(" + strings.Join(parts, ", ") + ")"
	if w.IgnoreNulls {
		s += " IGNORE NULLS"
	}
	return s
}

// Remap returns a copy reading remapped columns.
func (w *WindowFunc) Remap(mapping map[int]int) *WindowFunc {
	c := *w
	if w.Agg != nil {
		c.Agg = w.Agg.Remap(mapping)
		c.Args = c.Agg.Args
		return &c
	}
	c.Args = make([]Expr, len(w.Args))
	for i, x := range w.Args {
		c.Args[i] = Remap(x, mapping)
	}
	return &c
}

// FrameUnit is how a frame's offsets count: rows, or ORDER BY values.
type FrameUnit int

// The frame units.
const (
	FrameRows FrameUnit = iota
	FrameRange
)

// BoundKind is where one end of a frame lies, in partition order.
type BoundKind int

// The frame bounds.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a frame. For ROWS, and RANGE over an integer,
// DATE (days) or TIMESTAMP (µs) key, the offset is N; for RANGE over a
// floating or decimal key, F. Text is the offset as written, for EXPLAIN.
type FrameBound struct {
	Kind BoundKind
	N    int64
	F    float64
	Text string
}

// WindowFrame is the rows each row's aggregate reads.
type WindowFrame struct {
	Unit       FrameUnit
	Start, End FrameBound
}

// WholePartition is the frame of a window without ORDER BY.
var WholePartition = WindowFrame{Unit: FrameRows, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: UnboundedFollowing}}

// DefaultOrderedFrame is Spark's frame when ORDER BY is given: the rows
// up to the current one and its peers.
var DefaultOrderedFrame = WindowFrame{Unit: FrameRange, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}

func (f WindowFrame) String() string {
	u := "ROWS"
	if f.Unit == FrameRange {
		u = "RANGE"
	}
	return u + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return b.Text + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return b.Text + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}
