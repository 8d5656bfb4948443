package flint

import (
	"testing"

	"sluice/internal/job"
	"sluice/internal/skipindex"
)

// TestIndexDefinition: a skipping index is defined by the query its
// refresh reads; a covering index by its view's definition, named and
// kinded as the index.
func TestIndexDefinition(t *testing.T) {
	sk := indexSpec{Flint: "flint_x_skipping_index", Kind: kindSkipping, Table: "default.logs", IndexTable: "default.flint_x_skipping_index",
		Columns: []skipindex.Column{{Name: "status", Kind: "MIN_MAX"}}, Options: map[string]string{"auto_refresh": "true"}}
	d := sk.Definition(ViewSpec{})
	if d.Kind != job.Skipping || d.Sink != sk.IndexTable || d.Query != "SELECT _file AS file_path, status FROM default.logs" || d.Options["auto_refresh"] != "true" {
		t.Errorf("skipping: %+v", d)
	}
	cv := indexSpec{Flint: "flint_x_ix_index", Kind: kindCovering, Table: "default.logs", IndexTable: "default.flint_x_ix_index"}
	d = cv.Definition(ViewSpec{Query: "SELECT a FROM default.logs", Options: map[string]string{"index": "ix"}})
	if d.Kind != job.Covering || d.Name != "flint_x_ix_index" || d.Sink != cv.IndexTable || d.Query != "SELECT a FROM default.logs" || d.Options["index"] != "ix" {
		t.Errorf("covering: %+v", d)
	}
}
