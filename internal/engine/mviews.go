package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/opensearch"
	"sluice/internal/connector/registry"
	"sluice/internal/expr"
	"sluice/internal/plan"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// mviewOptionKeys are the WITH (...) keys of CREATE MATERIALIZED VIEW
// (OpenSearch Flint's, plus sink). Keys starting with "sink." or any
// option of the chosen sink connector configure the sink table.
var mviewOptionKeys = []string{"auto_refresh", "refresh_interval", "checkpoint_location", "watermark_delay",
	"output_mode", "id_expression", "index_settings", "index_mappings", "sink", "extra_options", "watermark_idle_timeout"}

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
	sinkOpts := map[string]string{}
	known := map[string]bool{}
	for _, k := range mviewOptionKeys {
		known[k] = true
	}
	sinkKeys := map[string]bool{}
	for _, k := range f.OptionKeys {
		sinkKeys[k] = true
	}
	for k, v := range opts {
		switch {
		case strings.HasPrefix(k, "sink."):
			sinkOpts[strings.TrimPrefix(k, "sink.")] = v
		case k == "index_settings" || k == "index_mappings":
			if sinkKeys[k] {
				sinkOpts[k] = v
			}
		case known[k] || isSourceOption(k):
		case sinkKeys[k]:
			sinkOpts[k] = v
		default:
			all := append([]string{}, mviewOptionKeys...)
			sort.Strings(all)
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: unknown option %q (known: %s, and the %s sink's options)", s.Name, k, strings.Join(all, ", "), sinkUsing)
		}
	}
	auto, err := parseBoolOption(opts["auto_refresh"], false)
	if err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: auto_refresh: %w", s.Name, err)
	}
	// The view's columns are the query's.
	n, err := e.planQuery(e.queryContext(ctx), s.Query)
	if err != nil {
		return nil, err
	}
	mode := opts["output_mode"]
	if mode == "" {
		mode = "append"
		if hasAggregate(n) && !hasWindowKey(n) {
			mode = "complete"
		}
		opts["output_mode"] = mode
	}
	if id := opts["id_expression"]; id != "" {
		sinkOpts["id"] = id
	} else if mode != "append" {
		// Upserts need one id per group: the group key columns.
		if keys := groupKeyColumns(n); len(keys) > 0 && sinkKeys["id"] {
			sinkOpts["id"] = strings.Join(keys, ",")
		}
	}
	if sinkUsing == "index" && sinkOpts["path"] == "" && e.opts.DataDir != "" {
		sinkOpts["path"] = filepath.Join(e.opts.DataDir, "indexes", strings.ToLower(s.Name))
	}
	if err := registry.ValidateOptions(sinkUsing, sinkOpts); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	cpLoc := opts["checkpoint_location"]
	if cpLoc == "" {
		if e.opts.DataDir == "" {
			return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: checkpoint_location is required without a data directory", s.Name)
		}
		cpLoc = filepath.Join(e.opts.DataDir, "checkpoints", "mv_"+strings.ToLower(s.Name))
	}
	tbl := &catalog.Table{Spec: connector.TableSpec{Name: s.Name, Using: sinkUsing, Options: sinkOpts,
		Schema: nullable(n.Schema())}, Comment: "materialized view", Created: e.now()}
	if err := e.catalog.CreateTable(tbl, false); err != nil {
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	spec := mviewSpec{Query: s.Query.String(), AutoRefresh: auto, Interval: opts["refresh_interval"],
		Checkpoint: normalizeLocation(cpLoc), Options: opts}
	raw, _ := json.Marshal(spec)
	if err := e.catalog.PutObject(&catalog.Object{Kind: "mview", Name: s.Name, SQL: s.String(), Options: raw, Created: e.now()}, false); err != nil {
		_ = e.catalog.DropTable(s.Name, true)
		return nil, fmt.Errorf("CREATE MATERIALIZED VIEW %s: %w", s.Name, err)
	}
	r, err := e.refreshMView(ctx, s.Name, spec)
	if err != nil {
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

func parseBoolOption(v string, def bool) (bool, error) {
	switch strings.ToLower(v) {
	case "":
		return def, nil
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean", v)
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
	st := streamSpec{Table: name, Trigger: trigger, Checkpoint: spec.Checkpoint, Options: streamOptions(opts)}
	return e.runStream(ctx, "mv_"+name, &sql.InsertStream{Table: name, Query: query}, st)
}

// streamOptions keeps the options a stream understands.
func streamOptions(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if k == "output_mode" || k == "watermark_delay" || k == "watermark_idle_timeout" || isSourceOption(k) {
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

func (e *Engine) showMViews(ctx context.Context) (*Result, error) {
	objs, err := e.catalog.Objects("mview")
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, o := range objs {
		var spec mviewSpec
		_ = json.Unmarshal(o.Options, &spec)
		state := "stopped"
		e.mu.Lock()
		if rs := e.streams["mv_"+strings.ToLower(o.Name)]; rs != nil {
			state = rs.snapshot().State
		}
		e.mu.Unlock()
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
	o, spec, err := e.mviewDef(s.Name)
	if err != nil {
		return nil, err
	}
	for _, opt := range s.With {
		k, v := strings.ToLower(opt.Key), opt.Value.Value
		switch k {
		case "auto_refresh":
			if spec.AutoRefresh, err = parseBoolOption(v, false); err != nil {
				return nil, fmt.Errorf("ALTER MATERIALIZED VIEW %s: auto_refresh: %w", s.Name, err)
			}
		case "refresh_interval":
			spec.Interval = v
		default:
			return nil, fmt.Errorf("ALTER MATERIALIZED VIEW %s: option %q cannot be changed (auto_refresh, refresh_interval)", s.Name, k)
		}
	}
	if !spec.AutoRefresh {
		e.stopIfRunning("mv_" + o.Name)
	}
	raw, _ := json.Marshal(spec)
	o.Options = raw
	if err := e.catalog.PutObject(o, true); err != nil {
		return nil, err
	}
	return message("materialized view %s altered", o.Name), nil
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
	e.stopIfRunning("mv_" + o.Name)
	if t, err := e.catalog.Table(o.Name); err == nil {
		if p := t.Spec.Options["path"]; t.Spec.Using == "index" && p != "" {
			if err := os.RemoveAll(p); err != nil {
				return nil, fmt.Errorf("dropping index of %s: %w", o.Name, err)
			}
		}
		if t.Spec.Using == "opensearch" {
			if err := opensearch.DropIndex(ctx, t.Spec); err != nil {
				return nil, fmt.Errorf("dropping materialized view %s: %w", o.Name, err)
			}
		}
		if err := e.catalog.DropTable(o.Name, true); err != nil {
			return nil, err
		}
	}
	if !strings.Contains(spec.Checkpoint, "://") {
		_ = os.RemoveAll(spec.Checkpoint)
	}
	_ = e.catalog.DropObject("stream", "mv_"+o.Name, true)
	if err := e.catalog.DropObject("mview", o.Name, false); err != nil {
		return nil, err
	}
	return message("materialized view %s dropped", o.Name), nil
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

// groupKeyColumns names the output columns that are GROUP BY keys of the
// query's aggregation (directly projected), for per-group upsert ids.
func groupKeyColumns(n plan.Node) []string {
	p, ok := n.(*plan.Project)
	if !ok {
		return nil
	}
	var in plan.Node = p.Input
	for {
		switch t := in.(type) {
		case *plan.Filter:
			in = t.Input
			continue
		case *plan.Sort:
			in = t.Input
			continue
		}
		break
	}
	a, ok := in.(*plan.Aggregate)
	if !ok {
		return nil
	}
	var out []string
	for i, e := range p.Exprs {
		// A key column, or a field of one (TUMBLE(ts, ...).start AS w).
		for {
			f, ok := e.(*expr.FieldExpr)
			if !ok {
				break
			}
			e = f.Arg
		}
		if c, ok := e.(*expr.Column); ok && c.Index < len(a.Keys) {
			out = append(out, p.Names[i])
		}
	}
	return out
}
