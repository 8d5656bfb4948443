package engine

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector/memtable"
	"sluice/internal/exec"
	"sluice/internal/expr"
	"sluice/internal/plan"
)

// compiler turns an optimized logical plan into exec stages. Join build
// sides are run to completion while compiling, so the probe side can
// stream.
type compiler struct {
	e *Engine
	// explainOnly skips running join build sides.
	explainOnly bool
	// streaming compiles the first scan on the probe path as the stream's
	// input: no splits now, the stream runner feeds them per epoch.
	streaming   bool
	streamScan  *exec.Scan
	streamTable string
	eventTime   *exec.EventTime
	eventDelay  int64
	outputMode  exec.OutputMode
	// lookups are a stream's static join sides, re-read on an interval.
	lookups []lookup
	splits  int
	bytes   int64
}

// localStage remembers the stateless operators that run inside scan
// workers, so later filters and projections can join them.
type localStage struct {
	*exec.Stage
	local []func() (exec.Operator, error)
}

func (c *compiler) compile(ctx context.Context, n plan.Node) (*exec.Stage, error) {
	ls, err := c.build(ctx, n)
	if err != nil {
		return nil, err
	}
	return ls.Stage, nil
}

func (c *compiler) build(ctx context.Context, n plan.Node) (*localStage, error) {
	switch t := n.(type) {
	case *plan.Scan:
		src := t.Source
		if src == nil {
			src = t.Base
		}
		if c.streaming && c.streamScan == nil {
			c.streamScan = &exec.Scan{Source: src, Parallelism: c.e.opts.Parallelism}
			c.streamTable = t.Table
			return &localStage{Stage: &exec.Stage{Scan: c.streamScan}}, nil
		}
		latest, err := src.Latest(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", t.Table, err)
		}
		splits, err := src.Plan(ctx, nil, latest)
		if err != nil {
			return nil, fmt.Errorf("planning %s: %w", t.Table, err)
		}
		c.splits += len(splits)
		for _, s := range splits {
			c.bytes += s.Size()
		}
		return &localStage{Stage: &exec.Stage{Scan: &exec.Scan{Source: src, Splits: splits, Parallelism: c.e.opts.Parallelism}}}, nil
	case *plan.Values:
		b, err := valuesBatch(ctx, t)
		if err != nil {
			return nil, err
		}
		src := memtable.Named("values", t.Schema(), []arrow.RecordBatch{b})
		latest, _ := src.Latest(ctx)
		splits, err := src.Plan(ctx, nil, latest)
		if err != nil {
			return nil, err
		}
		return &localStage{Stage: &exec.Stage{Scan: &exec.Scan{Source: src, Splits: splits, Parallelism: 1}}}, nil
	case *plan.Filter:
		in, err := c.build(ctx, t.Input)
		if err != nil {
			return nil, err
		}
		schema := t.Input.Schema()
		return in.addStateless(func() (exec.Operator, error) { return exec.NewFilter(schema, t.Pred) })
	case *plan.Project:
		in, err := c.build(ctx, t.Input)
		if err != nil {
			return nil, err
		}
		return in.addStateless(func() (exec.Operator, error) { return exec.NewProject(t.Exprs, t.Names) })
	case *plan.EventTime:
		in, err := c.build(ctx, t.Input)
		if err != nil {
			return nil, err
		}
		op, err := exec.NewEventTime(t.Input.Schema(), t.Column)
		if err != nil {
			return nil, err
		}
		c.eventTime, c.eventDelay = op, t.Delay
		return in.add(op), nil
	case *plan.Union:
		st := &exec.Stage{}
		for _, child := range t.Inputs {
			in, err := c.build(ctx, child)
			if err != nil {
				return nil, err
			}
			st.Inputs = append(st.Inputs, in.Stage)
		}
		return &localStage{Stage: st}, nil
	case *plan.Join:
		probe, err := c.build(ctx, t.Left)
		if err != nil {
			return nil, err
		}
		// The build side is always read in full (a stream-static join).
		bc := &compiler{e: c.e, explainOnly: c.explainOnly}
		buildStage, err := bc.compile(ctx, t.Right)
		if err != nil {
			return nil, err
		}
		coll := exec.NewCollect()
		if !c.explainOnly {
			if err := exec.Run(ctx, buildStage, exec.WatermarkEnd, coll, nil); err != nil {
				return nil, fmt.Errorf("building join side: %w", err)
			}
		}
		op, err := newJoin(ctx, t, coll.Batches())
		if err != nil {
			return nil, err
		}
		if hj, ok := op.(*exec.HashJoin); ok {
			hj.SetBuildPlan(buildStage)
		}
		if hj, ok := op.(*exec.HashJoin); ok && c.streaming {
			c.lookups = append(c.lookups, lookup{stage: buildStage, join: hj})
		}
		return probe.add(op), nil
	}
	if agg, ok := n.(*plan.Aggregate); ok && c.streaming && c.onStreamPath(agg.Input) {
		in, err := c.build(ctx, agg.Input)
		if err != nil {
			return nil, err
		}
		op, err := c.streamAggregate(agg)
		if err != nil {
			return nil, err
		}
		return in.add(op), nil
	}
	// Single-input operators that keep state.
	kids := n.Children()
	if len(kids) != 1 {
		return nil, fmt.Errorf("internal error: no physical operator for %T", n)
	}
	in, err := c.build(ctx, kids[0])
	if err != nil {
		return nil, err
	}
	op, err := newOperator(n)
	if err != nil {
		return nil, err
	}
	return in.add(op), nil
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

// valuesBatch evaluates literal rows into one batch.
func valuesBatch(ctx context.Context, v *plan.Values) (arrow.RecordBatch, error) {
	schema := v.Schema()
	n := len(v.Rows)
	empty := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	cols := make([]arrow.Array, schema.NumFields())
	for j := range cols {
		parts := make([]arrow.Array, n)
		for i, row := range v.Rows {
			a, err := row[j].Eval(ctx, empty)
			if err != nil {
				return nil, fmt.Errorf("evaluating VALUES row %d: %w", i+1, err)
			}
			parts[i] = a
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("building VALUES: %w", err)
		}
		cols[j] = col
	}
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

// onStreamPath reports whether n reads the stream (its left-most scan is
// the streaming one), as opposed to a static join side.
func (c *compiler) onStreamPath(n plan.Node) bool {
	for {
		switch t := n.(type) {
		case *plan.Scan:
			return true
		case *plan.Values:
			return false
		case *plan.Join:
			n = t.Left
		default:
			kids := n.Children()
			if len(kids) == 0 {
				return false
			}
			n = kids[0]
		}
	}
}

// streamAggregate picks the streaming form of an aggregation: per window
// when a GROUP BY key is an event-time window, else one set of groups
// written whole every epoch.
func (c *compiler) streamAggregate(a *plan.Aggregate) (exec.Operator, error) {
	names := append(append([]string{}, a.KeyNames...), a.AggNames...)
	window := -1
	for i, k := range a.Keys {
		if isWindowKey(k) {
			window = i
			break
		}
	}
	if window >= 0 {
		if c.outputMode == exec.Append && c.eventTime == nil {
			return nil, fmt.Errorf("append output mode needs a watermark on the streamed table to close windows (WATERMARK FOR ... in CREATE TABLE, or watermark_delay)")
		}
		return exec.NewWindowAggregate(a.Keys, names, a.Aggs, window, c.outputMode)
	}
	if c.outputMode == exec.Append {
		return nil, fmt.Errorf("append output mode is not supported for a streaming aggregation without an event-time window; use output_mode = 'complete' or 'update'")
	}
	h, err := exec.NewHashAggregate(a.Keys, names, a.Aggs)
	if err != nil {
		return nil, err
	}
	return exec.NewStreamAggregate(h, c.outputMode), nil
}

// isWindowKey recognises TUMBLE/HOP/window(...) keys: a STRUCT whose first
// two fields are TIMESTAMP start and end.
func isWindowKey(e expr.Expr) bool {
	st, ok := e.Type().(*arrow.StructType)
	if !ok || st.NumFields() < 2 {
		return false
	}
	return st.Field(0).Name == "start" && st.Field(1).Name == "end" &&
		st.Field(0).Type.ID() == arrow.TIMESTAMP && st.Field(1).Type.ID() == arrow.TIMESTAMP
}

// lookup is the static side of a stream-static join.
type lookup struct {
	stage *exec.Stage
	join  *exec.HashJoin
}

// refresh re-lists the lookup's files and rebuilds the join's table, so
// enrichment data that changed is picked up without restarting.
func (l lookup) refresh(ctx context.Context) error {
	if err := replan(ctx, l.stage); err != nil {
		return err
	}
	coll := exec.NewCollect()
	if err := exec.Run(ctx, l.stage, exec.WatermarkEnd, coll, nil); err != nil {
		return fmt.Errorf("refreshing join side: %w", err)
	}
	return l.join.Rebuild(ctx, coll.Batches())
}

// replan lists every scan of a stage again.
func replan(ctx context.Context, st *exec.Stage) error {
	if sc := st.Scan; sc != nil {
		latest, err := sc.Source.Latest(ctx)
		if err != nil {
			return err
		}
		if sc.Splits, err = sc.Source.Plan(ctx, nil, latest); err != nil {
			return err
		}
	}
	for _, in := range st.Inputs {
		if err := replan(ctx, in); err != nil {
			return err
		}
	}
	return nil
}
