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

func TestDefaultPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SLUICE_DATA_DIR", dir)
	o, err := index.ParseOptions(connector.TableSpec{Name: "Hot", Options: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "indexes", "hot"); o.Path != want {
		t.Errorf("path %s, want %s", o.Path, want)
	}
	if err := index.ValidateOptions(map[string]string{"bogus": "1"}); err == nil {
		t.Error("unknown option accepted")
	}
}
