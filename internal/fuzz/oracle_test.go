package fuzz

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"sluice/internal/engine"
)

// TestOraclesSeeWrongAnswers: a predicate that is not a function of the
// row (rand()) answers differently each time it is evaluated, so TLP and
// NoREC must report it, and report nothing for a deterministic one.
func TestOraclesSeeWrongAnswers(t *testing.T) {
	ctx := context.Background()
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	e := env{eng: eng, serial: eng}
	var vals []string
	for i := 0; i < 1000; i++ {
		vals = append(vals, fmt.Sprintf("(%d)", i))
	}
	for _, q := range []string{
		"CREATE TABLE r (x INT) USING json LOCATION '" + t.TempDir() + "/'",
		"INSERT INTO r VALUES " + strings.Join(vals, ", "),
	} {
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		mk   func(p string) check
	}{
		{"tlp-count", func(p string) check { return tlpCount("r", p) }},
		{"norec", func(p string) check { return noREC("r", p) }},
	} {
		if f := c.mk("x % 7 = 3 OR x IS NULL").run(ctx, e); f != nil {
			t.Errorf("%s: a deterministic predicate diverged: %+v", c.name, f)
		}
		caught := false
		for try := 0; try < 3 && !caught; try++ {
			f := c.mk("rand() < 0.5").run(ctx, e)
			if f != nil && f.skipped != nil {
				t.Fatalf("%s: %v", c.name, f.skipped)
			}
			caught = f != nil
		}
		if !caught {
			t.Errorf("%s: rand() < 0.5 never diverged in three tries", c.name)
		}
	}
}
