package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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
)

// mviewSpec is a materialized view as kept in the catalog.
type mviewSpec struct {
	Query       string            `json:"query"`
	AutoRefresh bool              `json:"auto_refresh"`
	Interval    string            `json:"refresh_interval,omitempty"`
	Checkpoint  string            `json:"checkpoint"`
	Options     map[string]string `json:"options,omitempty"`
}

// createMView runs CREATE MATERIALIZED VIEW: it creates the view's sink
// table (the embedded index unless sink says otherwise), records the
// definition, and refreshes it: in the foreground until stopped with
// auto_refresh = true, else once, to catch up.
func (e *Engine) createMView(ctx context.Context, s *sql.CreateMaterializedView) (*Result, error) {
	return e.defineMView(ctx, s, false)
}

// defineMView is CREATE MATERIALIZED VIEW, or with explain its EXPLAIN:
// the view's definition worked out the same way, then its stream's plan
// printed instead of anything created.
func (e *Engine) defineMView(ctx context.Context, s *sql.CreateMaterializedView, explain bool) (*Result, error) {
	if s.IfNotExists {
		if _, err := e.catalog.Object("mview", s.Name); err == nil {
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
	f, err := registry.Lookup(sinkUsing)
	if err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	// The view's own keys, a stream's, and the sink's (also spelled
	// sink.<key>) are all taken; sink. keys are the sink's to check.
	sinkOpts := map[string]string{}
	viewOpts := map[string]string{}
	sinkKeys := map[string]bool{}
	for _, k := range f.OptionKeys {
		sinkKeys[k] = true
	}
	for k, v := range opts {
		if rest, ok := strings.CutPrefix(k, "sink."); ok {
			sinkOpts[rest] = v
			continue
		}
		viewOpts[k] = v
	}
	if err := job.Check(job.View, viewOpts, "for a materialized view", registry.StreamOptionKeys(), f.OptionKeys); err != nil {
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
		src, snk, err := e.extraOptions(ctx, extra, s.Query)
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
	n, err := e.planQuery(e.queryContext(ctx), query)
	if err != nil {
		return nil, err
	}
	mode := opts["output_mode"]
	if mode == "" {
		mode = "append"
		if hasAggregate(n) && (!hasWindowKey(n) || (opts["watermark_delay"] == "" && !e.readsWatermarkedTable(ctx, s.Query))) {
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
		keys, _ := groupKeyOutputs(n)
		switch a := aggregateUnder(n); {
		case len(keys) > 0:
			sinkOpts["id"] = strings.Join(keys, ",")
		case a != nil && len(a.Keys) == 0:
			// One group (SELECT count(*) FROM t): one document, named
			// by the view, as if id_expression were its name, so that
			// each refresh replaces the answer instead of adding one.
			idOpt, query = idColumn, withIDColumn(query, sql.StringLit(s.Name))
			if n, err = e.planQuery(e.queryContext(ctx), query); err != nil {
				return nil, err
			}
			sinkOpts["id"] = idOpt
		}
	}
	if err := checkName(s.Name); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW: view %w", err)
	}
	sinkSpec := connector.TableSpec{Name: s.Name, Using: sinkUsing, Options: sinkOpts, Schema: nullable(n.Schema())}
	if _, err := registry.Prepare(&sinkSpec, e.env(ctx)); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	cpLoc := opts["checkpoint_location"]
	if cpLoc == "" {
		if e.opts.DataDir == "" {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: checkpoint_location is required without a data directory", s.Name)
		}
		p, err := safepath.Join(e.opts.DataDir, "checkpoints", "mv_"+strings.ToLower(s.Name))
		if err != nil {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
		}
		cpLoc = p
	}
	// The view made its sink, so the sink's data is the view's to drop.
	tbl := &catalog.Table{Spec: sinkSpec, Comment: "materialized view", Managed: true, Created: e.now()}
	if explain {
		return e.explainMView(ctx, s.Name, tbl, query, mviewSpec{Query: query.String(), AutoRefresh: auto,
			Interval: opts["refresh_interval"], Checkpoint: normalizeLocation(cpLoc), Options: opts})
	}
	if err := e.catalog.CreateTable(tbl, false); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	spec := mviewSpec{Query: query.String(), AutoRefresh: auto, Interval: opts["refresh_interval"],
		Checkpoint: normalizeLocation(cpLoc), Options: opts}
	raw, _ := json.Marshal(spec)
	if err := e.catalog.PutObject(&catalog.Object{Kind: "mview", Name: s.Name, SQL: s.String(), Options: raw, Created: e.now()}, false); err != nil {
		_ = e.catalog.DropTable(s.Name, true)
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	before := e.jobs.Current("mv_" + s.Name)
	cpExisted := e.checkpointExists(ctx, spec.Checkpoint)
	r, err := e.refreshMView(ctx, s.Name, spec)
	if err != nil {
		// DDL is atomic: a view whose first refresh failed before
		// committing anything is removed again, so a retry can create it.
		if run := e.jobs.Current("mv_" + s.Name); run == before || run.Snapshot().Epochs == 0 {
			if uerr := e.removeMView(ctx, s.Name, spec, false, !cpExisted); uerr != nil {
				return nil, fmt.Errorf("%w (and undoing CREATE MATERIALIZED VIEW %s: %v)", err, s.Name, uerr)
			}
		}
		return nil, err
	}
	return message("materialized view %s created; %s", s.Name, r.Message), nil
}

func nullable(s *arrow.Schema) *arrow.Schema {
	fs := append([]arrow.Field{}, s.Fields()...)
	for i := range fs {
		fs[i].Nullable = true
	}
	return arrow.NewSchema(fs, nil)
}

// refreshMView brings a view up to date through its stream: a catch-up
// from its checkpoint (a full build the first time), or, with
// auto_refresh, a stream triggered every refresh_interval in the
// foreground until cancelled.
func (e *Engine) refreshMView(ctx context.Context, name string, spec mviewSpec) (*Result, error) {
	query, err := parseQuery(spec.Query)
	if err != nil {
		return nil, fmt.Errorf("materialized view %s: stored query: %w", name, err)
	}
	st := mviewStreamSpec(name, spec)
	run := func(ctx context.Context) (*Result, error) {
		return e.runStream(ctx, "mv_"+name, streamWrite{Table: name, Query: query}, st)
	}
	if !spec.AutoRefresh {
		return run(ctx) // a catch-up runs in the foreground, in any mode
	}
	return e.launch(ctx, "mv_"+name, run, nil)
}

// mviewStreamSpec is the stream that refreshes view name: every
// refresh_interval with auto_refresh (1 minute when unset), else one
// catch-up (available_now).
func mviewStreamSpec(name string, spec mviewSpec) streamSpec {
	opts := map[string]string{}
	for k, v := range spec.Options {
		opts[k] = v
	}
	trigger := "available_now"
	if spec.AutoRefresh {
		trigger = spec.Interval
		if trigger == "" {
			trigger = "1 minute"
		}
	}
	return streamSpec{Table: name, Trigger: trigger, Checkpoint: spec.Checkpoint, Options: streamOptions(opts)}
}

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

func (e *Engine) mviewDef(name string) (*catalog.Object, mviewSpec, error) {
	var spec mviewSpec
	o, err := e.catalog.Object("mview", name)
	if err != nil {
		return nil, spec, err
	}
	if err := json.Unmarshal(o.Options, &spec); err != nil {
		return nil, spec, fmt.Errorf("materialized view %s: corrupt definition: %w", name, err)
	}
	return o, spec, nil
}

func (e *Engine) refreshMViewStmt(ctx context.Context, name string) (*Result, error) {
	o, spec, err := e.mviewDef(name)
	if err != nil {
		return nil, err
	}
	spec.AutoRefresh = false // REFRESH is one catch-up, whatever the view's mode
	return e.refreshMView(ctx, o.Name, spec)
}

func (e *Engine) showMViews(ctx context.Context, in string) (*Result, error) {
	db, err := e.databaseOf(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("SHOW MATERIALIZED VIEWS: %w", err)
	}
	objs, err := e.catalog.Objects("mview")
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		if odb, _ := catalog.SplitStored(o.Name); odb != db || e.isIndexView(o.Name) {
			continue
		}
		var spec mviewSpec
		_ = json.Unmarshal(o.Options, &spec)
		state := "stopped"
		if rs := e.jobs.Current("mv_" + o.Name); rs != nil {
			state = rs.Snapshot().State
		}
		rows = append(rows, []string{o.Name, strconv.FormatBool(spec.AutoRefresh), spec.Interval, state, spec.Checkpoint})
	}
	return stringRows([]string{"name", "auto_refresh", "refresh_interval", "state", "checkpoint"}, rows), nil
}

func (e *Engine) describeMView(ctx context.Context, name string) (*Result, error) {
	o, spec, err := e.mviewDef(name)
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
	if t, err := e.catalog.Table(o.Name); err == nil {
		rows = append(rows, []string{"sink", t.Spec.Using})
		for _, f := range t.Spec.Schema.Fields() {
			rows = append(rows, []string{"column " + f.Name, types.SQLName(f.Type)})
		}
	}
	if so, err := e.catalog.Object("stream", "mv_"+o.Name); err == nil {
		var ss streamSpec
		_ = json.Unmarshal(so.Options, &ss)
		st := e.streamStatus(ctx, so, ss)
		rows = append(rows, []string{"state", st.State}, []string{"epochs", strconv.FormatInt(st.Epochs, 10)},
			[]string{"last_error", st.LastError})
	}
	return stringRows([]string{"key", "value"}, rows), nil
}

// alterMView changes a view's options; auto_refresh = false pauses it.
func (e *Engine) alterMView(ctx context.Context, s *sql.AlterMaterializedView) (*Result, error) {
	return e.alterView(ctx, s.Name, s.With)
}

// alterView is ALTER MATERIALIZED VIEW name WITH (with), also what
// altering a covering index alters.
func (e *Engine) alterView(ctx context.Context, name string, with sql.Options) (*Result, error) {
	o, spec, err := e.mviewDef(name)
	if err != nil {
		return nil, err
	}
	return e.alterRefresh(ctx, refreshAlter{
		stmt: "ALTER MATERIALIZED VIEW " + o.Name, what: "materialized view " + o.Name, stream: "mv_" + o.Name,
		keys: []string{"incremental_refresh", "scheduler_mode"},
		auto: &spec.AutoRefresh, interval: &spec.Interval, checkpoint: &spec.Checkpoint, options: &spec.Options,
		obj: o, def: &spec,
		start: func(ctx context.Context) error {
			_, err := e.refreshMView(ctx, o.Name, spec)
			return err
		},
	}, with)
}

// dropMView stops the view, and removes its sink table, its local index
// and its checkpoint.
func (e *Engine) dropMView(ctx context.Context, s *sql.DropMaterializedView) (*Result, error) {
	o, spec, err := e.mviewDef(s.Name)
	if err != nil {
		if s.IfExists {
			return message("materialized view %s does not exist", s.Name), nil
		}
		return nil, err
	}
	e.jobs.StopIfRunning("mv_" + o.Name)
	if err := e.removeMView(ctx, o.Name, spec, true, true); err != nil {
		return nil, fmt.Errorf("DROP MATERIALIZED VIEW %s: %w", o.Name, err)
	}
	return message("materialized view %s dropped", o.Name), nil
}

// removeMView deletes a view's checkpoint (only the checkpoint's own
// files, and only with withCheckpoint), its sink's data, and its catalog
// entries. strict stops at the first failure, leaving the view in the
// catalog to drop again; the undo of a failed CREATE is not strict: it
// removes what it can, and never what the view did not write (a
// checkpoint that was there before it).
func (e *Engine) removeMView(ctx context.Context, name string, spec mviewSpec, strict, withCheckpoint bool) error {
	var errs []error
	fail := func(err error) bool {
		errs = append(errs, err)
		return strict
	}
	if !withCheckpoint {
		// Leave it.
	} else if store, prefix, err := e.resolveCheckpoint(ctx, spec.Checkpoint); err != nil {
		if fail(fmt.Errorf("checkpoint %s: %w", spec.Checkpoint, err)) {
			return errors.Join(errs...)
		}
	} else if err := stream.RemoveCheckpoint(ctx, &stream.Checkpoint{Store: store, Prefix: prefix}); err != nil {
		if fail(err) {
			return errors.Join(errs...)
		}
	}
	if t, err := e.catalog.Table(name); err == nil {
		if err := e.forgetTable(ctx, t); err != nil {
			if fail(err) {
				return errors.Join(errs...)
			}
			// Not strict: forget the table even though its data stays.
			_ = e.catalog.DropTable(name, true)
		}
	}
	_ = e.catalog.DropObject("stream", "mv_"+name, true)
	if err := e.catalog.DropObject("mview", name, true); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkpointExists reports whether anything is stored at a checkpoint
// location (errors count as "yes": when in doubt, nothing is deleted).
func (e *Engine) checkpointExists(ctx context.Context, loc string) bool {
	if !strings.Contains(loc, "://") {
		if _, err := os.Stat(loc); errors.Is(err, os.ErrNotExist) {
			return false
		}
	}
	store, prefix, err := e.resolveCheckpoint(ctx, loc)
	if err != nil {
		return true
	}
	found := errors.New("found")
	err = store.List(ctx, prefix, "", func(storage.ObjectInfo) error { return found })
	return err != nil
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
