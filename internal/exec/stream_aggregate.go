package exec

import (
	"context"
	"fmt"
)

// StreamAggregate is an unwindowed aggregation in a streaming query: its
// groups live for the whole stream and every group is written at the end
// of each epoch (output modes complete and update; with sinks that upsert
// by a deterministic id per group, re-writing an unchanged group is a
// no-op).
type StreamAggregate struct {
	*HashAggregate
	mode OutputMode
}

var (
	_ Operator      = (*StreamAggregate)(nil)
	_ Stateful      = (*StreamAggregate)(nil)
	_ StateBudgeted = (*StreamAggregate)(nil)
)

// SetStateBudget makes groups that outgrow b an error naming id: they
// live for the whole stream and cannot spill.
func (s *StreamAggregate) SetStateBudget(id string, b *MemoryBudget) {
	s.budget, s.noSpill, s.stateID = b, true, id
	s.hint = "aggregate over a window (unwindowed groups never close)"
}

// NewStreamAggregate wraps h for streaming.
func NewStreamAggregate(h *HashAggregate, mode OutputMode) *StreamAggregate {
	return &StreamAggregate{HashAggregate: h, mode: mode}
}

// OnWatermark forwards the watermark: unwindowed groups never close.
func (s *StreamAggregate) OnWatermark(ctx context.Context, t int64, out Output) error {
	return out.Send(ctx, Message{Watermark: t})
}

// EndEpoch writes every group.
func (s *StreamAggregate) EndEpoch(ctx context.Context, out Output) error {
	if s.NumGroups() == 0 && len(s.groupBy) > 0 {
		return nil
	}
	return s.EmitAll(ctx, out)
}

// StateDescription is the aggregate's with the output mode.
func (s *StreamAggregate) StateDescription() StateDescription {
	d := s.HashAggregate.StateDescription().With(StateProperty{Name: "output mode", Value: s.mode.String()})
	d.Kind = "stream_aggregate"
	return d
}

func (s *StreamAggregate) String() string {
	return fmt.Sprintf("StreamAggregate %s %s", s.mode, s.HashAggregate.String())
}
