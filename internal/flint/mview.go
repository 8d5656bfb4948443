package flint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/job"
	"sluice/internal/plan"
	"sluice/internal/safepath"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// ViewSpec is a materialized view as kept in the catalog (kind "mview",
// the view's stored name): the JSON keys are the stored format, so they
// never change.
type ViewSpec struct {
	Query       string            `json:"query"`
	AutoRefresh bool              `json:"auto_refresh"`
	Interval    string            `json:"refresh_interval,omitempty"`
	Checkpoint  string            `json:"checkpoint"`
	Options     map[string]string `json:"options,omitempty"`
}

// Definition is the view's definition in the one shape of every job
// (job.Definition); it writes the table named after it.
func (v ViewSpec) Definition(name string) job.Definition {
	return job.Definition{Name: name, Kind: job.View, Query: v.Query, Sink: name, Options: v.Options}
}

// CreateMView runs CREATE MATERIALIZED VIEW: it creates the view's sink
// table (the embedded index unless sink says otherwise), records the
// definition, and refreshes it: in the foreground until stopped with
// auto_refresh = true, else once, to catch up.
func (f *Flint) CreateMView(ctx context.Context, s *sql.CreateMaterializedView) (*Result, error) {
	return f.defineMView(ctx, s, false)
}

// defineMView is CREATE MATERIALIZED VIEW, or with explain its EXPLAIN:
// the view's definition worked out the same way, then its stream's plan
// printed instead of anything created.
func (f *Flint) defineMView(ctx context.Context, s *sql.CreateMaterializedView, explain bool) (*Result, error) {
	if s.IfNotExists {
		if _, err := f.h.Catalog().Object("mview", s.Name); err == nil {
			return message("materialized view %s already exists", s.Name), nil
		}
	}
	opts := map[string]string{}
	for _, o := range s.With {
		opts[strings.ToLower(o.Key)] = o.Value.Value
	}
	sinkUsing := strings.ToLower(opts["sink"])
	if sinkUsing == "" {
		sinkUsing = "index"
	}
	fac, err := registry.Lookup(sinkUsing)
	if err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	// The view's own keys, a stream's, and the sink's (also spelled
	// sink.<key>) are all taken; sink. keys are the sink's to check.
	sinkOpts := map[string]string{}
	viewOpts := map[string]string{}
	sinkKeys := map[string]bool{}
	for _, k := range fac.OptionKeys {
		sinkKeys[k] = true
	}
	for k, v := range opts {
		if rest, ok := strings.CutPrefix(k, "sink."); ok {
			sinkOpts[rest] = v
			continue
		}
		viewOpts[k] = v
	}
	if err := job.Check(job.View, viewOpts, "for a materialized view", registry.StreamOptionKeys(), fac.OptionKeys); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	for k, v := range viewOpts {
		isViewKey := job.Takes(job.View, k) || registry.IsStreamOption(k)
		if sinkKeys[k] && (!isViewKey || k == "index_settings" || k == "index_mappings") {
			sinkOpts[k] = v
		}
	}
	auto, err := job.ParseBool(opts["auto_refresh"], false)
	if err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: auto_refresh: %w", s.Name, err)
	}
	if err := checkRefreshModes(opts, auto); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	query := s.Query
	idOpt := ""
	if id := opts["id_expression"]; id != "" {
		if idOpt, query, err = idExpression(id, s.Query); err != nil {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
		}
	}
	if extra := opts["extra_options"]; extra != "" {
		src, snk, err := f.extraOptions(ctx, extra, s.Query)
		if err != nil {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
		}
		for k, v := range src {
			opts[k] = v
		}
		for k, v := range snk {
			sinkOpts[k] = v
		}
	}
	// The view's columns are the query's.
	n, err := f.h.PlanQuery(ctx, query)
	if err != nil {
		return nil, err
	}
	mode := opts["output_mode"]
	if mode == "" {
		mode = "append"
		if hasAggregate(n) && (!hasWindowKey(n) || (opts["watermark_delay"] == "" && !f.readsWatermarkedTable(ctx, s.Query))) {
			// Windows with no watermark never close in append mode:
			// Flint's default for such a view is a full refresh, which
			// complete mode gives.
			mode = "complete"
		}
		opts["output_mode"] = mode
	}
	if idOpt != "" {
		sinkOpts["id"] = idOpt
	} else if mode != "append" && sinkKeys["id"] {
		// Upserts need one id per group: the output columns carrying
		// every GROUP BY key (a subset would merge groups into one
		// document).
		keys, _ := plan.GroupKeyOutputs(n)
		switch a := plan.AggregateUnder(n); {
		case len(keys) > 0:
			sinkOpts["id"] = strings.Join(keys, ",")
		case a != nil && len(a.Keys) == 0:
			// One group (SELECT count(*) FROM t): one document, named
			// by the view, as if id_expression were its name, so that
			// each refresh replaces the answer instead of adding one.
			idOpt, query = idColumn, withIDColumn(query, sql.StringLit(s.Name))
			if n, err = f.h.PlanQuery(ctx, query); err != nil {
				return nil, err
			}
			sinkOpts["id"] = idOpt
		}
	}
	if err := usererr.Wrap(usererr.Invalid, safepath.CheckName(s.Name)); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW: view %w", err)
	}
	sinkSpec := connector.TableSpec{Name: s.Name, Using: sinkUsing, Options: sinkOpts, Schema: nullable(n.Schema())}
	if _, err := registry.Prepare(&sinkSpec, f.h.Env(ctx)); err != nil {
		if mo := (*connector.MissingOptionError)(nil); errors.As(err, &mo) {
			return nil, usererr.Wrap(usererr.Invalid, fmt.Errorf("CREATE MATERIALIZED VIEW %s: option sink.%s is required with sink '%s'", s.Name, mo.Key, sinkUsing))
		}
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	cpLoc := opts["checkpoint_location"]
	if cpLoc == "" {
		if f.h.Env(ctx).DataDir == "" {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: checkpoint_location is required without a data directory", s.Name)
		}
		p, err := safepath.Join(f.h.Env(ctx).DataDir, "checkpoints", "mv_"+strings.ToLower(s.Name))
		if err != nil {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
		}
		cpLoc = p
	}
	// The view made its sink, so the sink's data is the view's to drop.
	tbl := &catalog.Table{Spec: sinkSpec, Comment: "materialized view", Managed: true, Created: f.h.Now(), Pending: catalog.Owner()}
	if explain {
		return f.explainMView(ctx, s.Name, tbl, query, ViewSpec{Query: query.String(), AutoRefresh: auto,
			Interval: opts["refresh_interval"], Checkpoint: storage.NormalizeLocation(cpLoc), Options: opts})
	}
	if err := f.h.Catalog().CreateTable(tbl, false); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	spec := ViewSpec{Query: query.String(), AutoRefresh: auto, Interval: opts["refresh_interval"],
		Checkpoint: storage.NormalizeLocation(cpLoc), Options: opts}
	raw, _ := json.Marshal(spec)
	// Until this statement returns, the view and its sink are marked
	// pending: a kill -9 before then leaves them to be undone at the next
	// start (SweepPending), as a failure now undoes them.
	obj := &catalog.Object{Kind: "mview", Name: s.Name, SQL: s.String(), Options: raw, Created: f.h.Now(), Pending: catalog.Owner()}
	if err := f.h.Catalog().PutObject(obj, false); err != nil {
		_ = f.h.Catalog().DropTable(s.Name, true)
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	before := f.h.LastRun("mv_" + s.Name)
	cpExisted := f.checkpointExists(ctx, spec.Checkpoint)
	r, err := f.RefreshView(ctx, s.Name, spec)
	if err != nil {
		// DDL is atomic: a view whose first refresh failed before
		// committing anything is removed again, so a retry can create it.
		if run := f.h.LastRun("mv_" + s.Name); run == before || run.Status().Epochs == 0 {
			if uerr := f.removeMView(ctx, s.Name, spec, false, !cpExisted); uerr != nil {
				return nil, fmt.Errorf("%w (and undoing CREATE MATERIALIZED VIEW %s: %v)", err, s.Name, uerr)
			}
		}
		return nil, err
	}
	if err := f.complete(s.Name); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	return message("materialized view %s created; %s", s.Name, r.Message), nil
}

// nullable is s with every field nullable: a view's sink takes any row
// of its query.
func nullable(s *arrow.Schema) *arrow.Schema {
	fs := append([]arrow.Field{}, s.Fields()...)
	for i := range fs {
		fs[i].Nullable = true
	}
	return arrow.NewSchema(fs, nil)
}

// ExplainMView is EXPLAIN CREATE MATERIALIZED VIEW: the view's
// definition worked out as CREATE does, then its stream planned into the
// table the view would create, as RefreshView would run it; nothing is
// created.
func (f *Flint) ExplainMView(ctx context.Context, s *sql.CreateMaterializedView) (*Result, error) {
	return f.defineMView(ctx, s, true)
}

func (f *Flint) explainMView(ctx context.Context, name string, t *catalog.Table, query *sql.Query, spec ViewSpec) (*Result, error) {
	st := mviewStream(name, query, spec)
	st.Sink = t
	lines, err := f.h.ExplainStream(ctx, st)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(lines))
	for i, l := range lines {
		out[i] = []string{l}
	}
	return stringRows([]string{"plan"}, out), nil
}

// RefreshView brings view name up to date through its stream: a
// catch-up from its checkpoint (a full build the first time), or, with
// auto_refresh, a stream triggered every refresh_interval, launched
// (Host.Launch): in the foreground until cancelled, or in the background.
func (f *Flint) RefreshView(ctx context.Context, name string, spec ViewSpec) (*Result, error) {
	query, err := parseQuery(spec.Query)
	if err != nil {
		return nil, fmt.Errorf("materialized view %s: stored query: %w", name, err)
	}
	st := mviewStream(name, query, spec)
	return f.refresh(ctx, st, spec.AutoRefresh)
}

// mviewStream is the stream that refreshes view name with query: every
// refresh_interval with auto_refresh (1 minute when unset), else one
// catch-up (available_now).
func mviewStream(name string, query *sql.Query, spec ViewSpec) Stream {
	opts := map[string]string{}
	for k, v := range spec.Options {
		opts[k] = v
	}
	return Stream{Name: "mv_" + name, Table: name, Query: query, Trigger: spec.Trigger(), Checkpoint: spec.Checkpoint, Options: streamOptions(opts)}
}

// parseQuery reads a stored view's query (ViewSpec.Query): text Sluice
// printed from a parsed or built tree, so it parses back to that tree.
func parseQuery(text string) (*sql.Query, error) {
	st, err := sql.ParseOne(text)
	if err != nil {
		return nil, err
	}
	s, ok := st.(*sql.SelectStmt)
	if !ok {
		return nil, fmt.Errorf("not a query")
	}
	return s.Query, nil
}

// mviewDef reads view name's definition (catalog.ErrNotFound when
// there is none).
func (f *Flint) mviewDef(name string) (*catalog.Object, ViewSpec, error) {
	var spec ViewSpec
	o, err := f.h.Catalog().Object("mview", name)
	if err != nil {
		return nil, spec, err
	}
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		return nil, spec, fmt.Errorf("materialized view %s: corrupt definition: %w", name, err)
	}
	return o, spec, nil
}

// refreshMViewStmt is REFRESH MATERIALIZED VIEW: one catch-up, whatever
// the view's mode.
func (f *Flint) refreshMViewStmt(ctx context.Context, name string) (*Result, error) {
	o, spec, err := f.mviewDef(name)
	if err != nil {
		return nil, err
	}
	spec.AutoRefresh = false // REFRESH is one catch-up, whatever the view's mode
	return f.RefreshView(ctx, o.Name, spec)
}

// showMViews is SHOW MATERIALIZED VIEWS [IN db]: the views (not the
// covering indexes' own), their refresh settings and this process's state
// of each.
func (f *Flint) showMViews(ctx context.Context, in string) (*Result, error) {
	db, err := f.h.Database(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("SHOW MATERIALIZED VIEWS: %w", err)
	}
	objs, err := f.h.Catalog().Objects("mview")
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		if odb, _ := catalog.SplitStored(o.Name); odb != db || f.isIndexView(o.Name) {
			continue
		}
		var spec ViewSpec
		_ = json.Unmarshal(o.Options, &spec)
		state := "stopped"
		if run := f.h.LastRun("mv_" + o.Name); run != nil {
			state = run.Status().State
		}
		rows = append(rows, []string{o.Name, strconv.FormatBool(spec.AutoRefresh), spec.Interval, state, spec.Checkpoint})
	}
	return stringRows([]string{"name", "auto_refresh", "refresh_interval", "state", "checkpoint"}, rows), nil
}

// describeMView is DESCRIBE MATERIALIZED VIEW: the definition, the
// sink's columns and the refresh stream's status.
func (f *Flint) describeMView(ctx context.Context, name string) (*Result, error) {
	o, spec, err := f.mviewDef(name)
	if err != nil {
		return nil, err
	}
	rows := [][]string{
		{"name", o.Name},
		{"query", spec.Query},
		{"auto_refresh", strconv.FormatBool(spec.AutoRefresh)},
		{"refresh_interval", spec.Interval},
		{"output_mode", spec.Options["output_mode"]},
		{"checkpoint", spec.Checkpoint},
	}
	for _, k := range []string{"incremental_refresh", "scheduler_mode", "watermark_delay", "id_expression"} {
		if v := spec.Options[k]; v != "" {
			rows = append(rows, []string{k, v})
		}
	}
	if t, err := f.h.Catalog().Table(o.Name); err == nil {
		rows = append(rows, []string{"sink", t.Spec.Using})
		for _, fd := range t.Spec.Schema.Fields() {
			rows = append(rows, []string{"column " + fd.Name, types.SQLName(fd.Type)})
		}
	}
	if st, ok := f.h.StreamStatus(ctx, "mv_"+o.Name); ok {
		rows = append(rows, []string{"state", st.State}, []string{"epochs", strconv.FormatInt(st.Epochs, 10)},
			[]string{"last_error", st.LastError})
	}
	return stringRows([]string{"key", "value"}, rows), nil
}

// alterView is ALTER MATERIALIZED VIEW name WITH (with), also what
// altering a covering index alters; auto_refresh = false pauses it.
func (f *Flint) alterView(ctx context.Context, name string, with sql.Options) (*Result, error) {
	o, spec, err := f.mviewDef(name)
	if err != nil {
		return nil, err
	}
	return f.alterRefresh(ctx, refreshAlter{
		stmt: "ALTER MATERIALIZED VIEW " + o.Name, what: "materialized view " + o.Name, stream: "mv_" + o.Name,
		keys: []string{"incremental_refresh", "scheduler_mode"},
		auto: &spec.AutoRefresh, interval: &spec.Interval, checkpoint: &spec.Checkpoint, options: &spec.Options,
		obj: o, def: &spec,
		start: func(ctx context.Context) error {
			_, err := f.RefreshView(ctx, o.Name, spec)
			return err
		},
	}, with)
}

// DropMView stops the view, and removes its sink table, its local index
// and its checkpoint.
func (f *Flint) DropMView(ctx context.Context, s *sql.DropMaterializedView) (*Result, error) {
	o, spec, err := f.mviewDef(s.Name)
	if err != nil {
		if s.IfExists {
			return message("no materialized view %s: nothing dropped", s.Name), nil
		}
		return nil, err
	}
	f.h.StopIfRunning("mv_" + o.Name)
	if err := f.removeMView(ctx, o.Name, spec, true, true); err != nil {
		return nil, fmt.Errorf("DROP MATERIALIZED VIEW %s: %w", o.Name, err)
	}
	return message("materialized view %s dropped", o.Name), nil
}

// vacuumMView runs Flint's VACUUM MATERIALIZED VIEW: DROP already removed
// the view's data and checkpoint, so vacuuming a dropped view is done;
// vacuuming one that exists drops it.
func (f *Flint) vacuumMView(ctx context.Context, s *sql.VacuumMaterializedView) (*Result, error) {
	if _, err := f.h.Catalog().Object("mview", s.Name); errors.Is(err, catalog.ErrNotFound) {
		return message("materialized view %s vacuumed", s.Name), nil
	}
	if _, err := f.DropMView(ctx, &sql.DropMaterializedView{Name: s.Name}); err != nil {
		return nil, err
	}
	return message("materialized view %s vacuumed", s.Name), nil
}

// removeMView deletes a view's checkpoint (only the checkpoint's own
// files, and only with withCheckpoint), its sink's data, and its catalog
// entries. strict stops at the first failure, leaving the view in the
// catalog to drop again; the undo of a failed CREATE is not strict: it
// removes what it can, and never what the view did not write (a
// checkpoint that was there before it).
func (f *Flint) removeMView(ctx context.Context, name string, spec ViewSpec, strict, withCheckpoint bool) error {
	var errs []error
	fail := func(err error) bool {
		errs = append(errs, err)
		return strict
	}
	if !withCheckpoint {
		// Leave it.
	} else if store, prefix, err := f.h.ResolveCheckpoint(ctx, spec.Checkpoint); err != nil {
		if fail(fmt.Errorf("checkpoint %s: %w", spec.Checkpoint, err)) {
			return errors.Join(errs...)
		}
	} else if err := stream.RemoveCheckpoint(ctx, &stream.Checkpoint{Store: store, Prefix: prefix}); err != nil {
		if fail(err) {
			return errors.Join(errs...)
		}
	}
	if t, err := f.h.Catalog().Table(name); err == nil {
		if err := f.h.DropTable(ctx, t); err != nil {
			if fail(err) {
				return errors.Join(errs...)
			}
			// Not strict: forget the table even though its data stays.
			_ = f.h.Catalog().DropTable(name, true)
		}
	}
	_ = f.h.Catalog().DropObject("stream", "mv_"+name, true)
	if err := f.h.Catalog().DropObject("mview", name, true); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func hasAggregate(n plan.Node) bool {
	if _, ok := n.(*plan.Aggregate); ok {
		return true
	}
	for _, c := range n.Children() {
		if hasAggregate(c) {
			return true
		}
	}
	return false
}

func hasWindowKey(n plan.Node) bool {
	if a, ok := n.(*plan.Aggregate); ok {
		for _, k := range a.Keys {
			if plan.IsWindowKey(k) {
				return true
			}
		}
	}
	for _, c := range n.Children() {
		if hasWindowKey(c) {
			return true
		}
	}
	return false
}
