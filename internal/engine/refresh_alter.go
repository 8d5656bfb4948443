package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sluice/internal/job"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// refreshAlter is one ALTER ... WITH (...) of a view's or a skipping
// index's refresh. Both refresh alike, through a stream that runs in the
// background while auto_refresh is on, so alterRefresh changes, stops and
// restarts either.
type refreshAlter struct {
	stmt   string // the statement, for errors: ALTER MATERIALIZED VIEW v
	what   string // the object, for messages: materialized view v
	stream string // the refresh's stream
	// keys are what ALTER may set besides auto_refresh and
	// refresh_interval: recorded in options, but checkpoint_location
	// moves checkpoint.
	keys []string
	// The settings, fields of def, changed in place; obj is then saved
	// with def as its options.
	auto                 *bool
	interval, checkpoint *string
	options              *map[string]string
	obj                  *catalog.Object
	def                  any
	// start starts the refresh the saved definition describes.
	start func(context.Context) error
}

// alterRefresh applies with: auto_refresh = false stops the refresh
// before the definition is saved (a stream that read the old one must not
// keep writing), and auto_refresh = true starts it after, in an engine
// that runs streams in the background, unless it runs already.
func (e *Engine) alterRefresh(ctx context.Context, a refreshAlter, with sql.Options) (*Result, error) {
	for _, opt := range with {
		k, v := strings.ToLower(opt.Key), opt.Value.Value
		switch {
		case k == "auto_refresh":
			auto, err := job.ParseBool(v, false)
			if err != nil {
				return nil, fmt.Errorf("%s: auto_refresh: %w", a.stmt, err)
			}
			*a.auto = auto
		case k == "refresh_interval":
			*a.interval = v
		case !slices.Contains(a.keys, k):
			return nil, usererr.Errorf(usererr.Invalid, "%s: option %q cannot be changed (%s)", a.stmt, k,
				strings.Join(append([]string{"auto_refresh", "refresh_interval"}, a.keys...), ", "))
		case k == "checkpoint_location":
			*a.checkpoint = normalizeLocation(v)
		default:
			if *a.options == nil {
				*a.options = map[string]string{}
			}
			(*a.options)[k] = v
		}
	}
	if err := checkRefreshModes(*a.options, *a.auto); err != nil {
		return nil, fmt.Errorf("%s: %w", a.stmt, err)
	}
	if !*a.auto {
		e.jobs.StopIfRunning(a.stream)
	}
	raw, _ := json.Marshal(a.def)
	a.obj.Options = raw
	if err := e.catalog.PutObject(a.obj, true); err != nil {
		return nil, err
	}
	if *a.auto && e.opts.Background != nil && !e.jobs.IsRunning(a.stream) {
		if err := a.start(ctx); err != nil {
			return nil, fmt.Errorf("%s: starting its refresh: %w", a.stmt, err)
		}
		return message("%s altered; its refresh started", a.what), nil
	}
	return message("%s altered", a.what), nil
}
