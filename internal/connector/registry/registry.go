// Package registry is the one list of connectors: what USING may name in
// CREATE TABLE, and how to open each. There is no init() registration:
// adding a connector means adding a line to the list below.
//
// It is its own package, not part of package connector, because it
// imports every connector and every connector imports package connector
// for Source, Sink and TableSpec.
//
//	f, err := registry.Lookup("json")
//	if err != nil { ... }   // unknown connector "jsn" (known: csv, json, parquet)
//	if err := registry.ValidateOptions("json", spec.Options); err != nil { ... }
//	src, err := f.NewSource(ctx, spec)
package registry

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/connector/console"
	"sluice/internal/connector/file"
	"sluice/internal/connector/index"
	"sluice/internal/connector/opensearch"
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
	return &connector.Factory{
		Name:        format,
		Kind:        connector.KindBoth,
		OptionKeys:  file.OptionKeys(format),
		Description: description,
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
	}
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
		Validate: opensearch.ValidateOptions,
		Drop:     opensearch.DropIndex,
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
		Validate: index.ValidateOptions,
		Drop:     index.Drop,
	}
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
	}
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
	return nil, fmt.Errorf("unknown connector %q (known: %s)", using, strings.Join(Names(), ", "))
}

// ValidateOptions checks a table's OPTIONS for connector using: an
// unknown key is an error listing the known ones; values are checked by
// the connector when it can.
func ValidateOptions(using string, opts map[string]string) error {
	f, err := Lookup(using)
	if err != nil {
		return err
	}
	if f.Validate != nil {
		return f.Validate(opts)
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		known := false
		for _, ok := range f.OptionKeys {
			if k == ok {
				known = true
				break
			}
		}
		if !known {
			return fmt.Errorf("unknown option %q for a %s table (known: %s)", k, f.Name, strings.Join(f.OptionKeys, ", "))
		}
	}
	return nil
}
