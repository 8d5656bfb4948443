package streams

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/job"
	"sluice/internal/stream"
)

// stopStream stops a stream at its next epoch boundary: directly when it
// runs in this process, and through a stop request in its checkpoint when
// it runs in another.
func (m *Streams) stopStream(ctx context.Context, name string) (*Result, error) {
	o, spec, err := m.streamDef(name)
	if err != nil {
		return nil, err
	}
	if m.h.Background() {
		if err := m.setStreamDesired(name, job.DesiredStopped); err != nil {
			return nil, err
		}
	}
	if workers, _ := workersOption(spec.Options); workers > 1 {
		return m.stopWorkers(ctx, o, spec)
	}
	if m.h.Runs().StopIfRunning(name) {
		return message("stream %s stopped", name), nil
	}
	store, prefix, err := m.h.ResolveCheckpoint(ctx, spec.Checkpoint)
	if err != nil {
		return nil, err
	}
	cp := &stream.Checkpoint{Store: store, Prefix: prefix}
	if err := cp.RequestStop(ctx); err != nil {
		return nil, fmt.Errorf("stopping stream %s: %w", name, err)
	}
	return message("stop requested for stream %s (it stops after its running epoch)", name), nil
}

// broadcastStop sends STOP STREAM to every worker of a stream with
// workers = N through its source's substrate. The stop marker at the
// top of its checkpoint, written by the caller, reaches them too (within
// stopPoll), so a source without a signal is not an error. The source is
// the table the stream recorded when it planned (Spec.Source),
// opened as a stream: STOP never plans the query again.
func (m *Streams) broadcastStop(ctx context.Context, name string, spec Spec) (bool, error) {
	if spec.Source == "" {
		return false, nil
	}
	t, err := m.h.Catalog().Table(spec.Source)
	if err != nil {
		return false, nil // dropped since: the marker is all there is
	}
	opened, err := m.h.OpenSource(ctx, t.Spec, sourceOverrides(spec.Options))
	if err != nil {
		return false, fmt.Errorf("stream %s: %w", name, err)
	}
	var src any = opened
	if s, ok := src.(connector.Streamable); ok {
		if _, isStream := src.(connector.StreamingSource); !isStream {
			if src, err = s.Stream(); err != nil {
				return false, fmt.Errorf("stream %s: %w", name, err)
			}
		}
	}
	ss, ok := src.(connector.StopSignal)
	if !ok {
		return false, nil
	}
	if err := ss.RequestStop(ctx); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			return false, nil
		}
		return false, fmt.Errorf("stopping stream %s's workers: %w", name, err)
	}
	return true, nil
}

// recordStreamSource notes in stream name's definition the table it
// streams from (Spec.Source); a stream that is not a catalog
// stream (a view's, an index's) has no definition to note it in.
func (m *Streams) recordStreamSource(name, table string) {
	o, spec, err := m.streamDef(name)
	if err != nil || spec.Source == table {
		return
	}
	spec.Source = table
	raw, _ := json.Marshal(spec)
	o.Options = raw
	_ = m.h.Catalog().PutObject(o, true)
}

// stopWorkers stops a stream run by several workers: its marker at the
// top of the checkpoint and its queue's signal reach the workers of
// every process; this process's own worker stops directly.
func (m *Streams) stopWorkers(ctx context.Context, o *catalog.Object, spec Spec) (*Result, error) {
	store, prefix, err := m.h.ResolveCheckpoint(ctx, spec.Checkpoint)
	if err != nil {
		return nil, err
	}
	if err := (&stream.Checkpoint{Store: store, Prefix: prefix}).RequestStop(ctx); err != nil {
		return nil, fmt.Errorf("stopping stream %s: %w", o.Name, err)
	}
	how := "the stop marker in its checkpoint"
	viaQueue, qerr := m.broadcastStop(ctx, o.Name, spec)
	if viaQueue {
		how = "its queue and " + how
	}
	local := m.h.Runs().StopIfRunning(o.Name)
	msg := fmt.Sprintf("stop requested for the workers of stream %s through %s (each stops after its running epoch)", o.Name, how)
	if local {
		msg = fmt.Sprintf("stream %s stopped here; ", o.Name) + msg
	}
	if qerr != nil {
		msg += "; the queue could not carry it: " + qerr.Error()
	}
	return message("%s", msg), nil
}

var _ job.StopMarker = (*stream.Checkpoint)(nil)

// StopMarker is job.Config.StopMarker: the stop marker at the top of
// stream name's checkpoint (nil when name is no catalog stream or its
// checkpoint does not open), shared when the stream has workers = N.
func (m *Streams) StopMarker(ctx context.Context, name string) (job.StopMarker, bool) {
	_, spec, err := m.streamDef(name)
	if err != nil {
		return nil, false
	}
	store, prefix, err := m.h.ResolveCheckpoint(ctx, spec.Checkpoint)
	if err != nil {
		return nil, false
	}
	workers, _ := workersOption(spec.Options)
	return &stream.Checkpoint{Store: store, Prefix: prefix}, workers > 1
}
