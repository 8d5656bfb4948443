package streams

import (
	"context"
	"encoding/json"
	"fmt"
	"sluice/internal/flint"
	"sort"
	"strings"

	"sluice/internal/catalog"
	"sluice/internal/job"
)

// Stream kinds in Info.
const (
	KindStream = "stream"
	KindView   = "view"
)

// Info is one stream or materialized view as the service's JSON API
// and metrics report it.
type Info struct {
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
	// Query is its statement as SHOW shows it (redacted).
	Query string
	// Definition is what it is (job.Definition), as it may be shown
	// (Display: redacted).
	Definition job.Definition
	Status     job.Status
}

// List lists every stream and materialized view of the catalog, by
// name, with what this process knows of its run (or, for one not running
// here, its last commit).
func (m *Streams) List(ctx context.Context) ([]Info, error) {
	streams, err := m.h.Catalog().Objects("stream")
	if err != nil {
		return nil, fmt.Errorf("listing streams: %w", err)
	}
	views, err := m.h.Catalog().Objects("mview")
	if err != nil {
		return nil, fmt.Errorf("listing materialized views: %w", err)
	}
	var out []Info
	for _, o := range streams {
		if info, ok := m.streamInfo(ctx, o); ok {
			out = append(out, info)
		}
	}
	for _, o := range views {
		out = append(out, m.viewInfo(ctx, o))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Get is one stream (by its name) or materialized view (by the view's
// name); catalog.ErrNotFound when there is neither.
func (m *Streams) Get(ctx context.Context, name string) (Info, error) {
	if o, err := m.h.Catalog().Object("stream", name); err == nil {
		if info, ok := m.streamInfo(ctx, o); ok {
			return info, nil
		}
	}
	o, err := m.h.Catalog().Object("mview", name)
	if err != nil {
		return Info{}, fmt.Errorf("stream %s: %w", name, catalog.ErrNotFound)
	}
	return m.viewInfo(ctx, o), nil
}

// streamInfo is false for the stream objects that views of older data
// dirs kept under mv_<view>: the view reports them.
func (m *Streams) streamInfo(ctx context.Context, o *catalog.Object) (Info, bool) {
	var spec Spec
	_ = json.Unmarshal(o.Options, &spec)
	if rest, ok := strings.CutPrefix(strings.ToLower(o.Name), "mv_"); ok {
		if _, err := m.h.Catalog().Object("mview", rest); err == nil {
			return Info{}, false
		}
	}
	return Info{Name: o.Name, Kind: KindStream, StreamName: o.Name, Sink: spec.Table, Desired: spec.Desired,
		Query: o.SQL, Definition: spec.Definition(o.Name).Display(), Status: m.streamStatus(ctx, o, spec)}, true
}

func (m *Streams) viewInfo(ctx context.Context, o *catalog.Object) Info {
	var spec flint.ViewSpec
	_ = json.Unmarshal(o.Options, &spec)
	sname := "mv_" + strings.ToLower(o.Name)
	desired := job.DesiredStopped
	if spec.AutoRefresh {
		desired = job.DesiredRunning
	}
	st := m.streamStatus(ctx, &catalog.Object{Name: sname}, Spec{Table: o.Name, Trigger: spec.Trigger(), Checkpoint: spec.Checkpoint})
	return Info{Name: o.Name, Kind: KindView, StreamName: sname, Sink: o.Name, Desired: desired, Query: o.SQL,
		Definition: spec.Definition(o.Name).Display(), Status: st}
}
