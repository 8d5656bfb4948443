package slt

import "testing"

// TestPPL runs testdata/ppl/**/*.slt: each PPL command's queries next
// to the SQL they must agree with.
func TestPPL(t *testing.T) { runTree(t, "ppl") }
