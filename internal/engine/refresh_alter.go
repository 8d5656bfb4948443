package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sluice/internal/sql"
	"sluice/internal/usererr"
)

// refreshSettings are what ALTER ... WITH (...) changes in a view's or a
// skipping index's definition. Both refresh alike, through a stream
// that runs in the background while auto_refresh is on, so one
// alterRefresh changes, stops and restarts either.
type refreshSettings struct {
	AutoRefresh bool
	Interval    string
	Checkpoint  string
	Options     map[string]string
}

// refreshAlter is one ALTER of a view's or a skipping index's refresh.
type refreshAlter struct {
	stmt   string // the statement, for errors: ALTER MATERIALIZED VIEW v
	what   string // the object, for messages: materialized view v
	stream string // the refresh's stream
	// keys are what ALTER may set besides auto_refresh and
	// refresh_interval: recorded in Options, but checkpoint_location
	// moves the Checkpoint.
	keys []string
	// save records the altered settings in the definition; start, called
	// after it, starts the refresh the saved definition describes.
	save  func(refreshSettings) error
	start func(context.Context) error
}

// alterRefresh applies with to cur: auto_refresh = false stops the
// refresh before the definition is saved (a stream that saw the old one
// must not keep writing), and auto_refresh = true starts it after, in an
// engine that runs streams in the background, unless it runs already.
func (e *Engine) alterRefresh(ctx context.Context, a refreshAlter, cur refreshSettings, with sql.Options) (*Result, error) {
	r := cur
	r.Options = maps.Clone(cur.Options)
	for _, opt := range with {
		k, v := strings.ToLower(opt.Key), opt.Value.Value
		switch {
		case k == "auto_refresh":
			auto, err := parseBoolOption(v, false)
			if err != nil {
				return nil, fmt.Errorf("%s: auto_refresh: %w", a.stmt, err)
			}
			r.AutoRefresh = auto
		case k == "refresh_interval":
			r.Interval = v
		case !slices.Contains(a.keys, k):
			return nil, usererr.Errorf(usererr.Invalid, "%s: option %q cannot be changed (%s)", a.stmt, k,
				strings.Join(append([]string{"auto_refresh", "refresh_interval"}, a.keys...), ", "))
		case k == "checkpoint_location":
			r.Checkpoint = normalizeLocation(v)
		default:
			if r.Options == nil {
				r.Options = map[string]string{}
			}
			r.Options[k] = v
		}
	}
	if err := checkRefreshModes(r.Options, r.AutoRefresh); err != nil {
		return nil, fmt.Errorf("%s: %w", a.stmt, err)
	}
	if !r.AutoRefresh {
		e.stopIfRunning(a.stream)
	}
	if err := a.save(r); err != nil {
		return nil, err
	}
	if r.AutoRefresh && e.opts.Background != nil && !e.isRunning(a.stream) {
		if err := a.start(ctx); err != nil {
			return nil, fmt.Errorf("%s: starting its refresh: %w", a.stmt, err)
		}
		return message("%s altered; its refresh started", a.what), nil
	}
	return message("%s altered", a.what), nil
}
