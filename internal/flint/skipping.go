package flint

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
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// createSkippingIndex runs CREATE SKIPPING INDEX: the index table (the
// local index unless sink says otherwise, one row per file, id
// file_path), the definition, then a refresh: once to catch up, or, with
// auto_refresh, a stream that indexes each new file as it lands. DDL is
// atomic: an index whose first refresh fails before committing is
// removed again.
func (f *Flint) createSkippingIndex(ctx context.Context, s *sql.CreateSkippingIndex) (*Result, error) {
	t, err := f.h.Table(ctx, s.Table)
	if err != nil {
		return nil, fmt.Errorf("CREATE SKIPPING INDEX: %w", err)
	}
	fname := indexName(t, "")
	fail := func(err error) (*Result, error) {
		return nil, fmt.Errorf("CREATE SKIPPING INDEX ON %s: %w", t.Spec.Name, err)
	}
	if _, err := f.h.Catalog().Object(indexKind, flintObj(fname)); err == nil {
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
	src, err := registry.OpenSource(ctx, t.Spec, f.h.Env(ctx), nil)
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
		fd := sch.Field(i)
		if seen[strings.ToLower(fd.Name)] {
			return fail(fmt.Errorf("column %s is indexed twice", fd.Name))
		}
		seen[strings.ToLower(fd.Name)] = true
		if c.Kind == skipindex.Partition && !isPart[strings.ToLower(fd.Name)] {
			return fail(fmt.Errorf("column %s PARTITION: %s is not a partition column of %s", fd.Name, fd.Name, t.Spec.Name))
		}
		col, err := skipindex.NewColumn(fd.Name, c.Kind, c.Params, fd.Type)
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
	fac, err := registry.Lookup(sinkUsing)
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
	if err := job.Check(job.Skipping, own, "for a skipping index", registry.StreamOptionKeys(), fac.OptionKeys); err != nil {
		return fail(err)
	}
	for k, v := range own {
		isOwn := job.Takes(job.Skipping, k) || registry.IsStreamOption(k)
		if slices.Contains(fac.OptionKeys, k) && (!isOwn || k == "index_settings" || k == "index_mappings") {
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
		srcOpts, snk, err := f.extraOptions(ctx, extra, selectAll(t.Spec.Name))
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
	if slices.Contains(fac.OptionKeys, "id") {
		sinkOpts["id"] = skipindex.FileColumn
	}
	if slices.Contains(fac.OptionKeys, "index") && sinkOpts["index"] == "" {
		sinkOpts["index"] = fname // Flint's OpenSearch index name
	}
	if err := safepath.CheckName(fname); err != nil {
		return fail(fmt.Errorf("index %w", err))
	}
	db, _ := catalog.SplitStored(t.Spec.Name)
	idxTable := catalog.StoredName(db, fname)
	if _, err := f.h.Catalog().Table(idxTable); err == nil {
		return fail(fmt.Errorf("table %s already exists", idxTable))
	}
	sinkSpec := connector.TableSpec{Name: idxTable, Using: sinkUsing, Options: sinkOpts, Schema: skipindex.Schema(cols)}
	if _, err := registry.Prepare(&sinkSpec, f.h.Env(ctx)); err != nil {
		return fail(err)
	}
	cp := opts["checkpoint_location"]
	if cp == "" {
		if f.h.Env(ctx).DataDir == "" {
			return fail(fmt.Errorf("checkpoint_location is required without a data directory"))
		}
		if cp, err = safepath.Join(f.h.Env(ctx).DataDir, "checkpoints", "si_"+fname); err != nil {
			return fail(err)
		}
	}
	spec := indexSpec{Flint: fname, Kind: kindSkipping, Table: t.Spec.Name, IndexTable: idxTable, Columns: cols,
		AutoRefresh: auto, Interval: opts["refresh_interval"], Checkpoint: storage.NormalizeLocation(cp), Options: opts}
	tbl := &catalog.Table{Spec: sinkSpec, Comment: "skipping index on " + t.Spec.Name, Managed: true, Created: f.h.Now(), Pending: catalog.Owner()}
	if err := f.h.Catalog().CreateTable(tbl, false); err != nil {
		return fail(err)
	}
	raw, _ := json.Marshal(spec)
	// Pending until this statement returns, as a view is (SweepPending).
	if err := f.h.Catalog().PutObject(&catalog.Object{Kind: indexKind, Name: flintObj(fname), SQL: s.String(), Options: raw, Created: f.h.Now(), Pending: catalog.Owner()}, false); err != nil {
		_ = f.h.Catalog().DropTable(idxTable, true)
		return fail(err)
	}
	before := f.h.LastRun("si_" + fname)
	cpExisted := f.checkpointExists(ctx, spec.Checkpoint)
	r, err := f.refreshSkipping(ctx, fname, spec)
	if err != nil {
		if run := f.h.LastRun("si_" + fname); run == before || run.Status().Epochs == 0 {
			if uerr := f.removeSkipping(ctx, fname, spec, false, !cpExisted); uerr != nil {
				return nil, fmt.Errorf("%w (and undoing CREATE SKIPPING INDEX %s: %v)", err, fname, uerr)
			}
		}
		return fail(err)
	}
	if err := f.completeObject(indexKind, flintObj(fname), idxTable); err != nil {
		return fail(err)
	}
	return message("skipping index %s created; %s", fname, r.Message), nil
}

// refreshSkipping runs the index's stream: SELECT _file, the indexed
// columns FROM the table, folded per file into the index table. Without
// auto_refresh it is one catch-up (the files new since the checkpoint);
// with it, a stream triggered every refresh_interval.
func (f *Flint) refreshSkipping(ctx context.Context, name string, spec indexSpec) (*Result, error) {
	t, err := f.h.Catalog().Table(spec.Table)
	if err != nil {
		return nil, fmt.Errorf("skipping index %s: %w", name, err)
	}
	var colTypes []arrow.DataType
	for _, c := range spec.Columns {
		i := fieldFold(t.Spec.Schema, c.Name)
		if i < 0 {
			return nil, fmt.Errorf("skipping index %s: table %s has no column %s any more", name, t.Spec.Name, c.Name)
		}
		colTypes = append(colTypes, t.Spec.Schema.Field(i).Type)
	}
	q := skippingQuery(t.Spec.Name, spec.Columns)
	src, err := registry.OpenSource(ctx, t.Spec, f.h.Env(ctx), nil)
	if err != nil {
		return nil, fmt.Errorf("skipping index %s: %w", name, err)
	}
	fs, ok := src.(connector.FileSkipper)
	if !ok {
		return nil, fmt.Errorf("skipping index %s: table %s is not a file table", name, t.Spec.Name)
	}
	in := skipindex.InputSchema(spec.Columns, colTypes)
	cols := spec.Columns
	st := Stream{Name: "si_" + name, Table: spec.IndexTable, Query: q, Trigger: refreshTrigger(spec.AutoRefresh, spec.Interval), Checkpoint: spec.Checkpoint,
		Options: streamOptions(spec.Options),
		Wrap: &SinkWrap{Schema: in, Wrap: func(inner connector.Sink) connector.Sink {
			return skipindex.NewSink(cols, in, inner, fs.FileVersion)
		}}}
	return f.refresh(ctx, st, spec.AutoRefresh)
}

// skippingQuery is what a skipping index's refresh reads: each row's
// file and the indexed columns.
func skippingQuery(table string, cols []skipindex.Column) *sql.Query {
	items := []*sql.SelectItem{sql.Alias(sql.Col(connector.FileColumn), skipindex.FileColumn)}
	for _, c := range cols {
		items = append(items, sql.Item(sql.Col(c.Name)))
	}
	return sql.NewQuery(sql.NewSelect(sql.TableRef(table), items...))
}

// selectAll is SELECT * FROM table.
func selectAll(table string) *sql.Query {
	return sql.NewQuery(sql.NewSelect(sql.TableRef(table), sql.AllColumns()))
}

// FileSkipping reads the skipping index of a table (stored name), nil
// when it has none or it cannot be read (the Host is warned): then no
// file is skipped. The engine's table resolver hands it to a file
// table's source (connector.FileSkipper) as it binds the table.
func (f *Flint) FileSkipping(ctx context.Context, table string) *connector.FileSkipping {
	_, spec, err := f.indexDef(flintName(table, "skipping_index"))
	if err != nil || spec.Kind != kindSkipping {
		return nil
	}
	batches, err := f.h.Select(ctx, selectAll(spec.IndexTable))
	if err != nil {
		f.h.Warn(fmt.Sprintf("skipping index on %s not used: %v", table, err))
		return nil
	}
	fs := &connector.FileSkipping{}
	if err := skipindex.Decode(spec.Columns, batches, fs); err != nil {
		return nil
	}
	return fs
}

// ResumeSkippingIndexes starts the refresh of every skipping index with
// auto_refresh = true (covering indexes resume as views).
func (f *Flint) ResumeSkippingIndexes(ctx context.Context) ([]string, error) {
	objs, err := f.h.Catalog().Objects(indexKind)
	if err != nil {
		return nil, fmt.Errorf("resuming skipping indexes: %w", err)
	}
	var started []string
	var errs []error
	for _, o := range objs {
		var spec indexSpec
		if json.Unmarshal(o.Options, &spec) != nil || spec.Kind != kindSkipping || !spec.AutoRefresh {
			continue
		}
		if _, err := f.refreshSkipping(ctx, spec.Flint, spec); err != nil {
			errs = append(errs, fmt.Errorf("resuming skipping index %s: %w", spec.Flint, err))
			continue
		}
		started = append(started, "si_"+spec.Flint)
	}
	return started, errors.Join(errs...)
}

// removeSkipping deletes a skipping index's checkpoint (withCheckpoint),
// its data table and its catalog entries; strict as removeMView.
func (f *Flint) removeSkipping(ctx context.Context, name string, spec indexSpec, strict, withCheckpoint bool) error {
	var errs []error
	fail := func(err error) bool {
		errs = append(errs, err)
		return strict
	}
	if withCheckpoint && spec.Checkpoint != "" {
		if store, prefix, err := f.h.ResolveCheckpoint(ctx, spec.Checkpoint); err != nil {
			if fail(fmt.Errorf("checkpoint %s: %w", spec.Checkpoint, err)) {
				return errors.Join(errs...)
			}
		} else if err := stream.RemoveCheckpoint(ctx, &stream.Checkpoint{Store: store, Prefix: prefix}); err != nil {
			if fail(err) {
				return errors.Join(errs...)
			}
		}
	}
	if t, err := f.h.Catalog().Table(spec.IndexTable); err == nil {
		if err := f.h.DropTable(ctx, t); err != nil {
			if fail(err) {
				return errors.Join(errs...)
			}
			_ = f.h.Catalog().DropTable(spec.IndexTable, true)
		}
	}
	_ = f.h.Catalog().DropObject("stream", "si_"+name, true)
	if err := f.h.Catalog().DropObject(indexKind, flintObj(name), true); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
