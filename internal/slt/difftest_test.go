package slt

import "testing"

// TestDiffTest runs testdata/difftest/*.slt: generated queries whose
// expected answers are DuckDB's (written by testdata/difftest/gen.py,
// outside CI), so Sluice is checked against a second engine without
// needing it at test time.
func TestDiffTest(t *testing.T) { runTree(t, "difftest") }
