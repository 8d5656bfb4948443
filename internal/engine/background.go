package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sluice/internal/job"
)

// launch runs one stream through the job manager (job.Manager.Launch):
// in the foreground without Options.Background, else through it,
// returning once the stream started (or failed before it could); failed
// background runs retry. settle, when set, runs after a background
// stream ended by itself or was stopped.
func (e *Engine) launch(ctx context.Context, name string, run func(context.Context) (*Result, error), settle func()) (*Result, error) {
	// The stream keeps the session as it is now: a later USE or SET in it,
	// or its expiry, does not reach the running stream (nor its retries).
	sess := e.session(ctx).detached()
	return e.jobs.Launch(WithSession(ctx, sess), name, func(ctx context.Context) (*Result, error) {
		return run(WithSession(ctx, sess))
	}, settle)
}

// setStreamDesired records the state a stream was asked to be in.
func (e *Engine) setStreamDesired(name, desired string) error {
	o, spec, err := e.streamDef(name)
	if err != nil {
		return err
	}
	if spec.Desired == desired {
		return nil
	}
	spec.Desired = desired
	raw, _ := json.Marshal(spec)
	o.Options = raw
	if err := e.catalog.PutObject(o, true); err != nil {
		return fmt.Errorf("stream %s: recording state %s: %w", name, desired, err)
	}
	return nil
}

// Resume starts, through Options.Background, every stream the catalog
// records as asked to run and every materialized view with auto_refresh =
// true: after a restart (clean or not) each resumes from its checkpoint.
// It returns the names of those started; the error joins one error per
// stream that could not start, each naming it, and the others still run.
func (e *Engine) Resume(ctx context.Context) ([]string, error) {
	if e.opts.Background == nil {
		return nil, errors.New("resuming streams: the engine runs no background streams")
	}
	ctx = job.WithResuming(ctx)
	var started []string
	var errs []error
	streams, err := e.catalog.Objects("stream")
	if err != nil {
		return nil, fmt.Errorf("resuming streams: %w", err)
	}
	for _, o := range streams {
		var spec streamSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil || spec.Desired != job.DesiredRunning {
			continue
		}
		if _, err := e.startStream(ctx, o.Name); err != nil {
			errs = append(errs, fmt.Errorf("resuming stream %s: %w", o.Name, err))
			continue
		}
		started = append(started, o.Name)
	}
	views, err := e.catalog.Objects("mview")
	if err != nil {
		return started, errors.Join(append(errs, fmt.Errorf("resuming materialized views: %w", err))...)
	}
	for _, o := range views {
		var spec mviewSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil || !spec.AutoRefresh {
			continue
		}
		if _, err := e.refreshMView(ctx, o.Name, spec); err != nil {
			errs = append(errs, fmt.Errorf("resuming materialized view %s: %w", o.Name, err))
			continue
		}
		started = append(started, "mv_"+strings.ToLower(o.Name))
	}
	indexes, err := e.resumeSkippingIndexes(ctx)
	return append(started, indexes...), errors.Join(append(errs, err)...)
}
