package streams

import (
	"context"
	"encoding/json"
	"fmt"

	"sluice/internal/job"
	"sluice/internal/sql"
)

// startStream resumes a stream from its checkpoint, in the foreground.
func (m *Streams) startStream(ctx context.Context, name string) (*Result, error) {
	o, spec, err := m.streamDef(name)
	if err != nil {
		return nil, err
	}
	st, err := sql.ParseOne(o.SQL)
	if err != nil {
		return nil, fmt.Errorf("stream %s: stored query: %w", name, err)
	}
	is, ok := st.(*sql.InsertStream)
	if !ok {
		return nil, fmt.Errorf("stream %s: stored query is not INSERT STREAM", name)
	}
	if m.h.Background() {
		if m.h.Runs().IsRunning(o.Name) {
			return message("stream %s is already running", o.Name), nil
		}
		if err := m.setStreamDesired(o.Name, job.DesiredRunning); err != nil {
			return nil, err
		}
	}
	return m.h.Launch(ctx, o.Name, func(ctx context.Context) (*Result, error) {
		return m.Run(ctx, o.Name, insertWrite(is), spec)
	}, func() { _ = m.setStreamDesired(o.Name, job.DesiredStopped) })
}

// setStreamDesired records the state a stream was asked to be in.
func (m *Streams) setStreamDesired(name, desired string) error {
	o, spec, err := m.streamDef(name)
	if err != nil {
		return err
	}
	if spec.Desired == desired {
		return nil
	}
	spec.Desired = desired
	raw, _ := json.Marshal(spec)
	o.Options = raw
	if err := m.h.Catalog().PutObject(o, true); err != nil {
		return fmt.Errorf("stream %s: recording state %s: %w", name, desired, err)
	}
	return nil
}
