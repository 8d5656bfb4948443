package fuzz

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"sluice/internal/engine"
	"sluice/internal/testutil/integration"
)

var duckQueries = flag.Int("duckqueries", 0, "checks per seed in TestFuzzDuckDB (0: the CI slice)")

// duckSliceQueries is the CI slice's checks per seed: 26-65 checks/s on
// the shared two-core machine (DuckDB's side included), so the two seeds
// add 12-30 s.
const duckSliceQueries = 400

// startDuck starts DuckDB for a test: $SLUICE_DUCKDB_PYTHON, else the
// interpreter scripts/duckdb.sh installs (a no-op once installed;
// scripts/test.sh installs it before the tests). Without it the test
// skips loudly, and fails in CI.
func startDuck(t *testing.T) *Duck {
	t.Helper()
	python := os.Getenv("SLUICE_DUCKDB_PYTHON")
	if python == "" {
		var err error
		if python, err = installDuck(); err != nil {
			integration.Unavailable(t, "DUCKDB UNAVAILABLE: %v", err)
		}
	}
	d, err := StartDuck(python)
	if err != nil {
		integration.Unavailable(t, "DUCKDB UNAVAILABLE: %s: %v", python, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func installDuck() (string, error) { return integration.RunScript("duckdb.sh", "install") }

// TestFuzzDuckDB runs the DuckDB oracle for a fixed seed and one random
// seed (logged; FUZZ_SEED=n replays one), failing on any divergence.
//
//	go test ./internal/fuzz -run TestFuzzDuckDB -v -args -duckqueries 20000
func TestFuzzDuckDB(t *testing.T) {
	duck := startDuck(t)
	n := duckSliceQueries
	if *duckQueries > 0 {
		n = *duckQueries
	}
	seeds := sliceSeeds(t)
	for _, seed := range seeds {
		t.Logf("seed %d (replay: FUZZ_SEED=%d go test ./internal/fuzz -run TestFuzzDuckDB)", seed, seed)
		start := time.Now()
		divs, st, err := Run(context.Background(), Config{Seed: seed, Queries: n, Dir: t.TempDir(), Duck: duck})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		t.Logf("seed %d: %d checks (%d queries, both engines) on %d tables (%d skipped) in %v, %.1f checks/s, %.1f queries/s, %d divergences",
			seed, st.Checks, st.Queries, st.Tables, st.Skipped, el.Round(time.Millisecond),
			float64(st.Checks)/el.Seconds(), float64(st.Queries)/el.Seconds(), len(divs))
		if testing.Verbose() {
			for reason, n := range st.SkipReasons {
				t.Logf("skipped %d: %s", n, reason)
			}
		}
		logOneSided(t, st)
		for i, d := range divs {
			if i >= 5 {
				// The rest one a line, to see their shapes.
				t.Errorf("also: %.300s", d.Query1)
				continue
			}
			t.Error(d.String())
		}
	}
}

// TestDuckDBOracleSeesWrongAnswers: a DuckDB side that asks another
// question (an injected difference) must be reported, the same question
// must not, and DuckDB must read each format Sluice writes as Sluice
// reads it.
func TestDuckDBOracleSeesWrongAnswers(t *testing.T) {
	ctx := context.Background()
	duck := startDuck(t)
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	e := env{eng: eng, serial: eng, duck: duck}
	dir := t.TempDir()
	for _, format := range []string{"json", "csv", "parquet"} {
		for _, part := range []int{-1, 2} {
			tb := &Table{Name: fmt.Sprintf("w_%s_%d", format, part+1), Format: format, Part: part,
				Cols: []Column{{"x", Int}, {"d", Double}, {"s", String}, {"ts", Timestamp}}}
			tb.Location = dir + "/" + tb.Name + "/"
			tb.Batches = [][][]string{{
				{"1", "CAST('NaN' AS DOUBLE)", "'a'", "TIMESTAMP '2026-11-30 12:00:00.5'"},
				{"2", "CAST('-0.0' AS DOUBLE)", "'line\\nbreak'", "NULL"},
				{"3", "CAST('-Infinity' AS DOUBLE)", "'p/q'", "TIMESTAMP '1969-12-31 23:59:59.999'"},
				{"NULL", "NULL", "NULL", "TIMESTAMP '1970-01-01 00:00:00'"},
			}, {
				{"4", "0.25", "'a\\\\b'", "NULL"},
				{"5", "1.0E10", "'q\"uote'", "NULL"},
				{"6", "NULL", "'x y'", "NULL"},
			}}
			if part < 0 {
				tb.Batches[1] = append(tb.Batches[1], []string{"7", "2.5", "''", "NULL"})
			}
			if err := createOn(ctx, eng, tb.Statements()); err != nil {
				t.Fatal(err)
			}
			if a := duck.query(duckView(tb)); a.err != nil {
				t.Fatal(a.err)
			}
			all := "SELECT x, d, s, ts FROM " + tb.Name
			if f := duckCheck(all, all).run(ctx, e); f != nil {
				t.Errorf("%s: the same rows diverged or failed: %+v", tb.Name, f)
			}
			q := "SELECT count(*) FROM " + tb.Name + " WHERE x > 1"
			if f := duckCheck(q, q).run(ctx, e); f != nil {
				t.Errorf("%s: the same query diverged: %+v", tb.Name, f)
			}
			f := duckCheck(q, strings.Replace(q, "> 1", "> 2", 1)).run(ctx, e)
			if f == nil || f.skipped != nil {
				t.Errorf("%s: an injected difference was not reported: %+v", tb.Name, f)
			}
		}
	}
}

// TestDeadDuckIsReported: a DuckDB process that died fails the check
// rather than skipping it (else every later check would pass unseen).
func TestDeadDuckIsReported(t *testing.T) {
	ctx := context.Background()
	duck := startDuck(t)
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	duck.Close()
	f := duckCheck("SELECT 1", "SELECT 1").run(ctx, env{eng: eng, serial: eng, duck: duck})
	if f == nil || f.skipped != nil {
		t.Fatalf("a dead DuckDB was not reported: %+v", f)
	}
}

// TestToDuck: literals are re-quoted with Spark's escapes decoded, and
// <=> spelled out.
func TestToDuck(t *testing.T) {
	for in, want := range map[string]string{
		`s = 'line\nbreak'`:     "s = 'line\nbreak'",
		`s = 'a\\b'`:            `s = 'a\b'`,
		`s = 'it\'s'`:           `s = 'it''s'`,
		`s = 'it''s'`:           `s = 'its'`,
		`s = 'a' 'b' AND x`:     `s = 'ab' AND x`,
		`s = '\d'`:              `s = 'd'`,
		`s LIKE '%\%'`:          `s LIKE '%\%'`,
		`(a <=> NULL) OR b`:     `(a  IS NOT DISTINCT FROM  NULL) OR b`,
		`s = '<=>'`:             `s = '<=>'`,
		`s = 'q"uote' AND x`:    `s = 'q"uote' AND x`,
		`(isnan(a.c0) AND (b))`: `(coalesce(isnan(a.c0), false) AND (b))`,
	} {
		if got := toDuck(in); got != want {
			t.Errorf("toDuck(%q) = %q, want %q", in, got, want)
		}
	}
}

// logOneSided logs the checks one engine failed and the other answered:
// not divergences (ANSI errors depend on evaluation order, literal casts
// differ), but each class is seen, and -v shows them whole.
func logOneSided(t *testing.T, st Stats) {
	t.Helper()
	for reason, n := range st.OneSided {
		t.Logf("one engine failed %d times: %s", n, reason)
	}
	if testing.Verbose() {
		for _, d := range st.OneSidedCases {
			t.Logf("one-sided error:\n%s", d.String())
		}
	}
}

// TestDuckDBOracleRecordsOneSidedErrors: a query only one engine fails
// is a skipped check that names that engine and keeps both answers.
func TestDuckDBOracleRecordsOneSidedErrors(t *testing.T) {
	ctx := context.Background()
	duck := startDuck(t)
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	e := env{eng: eng, serial: eng, duck: duck}
	for _, tc := range []struct{ q, dq, failed string }{
		{"SELECT x FROM no_such_table", "SELECT 1", "sluice"},
		{"SELECT 1", "SELECT x FROM no_such_table", "duckdb"},
		{"SELECT x FROM no_such_table", "SELECT x FROM no_such_table", ""},
	} {
		f := duckCheck(tc.q, tc.dq).run(ctx, e)
		if f == nil || f.skipped == nil || f.failed != tc.failed {
			t.Errorf("%s | %s: %+v, want a skip with failed %q", tc.q, tc.dq, f, tc.failed)
			continue
		}
		if tc.failed != "" && (f.query1 != tc.q || f.answer1 == "" || f.answer2 == "") {
			t.Errorf("%s | %s: %+v, want both queries and answers", tc.q, tc.dq, f)
		}
	}
}
