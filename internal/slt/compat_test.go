package slt

import "testing"

// TestCompat runs testdata/compat/**/*.slt: the statements of Spark's and
// OpenSearch Flint's documentation, verbatim but for paths. A file whose
// statements need what Sluice does not build starts with a skip header
// saying why.
func TestCompat(t *testing.T) { runTree(t, "compat") }
