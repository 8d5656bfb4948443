package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/job"
	"sluice/internal/safepath"
	"sluice/internal/skipindex"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// createSkippingIndex runs CREATE SKIPPING INDEX: the index table (the
// local index unless sink says otherwise, one row per file, id
// file_path), the definition, then a refresh: once to catch up, or, with
// auto_refresh, a stream that indexes each new file as it lands. DDL is
// atomic: an index whose first refresh fails before committing is
// removed again.
func (e *Engine) createSkippingIndex(ctx context.Context, s *sql.CreateSkippingIndex) (*Result, error) {
	t, err := e.indexTable(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("CREATE SKIPPING INDEX: %w", err)
	}
	fname := indexName(t, "")
	fail := func(err error) (*Result, error) {
		return nil, fmt.Errorf("CREATE SKIPPING INDEX ON %s: %w", t.Spec.Name, err)
	}
	if _, err := e.catalog.Object(flintIndexKind, flintObj(fname)); err == nil {
		if s.IfNotExists {
			return message("skipping index %s already exists", fname), nil
		}
		return fail(fmt.Errorf("index %s already exists", fname))
	}
	if s.Where != nil {
		// Flint's own answer: per-file data over some rows would skip
		// files that hold other matching rows.
		return fail(fmt.Errorf("Filtering condition is not supported: WHERE %s", s.Where))
	}
	src, err := registry.OpenSource(ctx, t.Spec, e.env(ctx), nil)
	if err != nil {
		return fail(err)
	}
	if _, ok := src.(connector.FileSkipper); !ok {
		return fail(fmt.Errorf("table %s (USING %s) is not a file table", t.Spec.Name, t.Spec.Using))
	}
	sch := src.Schema()
	isPart := map[string]bool{}
	for _, p := range t.Spec.PartitionBy {
		isPart[strings.ToLower(p)] = true
	}
	var cols []skipindex.Column
	seen := map[string]bool{}
	for _, c := range s.Columns {
		i := fieldFold(sch, c.Column)
		if i < 0 {
			return fail(fmt.Errorf("table %s has no column %s", t.Spec.Name, c.Column))
		}
		f := sch.Field(i)
		if seen[strings.ToLower(f.Name)] {
			return fail(fmt.Errorf("column %s is indexed twice", f.Name))
		}
		seen[strings.ToLower(f.Name)] = true
		if c.Kind == skipindex.Partition && !isPart[strings.ToLower(f.Name)] {
			return fail(fmt.Errorf("column %s PARTITION: %s is not a partition column of %s", f.Name, f.Name, t.Spec.Name))
		}
		col, err := skipindex.NewColumn(f.Name, c.Kind, c.Params, f.Type)
		if err != nil {
			return fail(err)
		}
		cols = append(cols, col)
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
		return fail(err)
	}
	sinkOpts, own := map[string]string{}, map[string]string{}
	for k, v := range opts {
		if rest, ok := strings.CutPrefix(k, "sink."); ok {
			sinkOpts[rest] = v
			continue
		}
		own[k] = v
	}
	if err := job.Check(job.Skipping, own, "for a skipping index", registry.StreamOptionKeys(), f.OptionKeys); err != nil {
		return fail(err)
	}
	for k, v := range own {
		isOwn := job.Takes(job.Skipping, k) || registry.IsStreamOption(k)
		if slices.Contains(f.OptionKeys, k) && (!isOwn || k == "index_settings" || k == "index_mappings") {
			sinkOpts[k] = v
		}
	}
	auto, err := job.ParseBool(opts["auto_refresh"], false)
	if err != nil {
		return fail(fmt.Errorf("auto_refresh: %w", err))
	}
	if err := checkRefreshModes(opts, auto); err != nil {
		return fail(err)
	}
	if extra := opts["extra_options"]; extra != "" {
		srcOpts, snk, err := e.extraOptions(ctx, extra, selectAll(t.Spec.Name))
		if err != nil {
			return fail(err)
		}
		for k, v := range srcOpts {
			opts[k] = v
		}
		for k, v := range snk {
			sinkOpts[k] = v
		}
	}
	if slices.Contains(f.OptionKeys, "id") {
		sinkOpts["id"] = skipindex.FileColumn
	}
	if slices.Contains(f.OptionKeys, "index") && sinkOpts["index"] == "" {
		sinkOpts["index"] = fname // Flint's OpenSearch index name
	}
	if err := safepath.CheckName(fname); err != nil {
		return fail(fmt.Errorf("index %w", err))
	}
	db, _ := catalog.SplitStored(t.Spec.Name)
	idxTable := catalog.StoredName(db, fname)
	if _, err := e.catalog.Table(idxTable); err == nil {
		return fail(fmt.Errorf("table %s already exists", idxTable))
	}
	sinkSpec := connector.TableSpec{Name: idxTable, Using: sinkUsing, Options: sinkOpts, Schema: skipindex.Schema(cols)}
	if _, err := registry.Prepare(&sinkSpec, e.env(ctx)); err != nil {
		return fail(err)
	}
	cp := opts["checkpoint_location"]
	if cp == "" {
		if e.opts.DataDir == "" {
			return fail(fmt.Errorf("checkpoint_location is required without a data directory"))
		}
		if cp, err = safepath.Join(e.opts.DataDir, "checkpoints", "si_"+fname); err != nil {
			return fail(err)
		}
	}
	spec := flintIndexSpec{Flint: fname, Kind: kindSkipping, Table: t.Spec.Name, IndexTable: idxTable, Columns: cols,
		AutoRefresh: auto, Interval: opts["refresh_interval"], Checkpoint: normalizeLocation(cp), Options: opts}
	tbl := &catalog.Table{Spec: sinkSpec, Comment: "skipping index on " + t.Spec.Name, Managed: true, Created: e.now()}
	if err := e.catalog.CreateTable(tbl, false); err != nil {
		return fail(err)
	}
	raw, _ := json.Marshal(spec)
	if err := e.catalog.PutObject(&catalog.Object{Kind: flintIndexKind, Name: flintObj(fname), SQL: s.String(), Options: raw, Created: e.now()}, false); err != nil {
		_ = e.catalog.DropTable(idxTable, true)
		return fail(err)
	}
	before := e.jobs.Current("si_" + fname)
	cpExisted := e.checkpointExists(ctx, spec.Checkpoint)
	r, err := e.refreshSkipping(ctx, fname, spec)
	if err != nil {
		if run := e.jobs.Current("si_" + fname); run == before || run.Snapshot().Epochs == 0 {
			if uerr := e.removeSkipping(ctx, fname, spec, false, !cpExisted); uerr != nil {
				return nil, fmt.Errorf("%w (and undoing CREATE SKIPPING INDEX %s: %v)", err, fname, uerr)
			}
		}
		return fail(err)
	}
	return message("skipping index %s created; %s", fname, r.Message), nil
}

// refreshSkipping runs the index's stream: SELECT _file, the indexed
// columns FROM the table, folded per file into the index table. Without
// auto_refresh it is one catch-up (the files new since the checkpoint);
// with it, a stream triggered every refresh_interval.
func (e *Engine) refreshSkipping(ctx context.Context, name string, spec flintIndexSpec) (*Result, error) {
	t, err := e.catalog.Table(spec.Table)
	if err != nil {
		return nil, fmt.Errorf("skipping index %s: %w", name, err)
	}
	items := []*sql.SelectItem{sql.Alias(sql.Col(connector.FileColumn), skipindex.FileColumn)}
	var colTypes []arrow.DataType
	for _, c := range spec.Columns {
		items = append(items, sql.Item(sql.Col(c.Name)))
		i := fieldFold(t.Spec.Schema, c.Name)
		if i < 0 {
			return nil, fmt.Errorf("skipping index %s: table %s has no column %s any more", name, t.Spec.Name, c.Name)
		}
		colTypes = append(colTypes, t.Spec.Schema.Field(i).Type)
	}
	q := sql.NewQuery(sql.NewSelect(sql.TableRef(t.Spec.Name), items...))
	trigger := "available_now"
	if spec.AutoRefresh {
		trigger = spec.Interval
		if trigger == "" {
			trigger = "1 minute"
		}
	}
	src, err := registry.OpenSource(ctx, t.Spec, e.env(ctx), nil)
	if err != nil {
		return nil, fmt.Errorf("skipping index %s: %w", name, err)
	}
	fs, ok := src.(connector.FileSkipper)
	if !ok {
		return nil, fmt.Errorf("skipping index %s: table %s is not a file table", name, t.Spec.Name)
	}
	in := skipindex.InputSchema(spec.Columns, colTypes)
	cols := spec.Columns
	st := streamSpec{Table: spec.IndexTable, Trigger: trigger, Checkpoint: spec.Checkpoint, Options: streamOptions(spec.Options),
		sink: &sinkWrap{schema: in, wrap: func(inner connector.Sink) connector.Sink {
			return skipindex.NewSink(cols, in, inner, fs.FileVersion)
		}}}
	run := func(ctx context.Context) (*Result, error) {
		return e.runStream(ctx, "si_"+name, streamWrite{Table: spec.IndexTable, Query: q}, st)
	}
	if !spec.AutoRefresh {
		return run(ctx)
	}
	return e.launch(ctx, "si_"+name, run, nil)
}

// selectAll is SELECT * FROM table.
func selectAll(table string) *sql.Query {
	return sql.NewQuery(sql.NewSelect(sql.TableRef(table), sql.AllColumns()))
}

// fileSkipping reads the skipping index of a table (stored name), nil
// when it has none or it cannot be read: then no file is skipped.
func (e *Engine) fileSkipping(ctx context.Context, table string) *connector.FileSkipping {
	_, spec, err := e.flintIndexDef(flintName(table, "skipping_index"))
	if err != nil || spec.Kind != kindSkipping {
		return nil
	}
	r, err := e.runSelect(ctx, selectAll(spec.IndexTable))
	if err != nil {
		if w := e.warnFunc(); w != nil {
			w(fmt.Sprintf("skipping index on %s not used: %v", table, err))
		}
		return nil
	}
	fs := &connector.FileSkipping{}
	if err := skipindex.Decode(spec.Columns, r.Batches, fs); err != nil {
		return nil
	}
	return fs
}

// analyzeSkippingIndex is ANALYZE SKIPPING INDEX ON t: Flint's rules
// (partition columns PARTITION, booleans VALUE_SET, integers MIN_MAX,
// strings, dates and timestamps BLOOM_FILTER), and from the table's
// statistics, VALUE_SET for a low cardinality column: at most
// VALUE_SET's limit of distinct values, each in ten rows or more on
// average.
func (e *Engine) analyzeSkippingIndex(ctx context.Context, s *sql.AnalyzeSkippingIndex) (*Result, error) {
	t, err := e.indexTable(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("ANALYZE SKIPPING INDEX: %w", err)
	}
	isPart := map[string]bool{}
	for _, p := range t.Spec.PartitionBy {
		isPart[strings.ToLower(p)] = true
	}
	var counted []string
	items := []*sql.SelectItem{sql.Item(sql.CountAll())}
	for _, f := range t.Spec.Schema.Fields() {
		if !isPart[strings.ToLower(f.Name)] && recommendable(f.Type) {
			counted = append(counted, f.Name)
			items = append(items, sql.Item(sql.NewCall("approx_count_distinct", sql.Col(f.Name))))
		}
	}
	distinct := map[string]int64{}
	if len(counted) > 0 {
		r, err := e.runSelect(ctx, sql.NewQuery(sql.NewSelect(sql.TableRef(t.Spec.Name), items...)))
		if err != nil {
			return nil, fmt.Errorf("ANALYZE SKIPPING INDEX ON %s: column statistics: %w", t.Spec.Name, err)
		}
		for _, b := range r.Batches {
			if b.NumRows() == 0 {
				continue
			}
			rows, _ := types.ValueAt(b.Column(0), 0).(int64)
			for i, c := range counted {
				// Low cardinality: few values, each repeated (on
				// average ten times or more).
				if v, ok := types.ValueAt(b.Column(i+1), 0).(int64); ok && v*10 <= rows {
					distinct[c] = v
				}
			}
		}
	}
	var rows [][]string
	for _, f := range t.Spec.Schema.Fields() {
		typ := sparkTypeName(types.SQLName(f.Type))
		kind, reason := recommend(f, isPart[strings.ToLower(f.Name)], distinct)
		if kind != "" {
			rows = append(rows, []string{f.Name, typ, kind, reason})
		}
	}
	return stringRows([]string{"column_name", "column_type", "skipping_type", "reason"}, rows), nil
}

func recommendable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64, arrow.STRING,
		arrow.LARGE_STRING, arrow.DATE32, arrow.TIMESTAMP:
		return true
	}
	return false
}

// recommend picks a column's skip type and says why, in Flint's words.
func recommend(f arrow.Field, part bool, distinct map[string]int64) (string, string) {
	sparkType := map[arrow.Type]string{arrow.BOOL: "BooleanType", arrow.INT8: "ByteType", arrow.INT16: "ShortType",
		arrow.INT32: "IntegerType", arrow.INT64: "LongType", arrow.FLOAT32: "FloatType", arrow.FLOAT64: "DoubleType",
		arrow.STRING: "StringType", arrow.LARGE_STRING: "StringType", arrow.DATE32: "DateType", arrow.TIMESTAMP: "TimestampType"}[f.Type.ID()]
	because := func(kind, why string) (string, string) {
		return kind, kind + " data structure is recommended for " + why
	}
	switch {
	case part:
		return because(skipindex.Partition, "partition columns")
	case f.Type.ID() == arrow.BOOL:
		return because(skipindex.ValueSet, sparkType+" columns")
	case !recommendable(f.Type):
		return "", ""
	}
	if n, ok := distinct[f.Name]; ok && n > 0 && n <= skipindex.DefaultValueSetLimit {
		return because(skipindex.ValueSet, fmt.Sprintf("low cardinality columns (about %d distinct values)", n))
	}
	switch f.Type.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64:
		return because(skipindex.MinMax, sparkType+" columns")
	}
	return because(skipindex.BloomFilter, sparkType+" columns")
}

// resumeSkippingIndexes starts the refresh of every skipping index with
// auto_refresh = true (covering indexes resume as views).
func (e *Engine) resumeSkippingIndexes(ctx context.Context) ([]string, error) {
	objs, err := e.catalog.Objects(flintIndexKind)
	if err != nil {
		return nil, fmt.Errorf("resuming skipping indexes: %w", err)
	}
	var started []string
	var errs []error
	for _, o := range objs {
		var spec flintIndexSpec
		if json.Unmarshal(o.Options, &spec) != nil || spec.Kind != kindSkipping || !spec.AutoRefresh {
			continue
		}
		if _, err := e.refreshSkipping(ctx, spec.Flint, spec); err != nil {
			errs = append(errs, fmt.Errorf("resuming skipping index %s: %w", spec.Flint, err))
			continue
		}
		started = append(started, "si_"+spec.Flint)
	}
	return started, errors.Join(errs...)
}
