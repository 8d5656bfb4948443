package engine

import (
	"fmt"
	"math/rand"
	"testing"
	"time"
)

// etSparkLate returns 20k-odd events in files of about 500 (one epoch
// each), arrival order increasing, each event's time its arrival minus a
// random delay of up to 12 minutes (well past the 1-minute watermark
// delay), shuffled inside each file. It marks each event late by Spark's
// rule, simulated here: epoch k runs at watermark W_k = the largest event
// time of files 0..k-1 minus the delay (none for k = 0), and a row of
// epoch k is dropped iff its 5-minute window ends at or before W_{k-1},
// the previous epoch's watermark (Spark's eventTimeWatermarkForLateEvents):
// those windows were emitted or evicted when epoch k-1 ended, while a
// window ending in (W_{k-1}, W_k] still takes the row and is emitted when
// epoch k ends. It also returns how many rows are late and how many are
// older than their epoch's watermark yet on time.
func etSparkLate(seed int64) (files [][]etEvent, late, oldButKept int) {
	r := rand.New(rand.NewSource(seed))
	arrival := etBase
	for f := 0; f < 40; f++ {
		var cur []etEvent
		for n := 450 + r.Intn(100); n > 0; n-- {
			arrival = arrival.Add(time.Duration(r.Intn(1500)) * time.Millisecond)
			d := time.Duration(r.ExpFloat64()*45) * time.Second
			if r.Intn(10) == 0 {
				d = time.Duration(r.Intn(720)) * time.Second
			}
			cur = append(cur, etEvent{ts: arrival.Add(-d).Truncate(time.Second), k: string(rune('a' + r.Intn(4))), v: r.Intn(100) - 20})
		}
		r.Shuffle(len(cur), func(a, b int) { cur[a], cur[b] = cur[b], cur[a] })
		files = append(files, cur)
	}
	wms := etEpochWatermarks(files)
	for i := range files {
		if i > 1 {
			wm := wms[i-1]
			for j := range files[i] {
				e := &files[i][j]
				if !e.ts.Truncate(5 * time.Minute).Add(5 * time.Minute).After(wm) {
					e.late = true
					late++
				} else if e.ts.Before(wms[i]) {
					oldButKept++
				}
			}
		}
	}
	return files, late, oldButKept
}

// TestEventTimeSparkLateRule: over a shuffled, out-of-order stream of
// 20k rows across 40 epochs, the windowed counts and sums equal the
// Spark-rule model (and the batch query over the rows it keeps), and the
// late count is the model's, run straight and restarted every epoch.
func TestEventTimeSparkLateRule(t *testing.T) {
	files, late, oldButKept := etSparkLate(41)
	if late == 0 || oldButKept == 0 {
		t.Fatalf("generator: %d late, %d older than the watermark but on time; want both", late, oldButKept)
	}
	t.Logf("%d late, %d older than the watermark but on time", late, oldButKept)
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			if got := etUpdateRun(t, files, 5*time.Minute, 5*time.Minute, restart, nil); got != int64(late) {
				t.Fatalf("late rows counted %d, want %d (Spark's rule)", got, late)
			}
		})
	}
}
