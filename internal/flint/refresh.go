package flint

import (
	"context"

	"sluice/internal/connector/registry"
)

// refresh runs a view's or an index's stream: one catch-up in the
// foreground, in any mode, or, with auto, launched.
func (f *Flint) refresh(ctx context.Context, st Stream, auto bool) (*Result, error) {
	run := func(ctx context.Context) (string, error) { return f.h.RunStream(ctx, st) }
	var msg string
	var err error
	if auto {
		msg, err = f.h.Launch(ctx, st.Name, run)
	} else {
		msg, err = run(ctx)
	}
	if err != nil {
		return nil, err
	}
	return &Result{Message: msg}, nil
}

// refreshTrigger is the trigger of a refresh: every interval with
// auto_refresh (1 minute when unset), else one catch-up (available_now).
func refreshTrigger(auto bool, interval string) string {
	if !auto {
		return "available_now"
	}
	if interval == "" {
		return "1 minute"
	}
	return interval
}

// Trigger is the trigger of the view's stream (refreshTrigger): what
// its refresh runs with, and what the streams API reports for it.
func (s ViewSpec) Trigger() string { return refreshTrigger(s.AutoRefresh, s.Interval) }

// streamOptions keeps the options a stream understands.
func streamOptions(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if k == "output_mode" || k == "watermark_delay" || k == "watermark_idle_timeout" || registry.IsStreamOption(k) {
			out[k] = v
		}
	}
	return out
}
