// Package registry is the one list of connectors: what USING may name in
// CREATE TABLE, and how to open each. There is no init() registration:
// adding a connector means adding a line to the list below.
//
// It is also where the rules that hold for every connector live, so that
// the engine never needs to know one connector from another: option keys
// are checked here once (an unknown key gets the closest known one as a
// suggestion), defaults from the data dir and session settings are
// applied here through each Factory, and nothing else reads
// SLUICE_DATA_DIR.
//
// It is its own package, not part of package connector, because it
// imports every connector and every connector imports package connector
// for Source, Sink and TableSpec.
//
//	spec := connector.TableSpec{Name: "logs", Using: "json", Location: "/data/logs/",
//		Options: map[string]string{"compresion": "gzip"}}
//	_, err := registry.Prepare(&spec, env)
//	// unknown option "compresion" for a json table; did you mean "compression"?
//	src, err := registry.OpenSource(ctx, spec, env, nil)
package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/console"
	"sluice/internal/connector/file"
	"sluice/internal/connector/index"
	"sluice/internal/connector/opensearch"
	"sluice/internal/safepath"
	"sluice/internal/storage"
	"sluice/internal/usererr"
)

// factories lists every connector, in the order SHOW prints them.
var factories = []*connector.Factory{
	fileFactory("json", "newline-delimited JSON files (optionally compressed) on local disk or S3"),
	fileFactory("csv", "CSV files (optionally compressed) on local disk or S3"),
	fileFactory("parquet", "Parquet files on local disk or S3, with row-group pruning"),
	opensearchFactory(),
	indexFactory(),
	consoleFactory(),
}

// fileFactory describes the file connector for one format.
func fileFactory(format, description string) *connector.Factory {
	keys := file.OptionKeys(format)
	// Store options are also taken with an s3. prefix, as SET spells them.
	for _, k := range storage.OptionKeys() {
		keys = append(keys, "s3."+k)
	}
	sort.Strings(keys)
	return &connector.Factory{
		Name:             format,
		Kind:             connector.KindBoth,
		OptionKeys:       keys,
		StreamOptionKeys: file.StreamOptionKeys,
		NeedsLocation:    true,
		Description:      description,
		NewSource: func(ctx context.Context, spec connector.TableSpec) (connector.Source, error) {
			return file.NewSource(ctx, spec)
		},
		NewSink: func(ctx context.Context, spec connector.TableSpec, opts connector.SinkOptions) (connector.Sink, error) {
			return file.NewSink(ctx, spec, opts)
		},
		Infer: func(ctx context.Context, spec connector.TableSpec) (*arrow.Schema, []string, error) {
			return file.Infer(ctx, spec)
		},
		Validate: func(opts map[string]string) error { return file.ValidateOptions(format, opts) },
		Defaults: fileDefaults,
		Drop:     file.Drop,
		Session:  s3Session,
		Normalize: func(opts map[string]string) (map[string]string, error) {
			return file.NormalizeSparkOptions(format, opts)
		},
		Conformance: fileCapabilities(format),
	}
}

// allKinds are every type kind the conformance suite knows.
var allKinds = []string{"BOOLEAN", "INT", "BIGINT", "DOUBLE", "DECIMAL", "STRING", "BINARY", "DATE", "TIMESTAMP", "ARRAY", "MAP", "STRUCT"}

// jsonKinds are what goes through JSON text and back: all but BINARY,
// which the JSON writer encodes as base64 but the JSON reader refuses
// ("type binary is not supported by the JSON reader", internal/format).
var jsonKinds = without(allKinds, "BINARY")

// without is kinds minus some.
func without(kinds []string, drop ...string) []string {
	var out []string
	for _, k := range kinds {
		if !slices.Contains(drop, k) {
			out = append(out, k)
		}
	}
	return out
}

// fileCapabilities declares what each file format round-trips.
func fileCapabilities(format string) *connector.Capabilities {
	// Parquet keeps its schema in the file: inference gives it back.
	c := &connector.Capabilities{ReadBack: true, Types: allKinds, ReplaySafe: true, Inferred: map[string]string{}}
	switch format {
	case "json":
		c.Types = jsonKinds
		// JSON numbers and strings say less than the columns did: every
		// integer is a BIGINT, a decimal a DOUBLE, a date string a
		// TIMESTAMP, and an object with data keys (a MAP) a STRUCT of
		// the keys seen.
		c.Inferred = map[string]string{"INT": "BIGINT", "DECIMAL": "DOUBLE", "DATE": "TIMESTAMP", "MAP": ""}
	case "csv":
		// CSV has no nested types; BINARY as for JSON (the CSV reader
		// refuses it).
		c.Types = without(allKinds, "ARRAY", "MAP", "STRUCT", "BINARY")
		// Inference reads the text: a decimal is a DOUBLE, a date a
		// TIMESTAMP; without a header row it cannot name the columns.
		c.Inferred = map[string]string{"DECIMAL": "DOUBLE", "DATE": "TIMESTAMP"}
		c.TableOptions = map[string]string{"header": "true"}
	}
	return c
}

// s3Session gives a file table the session's s3.* settings (and
// split_size) as defaults: only file tables, so that an OpenSearch table
// never picks up s3.endpoint.
func s3Session(spec connector.TableSpec, env connector.Env) connector.TableSpec {
	if len(env.Settings) == 0 {
		return spec
	}
	opts := make(map[string]string, len(spec.Options))
	for k, v := range spec.Options {
		opts[k] = v
	}
	for k, v := range env.Settings {
		if rest, ok := strings.CutPrefix(k, "s3."); ok {
			if _, set := opts[rest]; !set {
				opts[rest] = v
			}
		}
	}
	// SET split_size: the part size of large files, unless the table
	// sets its own.
	if v, ok := env.Settings["split_size"]; ok {
		if _, set := opts["split_size"]; !set {
			opts["split_size"] = v
		}
	}
	spec.Options = opts
	return spec
}

// opensearchFactory describes USING opensearch.
func opensearchFactory() *connector.Factory {
	return &connector.Factory{
		Name:        "opensearch",
		Kind:        connector.KindBoth,
		OptionKeys:  opensearch.OptionKeys(),
		Description: "an OpenSearch index (or date-pattern indices): bulk writes, reads with query pushdown",
		NewSource: func(ctx context.Context, spec connector.TableSpec) (connector.Source, error) {
			return opensearch.NewSource(ctx, spec)
		},
		NewSink: func(ctx context.Context, spec connector.TableSpec, opts connector.SinkOptions) (connector.Sink, error) {
			return opensearch.NewSink(ctx, spec, opts)
		},
		Validate:      opensearch.ValidateOptions,
		Infer:         opensearch.Infer,
		DynamicSchema: true,
		Drop:          opensearch.DropIndex,
		SameData:      opensearch.SameIndex,
		// Documents are JSON: what JSON round-trips.
		Conformance: &connector.Capabilities{ReadBack: true, Types: jsonKinds, ReplaySafe: true, Search: true,
			Skip: map[string]string{
				// OpenSearch computes min and max of a long field as a
				// double: a BIGINT beyond 2^53 comes back rounded, and
				// MaxInt64 overflows.
				"pushdown/aggregate/*/min(c_bigint)": "min of BIGINT is a double in OpenSearch (exact only within 2^53)",
				"pushdown/aggregate/*/max(c_bigint)": "max of BIGINT is a double in OpenSearch (exact only within 2^53)",
			}},
	}
}

// indexFactory describes USING index, the embedded local index.
func indexFactory() *connector.Factory {
	return &connector.Factory{
		Name:        "index",
		Kind:        connector.KindBoth,
		OptionKeys:  index.OptionKeys(),
		Description: "the embedded local search index (Bleve) in the data directory: the default sink",
		NewSource: func(ctx context.Context, spec connector.TableSpec) (connector.Source, error) {
			return index.NewSource(ctx, spec)
		},
		NewSink: func(ctx context.Context, spec connector.TableSpec, opts connector.SinkOptions) (connector.Sink, error) {
			return index.NewSink(ctx, spec, opts)
		},
		Validate:      index.ValidateOptions,
		DynamicSchema: true,
		Defaults:      indexDefaults,
		Drop:          index.Drop,
		SameData:      index.SamePath,
		// Rows are kept as JSON in each document: what JSON round-trips.
		Conformance: &connector.Capabilities{ReadBack: true, Types: jsonKinds, ReplaySafe: true, Search: true,
			DropKeepsForeign: true,
			Skip: map[string]string{
				// Bleve indexes datetimes as int64 nanoseconds: a value
				// outside 1677-09-21..2262-04-11 is kept in the row but
				// not indexed, so a pushed range that should match it
				// misses it.
				"pushdown/filter/*c_date*":      "dates outside Bleve's datetime range are not indexed",
				"pushdown/filter/*c_timestamp*": "timestamps outside Bleve's datetime range are not indexed",
			}},
	}
}

// indexDefaults puts an index without a path in the data dir, under
// indexes/<table>: Sluice chose the place, so the table is managed.
func indexDefaults(spec *connector.TableSpec, env connector.Env) (bool, error) {
	if spec.Options["path"] != "" {
		return false, nil
	}
	p, err := safepath.Join(DataDir(env), "indexes", strings.ToLower(spec.Name))
	if err != nil {
		return false, err
	}
	opts := make(map[string]string, len(spec.Options)+1)
	for k, v := range spec.Options {
		opts[k] = v
	}
	opts["path"] = p
	spec.Options = opts
	return true, nil
}

// fileDefaults puts a file table declared without a location in the data
// dir, under tables/<table>, as Spark puts a managed table in its
// warehouse: Sluice chose the place, so DROP removes the files. The folder
// is made now, so the table reads as empty rather than missing.
func fileDefaults(spec *connector.TableSpec, env connector.Env) (bool, error) {
	if spec.Location != "" {
		return false, nil
	}
	p, err := safepath.Join(DataDir(env), "tables", strings.ToLower(spec.Name))
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return false, fmt.Errorf("making the table's folder: %w", err)
	}
	spec.Location = p + string(filepath.Separator)
	return true, nil
}

// consoleFactory describes USING console.
func consoleFactory() *connector.Factory {
	return &connector.Factory{
		Name:        "console",
		Kind:        connector.KindSink,
		OptionKeys:  console.OptionKeys(),
		Description: "prints rows as JSON lines on standard output as they are written (demos)",
		NewSink: func(ctx context.Context, spec connector.TableSpec, opts connector.SinkOptions) (connector.Sink, error) {
			return console.NewSink(ctx, spec, opts)
		},
		// It prints: nothing can be read back.
		Conformance: &connector.Capabilities{Types: allKinds},
	}
}

// DataDir is env's data dir, else $SLUICE_DATA_DIR, else ./sluice-data
// (absolute): the one place the environment variable is read.
func DataDir(env connector.Env) string {
	dir := env.DataDir
	if dir == "" {
		dir = os.Getenv("SLUICE_DATA_DIR")
	}
	if dir == "" {
		dir = "sluice-data"
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// Names returns the connector names, sorted.
func Names() []string {
	out := make([]string, len(factories))
	for i, f := range factories {
		out[i] = f.Name
	}
	sort.Strings(out)
	return out
}

// All returns the connectors in list order (for SHOW CONNECTORS).
func All() []*connector.Factory { return append([]*connector.Factory(nil), factories...) }

// Lookup finds the connector USING names, case-insensitively.
func Lookup(using string) (*connector.Factory, error) {
	name := strings.ToLower(strings.TrimSpace(using))
	for _, f := range factories {
		if f.Name == name {
			return f, nil
		}
	}
	if s := closest(name, Names()); s != "" {
		return nil, usererr.Errorf(usererr.Invalid, "unknown connector %q; did you mean %q? (known: %s)", using, s, strings.Join(Names(), ", "))
	}
	return nil, usererr.Errorf(usererr.Invalid, "unknown connector %q (known: %s)", using, strings.Join(Names(), ", "))
}

// StreamOptionKeys lists every key some connector lets a stream set for
// itself, sorted: what INSERT STREAM ... WITH accepts besides its own.
func StreamOptionKeys() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range factories {
		for _, k := range f.StreamOptionKeys {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// IsStreamOption reports whether some connector lets a stream set key.
func IsStreamOption(key string) bool {
	for _, k := range StreamOptionKeys() {
		if k == key {
			return true
		}
	}
	return false
}

// ValidateOptions checks a table's OPTIONS for connector using: an
// unknown key is an error naming the closest known one; values are
// checked by the connector.
func ValidateOptions(using string, opts map[string]string) error {
	f, err := Lookup(using)
	if err != nil {
		return err
	}
	return ValidateFactory(f, opts)
}

// ValidateFactory is ValidateOptions for a connector given by its
// Factory, listed or not (the conformance suite checks connectors under
// test with it, through the same rules).
func ValidateFactory(f *connector.Factory, opts map[string]string) error {
	if err := CheckKeys(opts, "for a "+f.Name+" table", f.OptionKeys); err != nil {
		return err
	}
	if f.Validate != nil {
		// Validate checks values only: whatever it refuses, the user wrote.
		return usererr.Wrap(usererr.Invalid, f.Validate(opts))
	}
	return nil
}

// Prepare checks a new table's spec and fills in the connector's
// defaults, for CREATE TABLE; managed reports that DROP removes the data.
func Prepare(spec *connector.TableSpec, env connector.Env) (managed bool, err error) {
	f, err := Lookup(spec.Using)
	if err != nil {
		return false, err
	}
	return PrepareFactory(f, spec, env)
}

// PrepareFactory is Prepare for a connector given by its Factory.
func PrepareFactory(f *connector.Factory, spec *connector.TableSpec, env connector.Env) (managed bool, err error) {
	spec.Using = f.Name
	if spec.Options, err = NormalizeOptions(f, spec.Options); err != nil {
		return false, err
	}
	if err := ValidateFactory(f, spec.Options); err != nil {
		return false, err
	}
	if f.Defaults != nil {
		if managed, err = f.Defaults(spec, env); err != nil {
			return false, err
		}
	}
	if f.NeedsLocation && spec.Location == "" {
		return false, usererr.Errorf(usererr.Invalid, "USING %s needs a LOCATION", f.Name)
	}
	return managed, nil
}

// NormalizeOptions applies the connector's Normalize (Spark's option
// names to its own) to opts.
func NormalizeOptions(f *connector.Factory, opts map[string]string) (map[string]string, error) {
	if f.Normalize == nil || len(opts) == 0 {
		return opts, nil
	}
	out, err := f.Normalize(opts)
	return out, usererr.Wrap(usererr.Invalid, err)
}

// withSession applies the connector's session rule to spec.
func withSession(f *connector.Factory, spec connector.TableSpec, env connector.Env) connector.TableSpec {
	if f.Session == nil {
		return spec
	}
	return f.Session(spec, env)
}

// OpenSource opens a table for reading, with the session's settings and
// a stream's own overrides of the keys the connector lets a stream set
// (other keys in overrides are not the connector's and are ignored).
func OpenSource(ctx context.Context, spec connector.TableSpec, env connector.Env, overrides map[string]string) (connector.Source, error) {
	f, err := Lookup(spec.Using)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	if f.NewSource == nil {
		return nil, fmt.Errorf("table %s (USING %s) cannot be read", spec.Name, f.Name)
	}
	spec = withSession(f, spec, env)
	if len(overrides) > 0 && len(f.StreamOptionKeys) > 0 {
		opts := make(map[string]string, len(spec.Options))
		for k, v := range spec.Options {
			opts[k] = v
		}
		for _, k := range f.StreamOptionKeys {
			if v, ok := overrides[k]; ok {
				opts[k] = v
			}
		}
		spec.Options = opts
	}
	src, err := f.NewSource(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("opening table %s: %w", spec.Name, err)
	}
	return src, nil
}

// OpenSink opens a table for writing, with the session's settings.
func OpenSink(ctx context.Context, spec connector.TableSpec, env connector.Env, opts connector.SinkOptions) (connector.Sink, error) {
	f, err := Lookup(spec.Using)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", spec.Name, err)
	}
	if f.NewSink == nil {
		return nil, fmt.Errorf("table %s (USING %s) cannot be written", spec.Name, f.Name)
	}
	return f.NewSink(ctx, withSession(f, spec, env), opts)
}

// CanWrite reports whether tables of connector using can be written.
func CanWrite(using string) bool {
	f, err := Lookup(using)
	return err == nil && f.NewSink != nil
}

// Infer finds the schema of a table declared without columns.
func Infer(ctx context.Context, spec connector.TableSpec, env connector.Env) (*arrow.Schema, []string, error) {
	f, err := Lookup(spec.Using)
	if err != nil {
		return nil, nil, err
	}
	if f.Infer == nil {
		if f.DynamicSchema {
			return arrow.NewSchema(nil, nil), nil, connector.ErrNoSchema
		}
		return nil, nil, fmt.Errorf("USING %s needs a column list", f.Name)
	}
	schema, parts, err := f.Infer(ctx, withSession(f, spec, env))
	if errors.Is(err, connector.ErrNoSchema) && f.DynamicSchema {
		return arrow.NewSchema(nil, nil), nil, connector.ErrNoSchema
	}
	if err != nil {
		return nil, nil, fmt.Errorf("inferring schema: %w", err)
	}
	return schema, parts, nil
}

// DynamicSchema reports whether tables of connector using may be declared
// without columns and take them from what is written (Factory.DynamicSchema).
func DynamicSchema(using string) bool {
	f, err := Lookup(using)
	return err == nil && f.DynamicSchema
}

// Drop removes a managed table's data (see Factory.Drop).
func Drop(ctx context.Context, spec connector.TableSpec) error {
	f, err := Lookup(spec.Using)
	if err != nil {
		return err
	}
	if f.Drop == nil {
		return nil
	}
	return f.Drop(ctx, spec)
}

// NeedsLocation reports whether OPTIONS (path ...) is a table's
// location: for connectors that need one, and when USING is left out
// and the path tells the format.
func NeedsLocation(using, path string) bool {
	if using == "" {
		return GuessUsing(path) != ""
	}
	f, err := Lookup(using)
	return err == nil && f.NeedsLocation
}

// GuessUsing names the connector for a LOCATION from its file extension
// ("" when it does not tell).
func GuessUsing(location string) string { return file.FormatFromLocation(location) }
