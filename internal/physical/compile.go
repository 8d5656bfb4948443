package physical

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/exec"
	"sluice/internal/plan"
	"sluice/internal/usererr"
)

// ErrNotSupported is returned for a logical node that has no physical
// operator.
var ErrNotSupported = usererr.New(usererr.Unsupported, "not supported yet")

// Options say how to compile.
type Options struct {
	// Parallelism is the workers per scan; <= 0 means GOMAXPROCS.
	Parallelism int
	// Streaming compiles the first scan on the probe path as a stream's
	// input (Plan.StreamScan) and aggregations over it as streaming ones.
	Streaming bool
	// OutputMode is how streaming aggregations emit (Streaming only).
	OutputMode exec.OutputMode
	// Now fixes now() in the constants evaluated while compiling (VALUES
	// rows), as expr.WithNow does for the rest of the query; zero: the
	// wall clock.
	Now time.Time
	// Memory bounds the state of the plan's operators; nil: unlimited.
	// Batch operators spill to disk when over it; the state of a
	// streaming query's operators must fit (exec.StateBudgeted).
	Memory *exec.MemoryBudget
}

// Plan is a compiled query, ready to run once its scans are listed and its
// lookups loaded (see the package doc).
type Plan struct {
	// Root is the stage whose output is the query's result.
	Root *exec.Stage
	// StreamScan is the stream's input scan, a leaf of Root, and
	// StreamTable the table it reads (Streaming only; nil when the query
	// reads no table on its probe path).
	StreamScan  *exec.Scan
	StreamTable string
	// EventTime drops rows behind the watermark and reports event-time
	// progress; EventDelay is the table's watermark delay in µs (Streaming
	// with a watermark only).
	EventTime  *exec.EventTime
	EventDelay int64
	// Lookups are the build sides of the plan's hash joins, to load before
	// running: a join's own lookups (joins inside its build side) come
	// before it.
	Lookups []Lookup
}

// Lookup is one hash join's build side, read in full before the probe
// side streams (and re-read by a stream-static join on an interval).
type Lookup struct {
	Join *exec.HashJoin
	// Build is the join's build plan (as set by SetBuildPlan).
	Build *exec.Stage
}

// Compile turns an optimized logical plan into a physical one without
// reading anything: plan errors (unknown operators, join keys with no
// common type, bad expressions) surface here, I/O errors at run time.
func Compile(n plan.Node, opts Options) (*Plan, error) {
	p := &Plan{}
	c := &compiler{opts: opts, streaming: opts.Streaming, p: p}
	ls, err := c.build(n)
	if err != nil {
		return nil, err
	}
	p.Root = ls.Stage
	markUnordered(p)
	if err := setBudgets(p, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// setBudgets hands opts.Memory to the operators: a streaming plan's
// stateful operators get it with their state ids (their state cannot
// spill), every other plan's spilling operators as a spill threshold.
// The build sides of joins are always read in full, so they may spill.
func setBudgets(p *Plan, opts Options) error {
	if opts.Memory == nil {
		return nil
	}
	if !opts.Streaming {
		exec.SetMemoryBudgets(p.Root, opts.Memory)
		return nil
	}
	for _, l := range p.Lookups {
		exec.SetMemoryBudgets(l.Build, opts.Memory)
	}
	ops, err := exec.StatefulOps(p.Root)
	if err != nil {
		return err
	}
	for _, op := range ops {
		if sb, ok := op.Op.(exec.StateBudgeted); ok {
			sb.SetStateBudget(op.ID, opts.Memory)
		}
	}
	return nil
}

// compiler compiles one tree: the query, or a join's build side (which
// is never the stream, so streaming is false there). Every compiler of a
// query adds to the same Plan.
type compiler struct {
	opts      Options
	streaming bool
	p         *Plan
	// events maps each compiled event-time node to its operator, so a
	// window aggregate can take over its late-row decision.
	events map[*plan.EventTime]*exec.EventTime
}

// localStage remembers the stateless operators that run inside scan
// workers, so later filters and projections can join them.
type localStage struct {
	*exec.Stage
	local []func() (exec.Operator, error)
}

func (c *compiler) build(n plan.Node) (*localStage, error) {
	switch t := n.(type) {
	case *plan.Scan:
		src := t.Source
		if src == nil {
			src = t.Base
		}
		sc := &exec.Scan{Name: t.Table, Source: src, Parallelism: c.opts.Parallelism}
		if c.streaming && c.p.StreamScan == nil {
			c.p.StreamScan, c.p.StreamTable = sc, t.Table
		}
		return &localStage{Stage: &exec.Stage{Scan: sc}}, nil
	case *plan.Values:
		src, err := valuesSource(t, c.opts.Now)
		if err != nil {
			return nil, err
		}
		return &localStage{Stage: &exec.Stage{Scan: &exec.Scan{Name: "VALUES", Source: src, Splits: src.Splits(), Parallelism: 1}}}, nil
	case *plan.Filter:
		in, err := c.build(t.Input)
		if err != nil {
			return nil, err
		}
		schema := t.Input.Schema()
		return in.addStateless(func() (exec.Operator, error) { return exec.NewFilter(schema, t.Pred) })
	case *plan.Project:
		in, err := c.build(t.Input)
		if err != nil {
			return nil, err
		}
		return in.addStateless(func() (exec.Operator, error) { return exec.NewProject(t.Exprs, t.Names) })
	case *plan.EventTime:
		in, err := c.build(t.Input)
		if err != nil {
			return nil, err
		}
		op, err := exec.NewEventTime(t.Input.Schema(), t.Column)
		if err != nil {
			return nil, err
		}
		if c.streaming {
			c.p.EventTime, c.p.EventDelay = op, t.Delay
			if c.events == nil {
				c.events = map[*plan.EventTime]*exec.EventTime{}
			}
			c.events[t] = op
		}
		return in.add(op), nil
	case *plan.Union:
		st := &exec.Stage{}
		for _, child := range t.Inputs {
			in, err := c.build(child)
			if err != nil {
				return nil, err
			}
			st.Inputs = append(st.Inputs, in.Stage)
		}
		return &localStage{Stage: st}, nil
	case *plan.Join:
		return c.join(t)
	case *plan.SetOperation:
		low, err := t.Lower()
		if err != nil {
			return nil, err
		}
		return c.build(low)
	case *plan.Aggregate:
		if c.streaming && onStreamPath(t.Input) {
			in, err := c.build(t.Input)
			if err != nil {
				return nil, err
			}
			op, err := c.streamAggregate(t)
			if err != nil {
				return nil, err
			}
			if wa, ok := op.(*exec.WindowAggregate); ok {
				if et := c.events[rowwiseEventTime(t.Input)]; et != nil {
					wa.DropLateFrom(et)
				}
			}
			return in.add(op), nil
		}
	}
	// Single-input operators that keep state.
	kids := n.Children()
	if len(kids) != 1 {
		return nil, fmt.Errorf("internal error: no physical operator for %T", n)
	}
	in, err := c.build(kids[0])
	if err != nil {
		return nil, err
	}
	op, err := newOperator(n)
	if err != nil {
		return nil, err
	}
	if a, ok := n.(*plan.Aggregate); ok {
		letInputAggregateEmitAnyOrder(op, len(a.Keys), in)
	}
	if sw, ok := op.(*exec.SessionWindow); ok && c.streaming {
		if et := c.events[rowwiseEventTime(kids[0])]; et != nil {
			sw.DropLateFrom(et)
		}
	}
	if w, ok := op.(*exec.Window); ok && c.streaming {
		// The binder let it through partitioned by an event-time window;
		// only append mode emits each window whole, once.
		if c.opts.OutputMode != exec.Append {
			return nil, fmt.Errorf("window functions in a stream need output_mode = 'append': in %s mode a window's groups are emitted before it is complete", c.opts.OutputMode)
		}
		w.ComputeEveryWatermark()
	}
	return in.add(op), nil
}

// join compiles the probe side into this stage and the build side into a
// stage of its own, always read in full (a stream-static join), which the
// join loads at run time.
func (c *compiler) join(t *plan.Join) (*localStage, error) {
	probe, err := c.build(t.Left)
	if err != nil {
		return nil, err
	}
	bc := &compiler{opts: c.opts, p: c.p}
	build, err := bc.build(t.Right)
	if err != nil {
		return nil, err
	}
	// The table starts empty: no I/O while compiling.
	op, err := newJoin(context.Background(), t, []arrow.RecordBatch{})
	if err != nil {
		return nil, err
	}
	op.SetBuildPlan(build.Stage)
	c.p.Lookups = append(c.p.Lookups, Lookup{Join: op, Build: build.Stage})
	return probe.add(op), nil
}

// addStateless runs f's operator inside the scan workers when nothing
// stateful sits between it and the scan; otherwise in the stage's chain.
func (ls *localStage) addStateless(f func() (exec.Operator, error)) (*localStage, error) {
	if ls.Scan != nil && len(ls.Ops) == 0 {
		ls.local = append(ls.local, f)
		local := append([]func() (exec.Operator, error){}, ls.local...)
		ls.Scan.Local = func() ([]exec.Operator, error) {
			ops := make([]exec.Operator, len(local))
			for i, mk := range local {
				op, err := mk()
				if err != nil {
					return nil, err
				}
				ops[i] = op
			}
			return ops, nil
		}
		// Validate once now so plan errors surface before reading.
		if _, err := f(); err != nil {
			return nil, err
		}
		return ls, nil
	}
	op, err := f()
	if err != nil {
		return nil, err
	}
	return ls.add(op), nil
}

func (ls *localStage) add(op exec.Operator) *localStage {
	ls.Ops = append(ls.Ops, op)
	return ls
}
