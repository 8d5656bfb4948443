package file

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/format"
	"sluice/internal/storage"
	"sluice/internal/types"
)

// maxInferFiles bounds how many files schema inference opens; it reads
// sample_rows rows across them and stops early.
const maxInferFiles = 32

// Infer finds a file table's schema: the data columns from a sample of
// its files (sample_rows rows, default 1000, across up to 32 files) and
// the partition columns from the col=value folders of every listed file
// (typed INT, BIGINT, DATE or STRING). It returns the schema (data
// columns then partition columns) and the partition column names.
func Infer(ctx context.Context, spec connector.TableSpec) (*arrow.Schema, []string, error) {
	fmtName := strings.ToLower(spec.Using)
	if err := ValidateOptions(fmtName, spec.Options); err != nil {
		return nil, nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	loc, err := resolve(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	fopts, err := format.ParseOptions(fmtName, formatOptions(fmtName, spec.Options))
	if err != nil {
		return nil, nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	sopts, err := parseSourceOptions(spec.Options)
	if err != nil {
		return nil, nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	files, err := loc.list(ctx, &sopts, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	if len(files) == 0 {
		if ok, err := loc.exists(ctx); err == nil && !ok {
			return nil, nil, loc.missingError(spec.Name)
		}
		return nil, nil, fmt.Errorf("table %s: no files at %s to infer the schema from; declare the columns", spec.Name, loc.uri)
	}
	sample := make([]format.File, 0, min(len(files), maxInferFiles))
	for _, f := range files[:cap(sample)] {
		sample = append(sample, formatFile(loc.store, loc.keyURI(f.Key), f.Key, f.Size))
	}
	data, err := format.Infer(ctx, sample, fopts, sopts.SampleRows)
	if err != nil {
		return nil, nil, fmt.Errorf("table %s: inferring the schema: %w", spec.Name, err)
	}

	// Partition columns: declared names first, else every folder name in
	// first-seen order.
	var names []string
	values := map[string][]partSegment{}
	canon := map[string]string{} // lower-case -> first spelling
	if sopts.PartitionInference || len(spec.PartitionBy) > 0 {
		for _, f := range files {
			for _, seg := range f.parts {
				lc := strings.ToLower(seg.Name)
				if _, ok := canon[lc]; !ok {
					canon[lc] = seg.Name
					names = append(names, seg.Name)
				}
				values[lc] = append(values[lc], seg)
			}
		}
	}
	if len(spec.PartitionBy) > 0 {
		names = spec.PartitionBy
	}
	var fields []arrow.Field
	isPartName := map[string]bool{}
	for _, n := range names {
		isPartName[strings.ToLower(n)] = true
	}
	for _, f := range data.Fields() {
		if !sopts.InferSchema && fmtName == "csv" && f.Name != format.DefaultCorruptColumn {
			// Spark's inferSchema = false: every CSV column is a string.
			f.Type = types.String
		}
		// A folder value wins over a same-named field inside the files,
		// as in Spark.
		if !isPartName[strings.ToLower(f.Name)] {
			fields = append(fields, f)
		}
	}
	for _, n := range names {
		fields = append(fields, arrow.Field{Name: n, Type: inferPartitionType(values[strings.ToLower(n)]), Nullable: true})
	}
	if len(names) == 0 {
		names = nil
	}
	return arrow.NewSchema(fields, nil), names, nil
}

// formatFile describes one stored object, as listed, to a decoder: a
// read that ends short of the listed size, or that sees the file change
// under it, fails rather than returning part of a file as if it were
// all of it (storage.OpenChecked).
func formatFile(st storage.Store, uri, key string, size int64) format.File {
	return format.File{
		Name: uri,
		Size: size,
		Open: func(ctx context.Context) (io.ReadCloser, error) { return storage.OpenChecked(ctx, st, key, size) },
		ReaderAt: func(ctx context.Context) (io.ReaderAt, error) {
			return storage.ReaderAt(ctx, st, key, size), nil
		},
		OpenRange: func(ctx context.Context, off, n int64) (io.ReadCloser, error) {
			return storage.OpenRangeChecked(ctx, st, key, off, n, size)
		},
	}
}
