package sql

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sluice/internal/types"
)

// canonical prints a script in canonical form.
func canonical(stmts []Statement) string {
	out := make([]string, len(stmts))
	for i, s := range stmts {
		out[i] = s.String()
	}
	return strings.Join(out, ";\n")
}

// FuzzParse checks that Parse never panics and that whenever it succeeds
// its canonical output parses again and prints identically; likewise for
// ParseExpr and ParseType. SplitStatements must not panic either.
// Seeds live in testdata/fuzz/FuzzParse; run with
//
//	go test -fuzz=FuzzParse ./internal/sql
func FuzzParse(f *testing.F) {
	for _, tc := range roundTrips {
		f.Add(tc.in)
	}
	for _, tc := range errorCases {
		f.Add(tc.in)
	}
	for _, tc := range sparkSyntax {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		SplitStatements(in)
		stmts, err := Parse(in)
		if err == nil {
			first := canonical(stmts)
			again, err := Parse(first)
			if err != nil {
				t.Fatalf("canonical form does not parse:\n%s\n%v", first, err)
			}
			if second := canonical(again); second != first {
				t.Fatalf("canonical form is not stable:\n%s\n%s", first, second)
			}
		}
		if e, err := ParseExpr(in); err == nil {
			first := e.String()
			e2, err := ParseExpr(first)
			if err != nil {
				t.Fatalf("canonical expression does not parse:\n%s\n%v", first, err)
			}
			if second := e2.String(); second != first {
				t.Fatalf("canonical expression is not stable:\n%s\n%s", first, second)
			}
		}
		if typ, err := ParseType(in); err == nil {
			name := types.SQLName(typ)
			typ2, err := ParseType(name)
			if err != nil {
				t.Fatalf("type %s does not parse: %v", name, err)
			}
			if types.SQLName(typ2) != name {
				t.Fatalf("type %s printed as %s", name, types.SQLName(typ2))
			}
		}
	})
}

// TestWriteFuzzSeeds regenerates the checked-in seed corpus when
// SLUICE_WRITE_SEEDS=1; otherwise it checks the corpus is there.
func TestWriteFuzzSeeds(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParse")
	if os.Getenv("SLUICE_WRITE_SEEDS") != "1" {
		ents, err := os.ReadDir(dir)
		if err != nil || len(ents) < 30 {
			t.Fatalf("want at least 30 seeds in %s, have %d (%v)", dir, len(ents), err)
		}
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var seeds []string
	for _, tc := range roundTrips {
		seeds = append(seeds, tc.in)
	}
	for _, tc := range errorCases {
		seeds = append(seeds, tc.in)
	}
	for i, s := range seeds {
		body := fmt.Sprintf("go test fuzz v1\nstring(%q)\n", s)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%03d", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
