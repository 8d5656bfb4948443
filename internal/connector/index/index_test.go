package index_test

import (
	"context"
	"path/filepath"
	"testing"

	"sluice/internal/connector"
	"sluice/internal/connector/index"
	"sluice/internal/connector/opensearch/suite"
)

// TestSuite runs the search-sink conformance suite (the one the
// OpenSearch connector passes on a real node) against the local index.
func TestSuite(t *testing.T) {
	dir := t.TempDir()
	suite.Run(t, suite.Target{
		Using: "index",
		Options: func(table string) map[string]string {
			return map[string]string{"path": filepath.Join(dir, table)}
		},
		NewSink: func(ctx context.Context, spec connector.TableSpec) (connector.Sink, error) {
			return index.NewSink(ctx, spec, connector.SinkOptions{})
		},
		NewSource: func(ctx context.Context, spec connector.TableSpec) (connector.Source, error) {
			return index.NewSource(ctx, spec)
		},
	})
}
