package fuzz

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"
)

var schedules = flag.Int("schedules", 0, "crash schedules in TestCrashSlice, split over its seeds (0: the CI slice)")

// sliceSchedules is the CI slice's crash schedules, half from each seed
// (about 15 s on the shared two-core machine).
const sliceSchedules = 40

func TestMain(m *testing.M) {
	if code, ok := CrashChild(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// TestCrashSlice runs crash schedules (crash.go) for a fixed seed and one
// random seed (logged; FUZZ_SEED=n replays one seed alone) and fails on
// any divergence.
//
//	go test ./internal/fuzz -run TestCrashSlice -v -args -schedules 1000
func TestCrashSlice(t *testing.T) {
	n := sliceSchedules
	if *schedules > 0 {
		n = *schedules
	}
	seeds := sliceSeeds(t)
	for _, seed := range seeds {
		t.Logf("seed %d (replay: FUZZ_SEED=%d go test ./internal/fuzz -run TestCrashSlice)", seed, seed)
		start := time.Now()
		divs, st, err := RunCrash(context.Background(), CrashConfig{Seed: seed, Schedules: n / len(seeds), Dir: t.TempDir(), Child: os.Args[0]})
		el := time.Since(start)
		t.Logf("seed %d: %d schedules (%d skipped, %d windowed), %d files, %d children, %d kills %v, %d sink rows (%d windows), in %v (%.1f schedules/s), %d divergences",
			seed, st.Schedules, st.Skipped, st.Windowed, st.Files, st.Children, st.Kills, st.KillsAt, st.Rows, st.WindowRows, el.Round(time.Millisecond),
			float64(st.Schedules)/el.Seconds(), len(divs))
		if err != nil {
			t.Fatal(err)
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

// TestCrashOracleCatchesDroppedFile: a stream that loses one file must
// be reported as a divergence (the oracle can fail).
func TestCrashOracleCatchesDroppedFile(t *testing.T) {
	for _, windowed := range []bool{false, true} {
		t.Run(map[bool]string{false: "any", true: "windowed"}[windowed], func(t *testing.T) {
			catchesDroppedFile(t, windowed)
		})
	}
}

func catchesDroppedFile(t *testing.T, windowed bool) {
	divs, st, err := RunCrash(context.Background(), CrashConfig{Seed: 5, Schedules: 6, Dir: t.TempDir(), Child: os.Args[0], DropFile: true, Windowed: windowed})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules, %d divergences", st.Schedules, len(divs))
	found := false
	for _, d := range divs {
		if d.Oracle == "crash" {
			found = true
		}
	}
	if !found {
		t.Fatalf("a dropped file was not noticed in %d schedules: %v", st.Schedules, divs)
	}
}
