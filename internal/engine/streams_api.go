package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/job"
)

// Stream kinds in StreamInfo.
const (
	KindStream = "stream"
	KindView   = "view"
)

// StreamInfo is one stream or materialized view as the service's JSON API
// and metrics report it.
type StreamInfo struct {
	// Name is what the API calls it: a stream's name, or a view's.
	Name string
	// Kind is KindStream or KindView.
	Kind string
	// StreamName is the name of the stream that runs it (a view's is
	// mv_<view>): the label its progress and metrics carry.
	StreamName string
	// Sink is the table written.
	Sink string
	// Desired is the state it was asked to be in (job.DesiredRunning,
	// job.DesiredStopped; empty for a stream only ever run in the foreground).
	Desired string
	// Query is its SQL.
	Query  string
	Status job.Status
}

// Streams lists every stream and materialized view of the catalog, by
// name, with what this process knows of its run (or, for one not running
// here, its last commit).
func (e *Engine) Streams(ctx context.Context) ([]StreamInfo, error) {
	streams, err := e.catalog.Objects("stream")
	if err != nil {
		return nil, fmt.Errorf("listing streams: %w", err)
	}
	views, err := e.catalog.Objects("mview")
	if err != nil {
		return nil, fmt.Errorf("listing materialized views: %w", err)
	}
	var out []StreamInfo
	for _, o := range streams {
		if info, ok := e.streamInfo(ctx, o); ok {
			out = append(out, info)
		}
	}
	for _, o := range views {
		out = append(out, e.viewInfo(ctx, o))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Stream is one stream (by its name) or materialized view (by the view's
// name); catalog.ErrNotFound when there is neither.
func (e *Engine) Stream(ctx context.Context, name string) (StreamInfo, error) {
	if o, err := e.catalog.Object("stream", name); err == nil {
		if info, ok := e.streamInfo(ctx, o); ok {
			return info, nil
		}
	}
	o, err := e.catalog.Object("mview", name)
	if err != nil {
		return StreamInfo{}, fmt.Errorf("stream %s: %w", name, catalog.ErrNotFound)
	}
	return e.viewInfo(ctx, o), nil
}

// streamInfo is false for the stream objects that views of older data
// dirs kept under mv_<view>: the view reports them.
func (e *Engine) streamInfo(ctx context.Context, o *catalog.Object) (StreamInfo, bool) {
	var spec streamSpec
	_ = json.Unmarshal(o.Options, &spec)
	if rest, ok := strings.CutPrefix(strings.ToLower(o.Name), "mv_"); ok {
		if _, err := e.catalog.Object("mview", rest); err == nil {
			return StreamInfo{}, false
		}
	}
	return StreamInfo{Name: o.Name, Kind: KindStream, StreamName: o.Name, Sink: spec.Table, Desired: spec.Desired,
		Query: o.SQL, Status: e.streamStatus(ctx, o, spec)}, true
}

func (e *Engine) viewInfo(ctx context.Context, o *catalog.Object) StreamInfo {
	var spec mviewSpec
	_ = json.Unmarshal(o.Options, &spec)
	sname := "mv_" + strings.ToLower(o.Name)
	desired := job.DesiredStopped
	if spec.AutoRefresh {
		desired = job.DesiredRunning
	}
	st := e.streamStatus(ctx, &catalog.Object{Name: sname}, streamSpec{Table: o.Name, Trigger: spec.Trigger(), Checkpoint: spec.Checkpoint})
	return StreamInfo{Name: o.Name, Kind: KindView, StreamName: sname, Sink: o.Name, Desired: desired, Query: o.SQL, Status: st}
}

// LocalStreams is the status of every stream this process has run (a
// view's under mv_<view>), by lower-case stream name, from memory only:
// no checkpoint is read, so it is cheap to poll (the server's history
// samples it every few seconds, S3 checkpoints included).
func (e *Engine) LocalStreams() map[string]job.Status {
	return e.jobs.Local()
}
