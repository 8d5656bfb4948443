package fuzz

import (
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sluice/internal/engine"
)

var queries = flag.Int("queries", 0, "checks per seed in TestFuzzSlice (0: the CI slice)")

// sliceQueries is the CI slice's checks per seed, sized to under a
// minute for the two seeds on a shared two-core machine (about 50
// checks/s there, tables and their twins included).
const sliceQueries = 1500

// TestFuzzSlice runs a fixed seed and one random seed (logged for
// replay; FUZZ_SEED=n replays one seed alone) and fails on any
// divergence, printing its reproduction.
//
//	go test ./internal/fuzz -run TestFuzzSlice -args -queries 100000
//	FUZZ_SEED=12345 go test ./internal/fuzz -run TestFuzzSlice -v
func TestFuzzSlice(t *testing.T) {
	n := sliceQueries
	if *queries > 0 {
		n = *queries
	}
	seeds := sliceSeeds(t)
	for _, seed := range seeds {
		t.Logf("seed %d (replay: FUZZ_SEED=%d go test ./internal/fuzz -run TestFuzzSlice)", seed, seed)
		start := time.Now()
		divs, st, err := Run(context.Background(), Config{Seed: seed, Queries: n, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		t.Logf("seed %d: %d checks (%d queries) on %d tables (%d skipped) in %v, %.1f checks/s, %.1f queries/s, %d divergences; %d of %d skipping-index checks skipped files",
			seed, st.Checks, st.Queries, st.Tables, st.Skipped, el.Round(time.Millisecond),
			float64(st.Checks)/el.Seconds(), float64(st.Queries)/el.Seconds(), len(divs), st.IndexSkipped, st.IndexChecks)
		if testing.Verbose() {
			for reason, n := range st.SkipReasons {
				t.Logf("skipped %d: %s", n, reason)
			}
		}
		for i, d := range divs {
			if i == 5 {
				t.Errorf("... and %d more", len(divs)-5)
				break
			}
			t.Error(d.String())
		}
	}
}

// TestDeterministic: one seed draws the same tables and checks.
func TestDeterministic(t *testing.T) {
	draw := func(seed uint64) []string {
		r := newRand(seed)
		var out []string
		for i := 0; i < 5; i++ {
			tb := genTable(r, "t", "/x")
			out = append(out, tb.Statements()...)
			for j := 0; j < 10; j++ {
				o := oracles[r.IntN(len(oracles))]
				out = append(out, o.draw(&exprGen{r: r, cols: tb.Cols}, tb).pred)
			}
		}
		return out
	}
	a, b := draw(3), draw(3)
	if !slices.Equal(a, b) {
		t.Fatal("seed 3 drew two different runs")
	}
	if slices.Equal(a, draw(4)) {
		t.Fatal("seeds 3 and 4 drew the same run")
	}
	if !strings.Contains(strings.Join(a, "\n"), "INSERT INTO") {
		t.Fatal("no INSERT drawn")
	}
}

// TestRenderSparkFloats: -0.0 and 0.0 render as one value, NaN as NaN.
func TestRenderSparkFloats(t *testing.T) {
	eng, err := engine.Open(engine.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a := query(context.Background(), eng, "SELECT CAST('-0.0' AS DOUBLE), CAST('NaN' AS DOUBLE), 0.1 + 0.2")
	if a.err != nil || len(a.rows) != 1 || a.rows[0] != "0.0 | NaN | 0.3" {
		t.Fatalf("got %v", a)
	}
}

// sliceSeeds are a slice's seeds: 1 and a random one (logged by the
// caller for replay), or FUZZ_SEED alone.
func sliceSeeds(t *testing.T) []uint64 {
	t.Helper()
	s := os.Getenv("FUZZ_SEED")
	if s == "" {
		return []uint64{1, rand.Uint64()}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("FUZZ_SEED=%q: %v", s, err)
	}
	return []uint64{v}
}
