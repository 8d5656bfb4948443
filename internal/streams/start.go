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
	w, err := storedWrite(o.SQL, spec)
	if err != nil {
		return nil, fmt.Errorf("stream %s: stored query: %w", name, err)
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
		return m.Run(ctx, o.Name, w, spec)
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

// storedWrite is what a stored stream runs: its definition's query, or,
// for definitions written before they kept it, its statement's.
func storedWrite(statement string, spec Spec) (Write, error) {
	text := spec.Query
	if text == "" {
		text = statement
	}
	st, err := sql.ParseOne(text)
	if err != nil {
		return Write{}, err
	}
	switch s := st.(type) {
	case *sql.SelectStmt:
		return Write{Table: spec.Table, Columns: spec.Columns, Query: s.Query}, nil
	case *sql.InsertStream:
		return insertWrite(s), nil
	}
	return Write{}, fmt.Errorf("not INSERT STREAM")
}
