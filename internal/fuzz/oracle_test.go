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

// TestSkippingOracleSeesLyingIndex: an index whose MIN_MAX claims every
// file holds only x = 100 skips the file with x = 1, and the skipping
// oracle must report it; the true index skips a file and agrees.
func TestSkippingOracleSeesLyingIndex(t *testing.T) {
	ctx := context.Background()
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	e := env{eng: eng, serial: eng}
	loc := t.TempDir() + "/"
	if err := createOn(ctx, eng, []string{
		"CREATE TABLE r (x INT, y STRING) USING json LOCATION '" + loc + "'",
		"INSERT INTO r VALUES (1, 'a'), (2, 'b')",
		"INSERT INTO r VALUES (3, 'c')",
	}); err != nil {
		t.Fatal(err)
	}
	for _, lie := range []bool{false, true} {
		name := map[bool]string{false: "r_true", true: "r_lie"}[lie]
		tw := &indexTwin{name: name, setup: []string{
			"CREATE TABLE " + name + " (x INT, y STRING) USING json LOCATION '" + loc + "'",
			"CREATE SKIPPING INDEX ON " + name + " (x MIN_MAX)",
		}}
		if lie {
			idx := "flint_spark_catalog_default_" + name + "_skipping_index"
			tw.setup = append(tw.setup, "INSERT INTO "+idx+" SELECT file_path, file_version, 'i:100', 'i:100' FROM "+idx)
		}
		tb := &Table{Name: "r", Cols: []Column{{"x", Int}, {"y", String}}, Part: -1, Index: tw}
		skips := indexSkips
		f := skippingCheck(tb, "SELECT * FROM r WHERE x = 1").run(ctx, e)
		switch {
		case f != nil && f.skipped != nil:
			t.Fatalf("%s: %v", name, f.skipped)
		case lie && f == nil:
			t.Errorf("a lying index was not noticed")
		case !lie && f != nil:
			t.Errorf("the true index diverged: %+v", f)
		case !lie && indexSkips != skips+1:
			t.Errorf("the true index skipped no file for x = 1")
		}
	}
}
