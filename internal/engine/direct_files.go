package engine

import (
	"context"
	"errors"
	"fmt"

	"sluice/internal/connector"
	"sluice/internal/connector/registry"
	"sluice/internal/plan"
	"sluice/internal/storage"
)

var _ plan.FileTables = tableResolver{}

// ResolveFiles opens files for FROM json.`path` (csv, parquet) as Spark
// reads them directly: a table of this query only, with the connector's
// default options and the session's SET s3.* settings, its schema (and
// key=value partition columns) inferred from the files. Nothing is stored.
// A restricted session (Session.RestrictData) reads only allowed
// locations this way.
func (r tableResolver) ResolveFiles(ctx context.Context, format, path string) (*plan.Table, error) {
	name := format + ".`" + path + "`"
	spec := connector.TableSpec{Name: name, Using: format, Location: storage.NormalizeLocation(path), Options: map[string]string{}}
	// Before anything opens the location: an s3:// path would be read
	// with the server's credentials.
	if err := r.e.session(ctx).restriction().CheckRead(name, spec.Location); err != nil {
		return nil, err
	}
	if _, err := registry.Prepare(&spec, r.e.env(ctx)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	schema, parts, err := registry.Infer(ctx, spec, r.e.env(ctx))
	if errors.Is(err, connector.ErrNoSchema) || (err == nil && schema.NumFields() == 0) {
		return nil, fmt.Errorf("%s: no files to read a schema from", name)
	}
	if err != nil {
		return nil, err // it names the table and the location
	}
	spec.Schema, spec.PartitionBy = schema, parts
	src, err := registry.OpenSource(ctx, spec, r.e.env(ctx), nil)
	if err != nil {
		return nil, err
	}
	return withHiddenColumns(&plan.Table{Name: name, Source: src}), nil
}
