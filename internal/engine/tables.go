package engine

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"sluice/internal/catalog"
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
	// eventTimeColumn is where watermark_delay puts the watermark on a
	// table that declares none (the query's window column, as in Flint).
	eventTimeColumn string
	// db, when set, is the database bare names resolve in (a view's
	// own), in place of the session's.
	db string
	// permanent: binding a stored view's query, where the session's
	// temporary views are not seen.
	permanent bool
	// pending is a view being created, seen in place of any of its name.
	pending *viewDef
	// seen, when set, collects the stored names of the tables resolved
	// (ALTER TABLE asking what a stream reads).
	seen *[]string
}

var _ plan.Tables = tableResolver{}

// ResolveTable opens a table's source, with a stream's overrides of the
// table's options. A source with metadata columns (a file table's _file
// and _row) offers them hidden: a query may name them, SELECT * does not
// show them.
func (r tableResolver) ResolveTable(ctx context.Context, name string) (*plan.Table, error) {
	stored, err := r.qualify(ctx, name)
	if err != nil {
		return nil, err
	}
	t, err := r.e.catalog.Table(stored)
	if err != nil {
		return nil, r.e.suggestTable(ctx, name, err)
	}
	if r.seen != nil {
		*r.seen = append(*r.seen, t.Spec.Name)
	}
	src, err := registry.OpenSource(ctx, t.Spec, r.e.env(ctx), r.overrides)
	if err != nil {
		return nil, err
	}
	if fs, ok := src.(connector.FileSkipper); ok {
		if data := r.e.flint().FileSkipping(ctx, t.Spec.Name); data != nil {
			src = fs.WithFileSkipping(data)
		}
	}
	out := &plan.Table{Name: t.Spec.Name, Source: src}
	if t.Watermark != nil {
		delay, err := watermarkDelay(t.Watermark.Expr)
		if err != nil {
			return nil, fmt.Errorf("table %s: WATERMARK: %w", t.Spec.Name, err)
		}
		out.EventTimeColumn, out.WatermarkDelay = t.Watermark.Column, delay
	}
	if r.watermarkDelay != nil && out.EventTimeColumn == "" && r.eventTimeColumn != "" && hasFieldFold(src.Schema(), r.eventTimeColumn) {
		out.EventTimeColumn = r.eventTimeColumn
	}
	if r.watermarkDelay != nil && out.EventTimeColumn != "" {
		out.WatermarkDelay = *r.watermarkDelay
	}
	return withHiddenColumns(out), nil
}

var _ plan.PatternTables = tableResolver{}

// MatchTables expands an index pattern over the resolver's database: a
// part with * names the search tables (USING index, opensearch) whose
// names it matches, a plain part one table of any kind.
func (r tableResolver) MatchTables(ctx context.Context, pattern string) ([]string, error) {
	db := r.db
	if db == "" {
		db = r.e.currentDB(ctx)
	}
	ts, err := r.e.catalog.Tables()
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for _, part := range strings.Split(pattern, ",") {
		part = strings.TrimSpace(part)
		if !strings.Contains(part, "*") {
			if part != "" && !seen[strings.ToLower(part)] {
				seen[strings.ToLower(part)] = true
				out = append(out, part)
			}
			continue
		}
		var matched []string
		for _, t := range ts {
			tdb, name := catalog.SplitStored(t.Spec.Name)
			if ok, _ := path.Match(part, name); ok && tdb == db && (t.Spec.Using == "index" || t.Spec.Using == "opensearch") && !seen[name] {
				seen[name] = true
				matched = append(matched, name)
			}
		}
		sort.Strings(matched)
		out = append(out, matched...)
	}
	if len(out) == 0 {
		return nil, &catalog.TableNotFoundError{Name: pattern}
	}
	return out, nil
}

// qualify is Engine.qualify in the resolver's database.
func (r tableResolver) qualify(ctx context.Context, name string) (string, error) {
	if r.db == "" {
		return r.e.qualify(ctx, name)
	}
	_, stored, err := r.e.catalog.ResolveName(name, r.db)
	return stored, err
}

// withHiddenColumns widens a table's source to its metadata columns (a
// file table's _file and _row), marked hidden: a query may name them,
// SELECT * does not show them.
func withHiddenColumns(out *plan.Table) *plan.Table {
	src := out.Source
	mc, hasMeta := src.(connector.MetadataColumnSource)
	pp, canProject := src.(connector.ProjectionPusher)
	if hasMeta && canProject {
		var names []string
		for _, f := range src.Schema().Fields() {
			names = append(names, f.Name)
		}
		hidden := mc.MetadataColumns()
		if wide, err := pp.PushProjection(append(names, hidden...)); err == nil {
			out.Source = wide
			out.Hidden = hidden
		}
	}
	return out
}

// env is what connectors take defaults from: the data dir and the
// session's settings.
func (e *Engine) env(ctx context.Context) connector.Env {
	return connector.Env{DataDir: e.opts.DataDir, Settings: e.session(ctx).settingsCopy()}
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
