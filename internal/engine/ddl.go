package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/catalog"
	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/engine/sparkstmt"
	"sluice/internal/safepath"
	"sluice/internal/sql"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/suggest"
	"sluice/internal/types"
	"sluice/internal/usererr"
)

// createTable runs CREATE TABLE: validates options against the
// connector, infers the schema when no columns are given, and stores the
// table. CREATE TABLE ... AS SELECT then inserts the query's rows.
func (e *Engine) createTable(ctx context.Context, s *sql.CreateTable) (*Result, error) {
	if s.IfNotExists {
		if _, err := e.catalog.Table(s.Name); err == nil {
			return message("table %s already exists", s.Name), nil
		}
	}
	opts := map[string]string{}
	for _, o := range s.Options {
		opts[strings.ToLower(o.Key)] = o.Value.Value
	}
	location := s.Location
	using := strings.ToLower(s.Using)
	// Spark's OPTIONS (path '...') is LOCATION, for connectors that read
	// a location (the local index keeps its own path option).
	if p, ok := opts["path"]; ok && registry.NeedsLocation(using, p) {
		if location != "" && location != p {
			return nil, fmt.Errorf("CREATE TABLE %s: LOCATION and OPTIONS (path) differ", s.Name)
		}
		location = p
		delete(opts, "path")
	}
	if s.External && location == "" {
		return nil, usererr.Errorf(usererr.Invalid, "CREATE EXTERNAL TABLE %s: LOCATION (or OPTIONS (path ...)) is required", s.Name)
	}
	if using == "" {
		using = registry.GuessUsing(location)
		if using == "" {
			return nil, usererr.Errorf(usererr.Invalid, "CREATE TABLE %s: USING is required (json, csv, parquet, index, ...)", s.Name)
		}
	}
	spec := connector.TableSpec{Name: s.Name, Using: using, Location: storage.NormalizeLocation(location),
		Options: opts, PartitionBy: s.PartitionedBy}
	if err := checkName(s.Name); err != nil {
		return nil, fmt.Errorf("CREATE TABLE: table %w", err)
	}
	if err := e.session(ctx).restriction().CheckLocation("LOCATION", spec.Location); err != nil {
		return nil, fmt.Errorf("CREATE TABLE %s: %w", s.Name, err)
	}
	managed, err := registry.Prepare(&spec, e.env(ctx))
	if err != nil {
		return nil, fmt.Errorf("CREATE TABLE %s: %w", s.Name, err)
	}
	tbl := &catalog.Table{Spec: spec, Comment: s.Comment, Managed: managed, Created: e.now(),
		Properties: tblProperties(s.TblProperties)}
	switch {
	case len(s.Columns) > 0:
		fields := make([]arrow.Field, 0, len(s.Columns))
		seen := map[string]bool{}
		for _, c := range s.Columns {
			k := strings.ToLower(c.Name)
			if seen[k] {
				return nil, fmt.Errorf("CREATE TABLE %s: column %s is declared twice", s.Name, c.Name)
			}
			seen[k] = true
			fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type, Nullable: !c.NotNull})
			sparkstmt.SetColumnComment(tbl, c)
		}
		for _, p := range s.PartitionedBy {
			if !seen[strings.ToLower(p)] {
				fields = append(fields, arrow.Field{Name: p, Type: types.String, Nullable: true})
			}
		}
		if len(s.PartitionedBy) == 0 {
			// As in Spark, key=value folders are columns even when the
			// column list leaves them out.
			parts, extra := e.discoverPartitions(ctx, spec, seen)
			fields = append(fields, extra...)
			tbl.Spec.PartitionBy = parts
		}
		tbl.Spec.Schema = arrow.NewSchema(fields, nil)
	case s.As != nil:
		// CTAS: the query decides the columns.
		n, err := e.planQuery(e.queryContext(ctx), s.As)
		if err != nil {
			return nil, err
		}
		tbl.Spec.Schema = n.Schema()
	default:
		schema, parts, err := registry.Infer(ctx, spec, e.env(ctx))
		if err != nil && !errors.Is(err, connector.ErrNoSchema) {
			return nil, fmt.Errorf("CREATE TABLE %s: %w", s.Name, err)
		}
		tbl.Spec.Schema = schema
		if len(spec.PartitionBy) == 0 {
			tbl.Spec.PartitionBy = parts
		}
		tbl.Inferred = err == nil
		// A search table without columns grows with what is written to
		// it, whether it starts from an index mapping or from nothing.
		tbl.Dynamic = registry.DynamicSchema(spec.Using)
	}
	if s.Watermark != nil {
		if tbl.Spec.Schema.FieldIndices(s.Watermark.Column) == nil && !hasFieldFold(tbl.Spec.Schema, s.Watermark.Column) {
			var names []string
			if tbl.Spec.Schema != nil {
				for _, f := range tbl.Spec.Schema.Fields() {
					names = append(names, f.Name)
				}
			}
			return nil, usererr.Errorf(usererr.Invalid, "CREATE TABLE %s: WATERMARK FOR %s names no column%s", s.Name, s.Watermark.Column,
				watermarkColumnHint(s.Watermark.Column, names))
		}
		tbl.Watermark = &catalog.Watermark{Column: s.Watermark.Column, Expr: s.Watermark.Expr.String()}
	}
	if s.As != nil {
		// Pending until its rows are in: a kill -9 before then leaves the
		// table to be dropped at the next start (sweepPending).
		tbl.Pending = catalog.Owner()
	}
	if err := e.catalog.CreateTable(tbl, s.IfNotExists); err != nil {
		return nil, err
	}
	if s.As != nil {
		stream.DDLPoint("ddl-registered")
		ins := &sql.Insert{Table: s.Name, Query: s.As}
		r, err := e.insert(ctx, ins)
		if err == nil {
			stream.DDLPoint("ddl-written")
			err = e.catalog.CompleteTable(s.Name)
		}
		if err != nil {
			// A failed CTAS leaves no table behind (DDL is atomic).
			if uerr := e.forgetTable(ctx, tbl); uerr != nil {
				return nil, fmt.Errorf("%w (and undoing CREATE TABLE %s: %v)", err, s.Name, uerr)
			}
			return nil, err
		}
		return message("table %s created; %s", s.Name, r.Message), nil
	}
	return message("table %s created", s.Name), nil
}

// watermarkColumnHint says which column was probably meant, or which
// there are, since an inferred schema's names are not on screen.
func watermarkColumnHint(col string, names []string) string {
	if dym := suggest.DidYouMean(col, names); dym != "" {
		return dym
	}
	if len(names) == 0 {
		return " (the table has no columns yet)"
	}
	return " (columns: " + strings.Join(names, ", ") + ")"
}

// tblProperties keeps TBLPROPERTIES as written (keys keep their case, as
// Spark shows them).
func tblProperties(os sql.Options) map[string]string {
	if len(os) == 0 {
		return nil
	}
	m := make(map[string]string, len(os))
	for _, o := range os {
		m[o.Key] = o.Value.Value
	}
	return m
}

// discoverPartitions finds the partition folders under a declared
// table's location: their names, and fields (typed as inference types
// them) for the ones the column list left out. A location that cannot
// be sampled yet (no files) has none.
func (e *Engine) discoverPartitions(ctx context.Context, spec connector.TableSpec, declared map[string]bool) ([]string, []arrow.Field) {
	if spec.Location == "" || !registry.NeedsLocation(spec.Using, spec.Location) {
		return nil, nil
	}
	schema, parts, err := registry.Infer(ctx, spec, e.env(ctx))
	if err != nil || len(parts) == 0 {
		return nil, nil
	}
	var extra []arrow.Field
	for _, p := range parts {
		if declared[strings.ToLower(p)] {
			continue
		}
		for _, f := range schema.Fields() {
			if strings.EqualFold(f.Name, p) {
				f.Nullable = true
				extra = append(extra, f)
			}
		}
	}
	return parts, extra
}

func hasFieldFold(s *arrow.Schema, name string) bool {
	for _, f := range s.Fields() {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// dropTable forgets a table; a managed table's data goes with it, an
// external table's stays where it is.
func (e *Engine) dropTable(ctx context.Context, s *sql.DropTable) (*Result, error) {
	t, err := e.catalog.Table(s.Name)
	if err != nil {
		if s.IfExists && errors.Is(err, catalog.ErrNotFound) {
			return message("no table %s: nothing dropped", s.Name), nil
		}
		return nil, err
	}
	if _, err := e.catalog.Object("mview", t.Spec.Name); err == nil {
		return nil, fmt.Errorf("DROP TABLE %s: it is a materialized view; use DROP MATERIALIZED VIEW", t.Spec.Name)
	}
	if err := e.flint().DropTableIndexes(ctx, t.Spec.Name); err != nil {
		return nil, fmt.Errorf("DROP TABLE %s: %w", t.Spec.Name, err)
	}
	if err := e.forgetTable(ctx, t); err != nil {
		return nil, fmt.Errorf("DROP TABLE %s: %w", t.Spec.Name, err)
	}
	return message("table %s dropped", t.Spec.Name), nil
}

// forgetTable removes a table's data when Sluice manages it, then the
// table from the catalog. Data is removed first: when that fails the
// table is still there to drop again.
func (e *Engine) forgetTable(ctx context.Context, t *catalog.Table) error {
	if e.isManaged(t) {
		if err := registry.Drop(ctx, t.Spec); err != nil {
			return err
		}
	}
	return e.catalog.DropTable(t.Spec.Name, true)
}

// isManaged reports whether DROP removes the table's data. Catalogs
// written before tables recorded it count a table whose path lies in the
// data dir's indexes/ folder as managed: only Sluice puts data there.
func (e *Engine) isManaged(t *catalog.Table) bool {
	if t.Managed {
		return true
	}
	p := t.Spec.Options["path"]
	return p != "" && e.opts.DataDir != "" && safepath.Within(filepath.Join(e.opts.DataDir, "indexes"), p)
}
