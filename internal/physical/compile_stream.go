package physical

import (
	"errors"
	"fmt"

	"sluice/internal/connector"
	"sluice/internal/exec"
	"sluice/internal/plan"
)

// StreamPlan is a streaming query compiled to run: the plan, its input
// read as a stream, its stateful operators with the state ids their
// checkpoint snapshots are filed under, and, when the plan can be shared
// by workers as a keyed aggregation, where it is cut.
type StreamPlan struct {
	*Plan
	// Source is Plan.StreamScan's source as a stream: a batch source's
	// streaming form when it has one (connector.Streamable), already put
	// in the scan.
	Source connector.StreamingSource
	// State lists the stateful operators in their fixed order, each with
	// its id ("window_aggregate-0") and what its state means.
	State []exec.StatefulOp
	// Keyed says where workers cut the plan; nil when it has no keyed
	// form (docs/scale-out.md, part 2).
	Keyed *KeyedCut
}

// KeyedCut is where a keyed stream is cut in two: the readers run
// Root.Ops[:At] and publish partials of Template's keys by partition,
// the owners fold them into Template's state.
type KeyedCut struct {
	At       int
	Template *exec.WindowAggregate
	// Fingerprint is the cut operator's state fingerprint, which the
	// checkpoint's partition meta records.
	Fingerprint string
}

// ErrNoStreamingInput is a streaming query without a table to stream
// (its probe path reads no scan); ErrNotStreamable one whose input
// table cannot be read as a stream.
var (
	ErrNoStreamingInput = errors.New("the query reads no streaming source")
	ErrNotStreamable    = errors.New("cannot be read as a stream")
)

// CompileStream compiles n as a streaming query (opts.Streaming is set
// here) and finds its streaming input, state and keyed cut, reading
// nothing: Stream() of a Streamable source builds the streaming source
// but opens no connection until the stream runs.
func CompileStream(n plan.Node, opts Options) (*StreamPlan, error) {
	opts.Streaming = true
	p, err := Compile(n, opts)
	if err != nil {
		return nil, err
	}
	if p.StreamScan == nil {
		return nil, ErrNoStreamingInput
	}
	sp := &StreamPlan{Plan: p}
	src, ok := p.StreamScan.Source.(connector.StreamingSource)
	if !ok {
		st, ok := p.StreamScan.Source.(connector.Streamable)
		if !ok {
			return nil, fmt.Errorf("%s %w", p.StreamTable, ErrNotStreamable)
		}
		ss, err := st.Stream()
		if err != nil {
			return nil, fmt.Errorf("%s %w: %w", p.StreamTable, ErrNotStreamable, err)
		}
		src = ss
		p.StreamScan.Source = ss
	}
	sp.Source = src
	if sp.State, err = exec.StatefulOps(p.Root); err != nil {
		return nil, err
	}
	if at, w, fp, ok := KeyedSplit(p.Root, sp.State); ok {
		sp.Keyed = &KeyedCut{At: at, Template: w, Fingerprint: fp}
	}
	return sp, nil
}

// KeyedSplit finds where a worker-mode plan is cut in two: its one
// stateful operator must be an append- or update-mode WindowAggregate,
// or an update-mode plain GROUP BY (run as a WindowAggregate of one
// window that never closes), in the root stage, with only stateless
// operators above it. fp is the state fingerprint the checkpoint's meta
// records.
func KeyedSplit(root *exec.Stage, ops []exec.StatefulOp) (at int, w *exec.WindowAggregate, fp string, ok bool) {
	if len(ops) != 1 || len(root.Inputs) > 0 {
		return 0, nil, "", false
	}
	for i, op := range root.Ops {
		switch a := op.(type) {
		case *exec.WindowAggregate:
			if exec.Stateful(a) == ops[0].Op && (a.Mode() == exec.Append || a.Mode() == exec.Update) {
				return i, a, a.StateDescription().Fingerprint(), true
			}
		case *exec.StreamAggregate:
			if exec.Stateful(a) == ops[0].Op && a.Mode() == exec.Update {
				return i, a.KeyedGroups(), a.StateDescription().Fingerprint(), true
			}
		}
	}
	return 0, nil, "", false
}

// CompleteMode reports whether the one stateful operator is a
// complete-mode aggregate (which workers cannot share).
func CompleteMode(ops []exec.StatefulOp) bool {
	if len(ops) != 1 {
		return false
	}
	switch a := ops[0].Op.(type) {
	case *exec.WindowAggregate:
		return a.Mode() == exec.Complete
	case *exec.StreamAggregate:
		return a.Mode() == exec.Complete
	}
	return false
}
