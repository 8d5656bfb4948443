package engine

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// tableResolver opens catalog tables for the binder.
type tableResolver struct {
	e *Engine
	// overrides replace table options for this query (a stream's WITH
	// max_files_per_trigger and the like).
	overrides map[string]string
	// watermarkDelay, when set, replaces the table's watermark delay (the
	// query option watermark_delay).
	watermarkDelay *int64
}

var _ plan.Tables = tableResolver{}

// ResolveTable opens a table's source. File tables also offer the hidden
// metadata columns _file and _row.
func (r tableResolver) ResolveTable(ctx context.Context, name string) (*plan.Table, error) {
	t, err := r.e.catalog.Table(name)
	if err != nil {
		return nil, err
	}
	spec := r.e.withSessionOptions(t.Spec)
	if len(r.overrides) > 0 && isFileFormat(spec.Using) {
		opts := map[string]string{}
		for k, v := range spec.Options {
			opts[k] = v
		}
		for k, v := range r.overrides {
			opts[k] = v
		}
		spec.Options = opts
	}
	f, err := registry.Lookup(spec.Using)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", t.Spec.Name, err)
	}
	if f.NewSource == nil {
		return nil, fmt.Errorf("table %s (USING %s) cannot be read", t.Spec.Name, f.Name)
	}
	src, err := f.NewSource(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("opening table %s: %w", t.Spec.Name, err)
	}
	out := &plan.Table{Name: t.Spec.Name, Source: src}
	if t.Watermark != nil {
		delay, err := watermarkDelay(t.Watermark.Expr)
		if err != nil {
			return nil, fmt.Errorf("table %s: WATERMARK: %w", t.Spec.Name, err)
		}
		out.EventTimeColumn, out.WatermarkDelay = t.Watermark.Column, delay
	}
	if r.watermarkDelay != nil && out.EventTimeColumn != "" {
		out.WatermarkDelay = *r.watermarkDelay
	}
	if pp, ok := src.(connector.ProjectionPusher); ok && isFileFormat(spec.Using) {
		var names []string
		for _, f := range src.Schema().Fields() {
			names = append(names, f.Name)
		}
		names = append(names, connector.FileColumn, connector.RowColumn)
		if wide, err := pp.PushProjection(names); err == nil {
			out.Source = wide
			out.Hidden = []string{connector.FileColumn, connector.RowColumn}
		}
	}
	return out, nil
}

func isFileFormat(using string) bool {
	switch strings.ToLower(using) {
	case "json", "csv", "parquet":
		return true
	}
	return false
}

// withSessionOptions fills a table's options with session defaults set
// by SET s3.endpoint = ... (table options win).
func (e *Engine) withSessionOptions(spec connector.TableSpec) connector.TableSpec {
	e.mu.Lock()
	defer e.mu.Unlock()
	// Only tables whose location is in object storage take s3.* defaults:
	// an OpenSearch table must not pick up s3.endpoint.
	if len(e.settings) == 0 || !isFileFormat(spec.Using) {
		return spec
	}
	opts := map[string]string{}
	for k, v := range spec.Options {
		opts[k] = v
	}
	for k, v := range e.settings {
		if rest, ok := strings.CutPrefix(k, "s3."); ok {
			if _, set := opts[rest]; !set {
				opts[rest] = v
			}
		}
	}
	spec.Options = opts
	return spec
}

// watermarkDelay reads the delay out of a WATERMARK expression:
// ts - INTERVAL 1 MINUTE gives one minute; a bare column gives zero.
func watermarkDelay(text string) (int64, error) {
	e, err := sql.ParseExpr(text)
	if err != nil {
		return 0, err
	}
	switch t := e.(type) {
	case *sql.ColumnRef:
		return 0, nil
	case *sql.Binary:
		if _, ok := t.L.(*sql.ColumnRef); ok && t.Op == sql.OpSub {
			if lit, ok := t.R.(*sql.Literal); ok {
				switch lit.Kind {
				case sql.LitInterval:
					return types.IntervalMicros(lit.Interval), nil
				case sql.LitString:
					iv, err := types.ParseInterval(lit.Value)
					if err != nil {
						return 0, err
					}
					return types.IntervalMicros(iv), nil
				}
			}
		}
	}
	return 0, fmt.Errorf("%s: want column - INTERVAL ...", text)
}
