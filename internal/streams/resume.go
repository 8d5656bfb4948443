package streams

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sluice/internal/flint"
	"strings"

	"sluice/internal/job"
)

// Resume starts, through the Host's background runner, every stream the catalog
// records as asked to run and every materialized view with auto_refresh =
// true: after a restart (clean or not) each resumes from its checkpoint.
// It returns the names of those started; the error joins one error per
// stream that could not start, each naming it, and the others still run.
func (m *Streams) Resume(ctx context.Context) ([]string, error) {
	if !m.h.Background() {
		return nil, errors.New("resuming streams: the engine runs no background streams")
	}
	ctx = job.WithResuming(ctx)
	var started []string
	var errs []error
	streams, err := m.h.Catalog().Objects("stream")
	if err != nil {
		return nil, fmt.Errorf("resuming streams: %w", err)
	}
	for _, o := range streams {
		var spec Spec
		if err := json.Unmarshal(o.Options, &spec); err != nil || spec.Desired != job.DesiredRunning {
			continue
		}
		if _, err := m.startStream(ctx, o.Name); err != nil {
			errs = append(errs, fmt.Errorf("resuming stream %s: %w", o.Name, err))
			continue
		}
		started = append(started, o.Name)
	}
	views, err := m.h.Catalog().Objects("mview")
	if err != nil {
		return started, errors.Join(append(errs, fmt.Errorf("resuming materialized views: %w", err))...)
	}
	for _, o := range views {
		var spec flint.ViewSpec
		if err := json.Unmarshal(o.Options, &spec); err != nil || !spec.AutoRefresh {
			continue
		}
		if err := m.h.RefreshView(ctx, o.Name, spec); err != nil {
			errs = append(errs, fmt.Errorf("resuming materialized view %s: %w", o.Name, err))
			continue
		}
		started = append(started, "mv_"+strings.ToLower(o.Name))
	}
	indexes, err := m.h.ResumeIndexes(ctx)
	return append(started, indexes...), errors.Join(append(errs, err)...)
}
