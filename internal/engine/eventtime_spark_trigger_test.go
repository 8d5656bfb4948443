package engine

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"sluice/internal/stream"
)

// etSparkTriggerModel is Spark's append-mode tumbling count/sum over
// files read per files at a time (maxFilesPerTrigger): batch b runs at
// watermark W_b, the largest event time of the batches before it minus
// the delay (none for b = 0), and emits the windows ending at or before
// W_b; it drops a row as late iff its window ends at or before W_{b-1},
// the previous batch's watermark (IncrementalExecution's
// eventTimeWatermarkForLateEvents; none for b <= 1). A last batch with
// no data runs at the final watermark. It returns "start k count sum"
// per emitted window, the late count, and how many rows a rule judging
// by W_b itself would have dropped but Spark keeps.
func etSparkTriggerModel(files [][]etEvent, per int, size time.Duration) (rows []string, late, keptByPrev int) {
	var batches [][]etEvent
	for i := 0; i < len(files); i += per {
		var b []etEvent
		for _, f := range files[i:min(i+per, len(files))] {
			b = append(b, f...)
		}
		batches = append(batches, b)
	}
	wms := etEpochWatermarks(batches)
	type key struct {
		start time.Time
		k     string
	}
	type acc struct{ n, s int }
	m := map[key]*acc{}
	for b, evs := range batches {
		for _, e := range evs {
			end := e.ts.Truncate(size).Add(size)
			if b > 1 && !end.After(wms[b-1]) {
				late++
				continue
			}
			if b > 0 && !end.After(wms[b]) {
				keptByPrev++
			}
			a := m[key{e.ts.Truncate(size), e.k}]
			if a == nil {
				a = &acc{}
				m[key{e.ts.Truncate(size), e.k}] = a
			}
			a.n, a.s = a.n+1, a.s+e.v
		}
	}
	final := wms[len(batches)]
	for k, a := range m {
		if !k.start.Add(size).After(final) {
			rows = append(rows, fmt.Sprintf("%s %s %d %d", k.start.Format("2006-01-02 15:04:05"), k.k, a.n, a.s))
		}
	}
	sort.Strings(rows)
	return rows, late, keptByPrev
}

// etCrash is what the crash hook panics with, standing in for a killed
// process: the epoch stops where it is, its offsets recorded.
type etCrash struct{ epoch int64 }

// TestEventTimeSparkTriggerLateRule: several files per epoch
// (max_files_per_trigger = 3) over a shuffled stream far more out of
// order than the watermark delay: the append-mode windows written equal
// Spark's, whose late rows are judged by the previous batch's watermark
// while windows are emitted at the batch's own, and the late count is
// Spark's. Run straight, restarted in the middle (a fresh engine after
// some trigger-once runs), and crashed in the middle after the sink
// flushed an epoch whose state and commit were not written (replayed
// from its recorded offsets on restart).
func TestEventTimeSparkTriggerLateRule(t *testing.T) {
	const per = 3
	files := etSparkFilesDelay(61, 30, 3*time.Hour)
	want, late, keptByPrev := etSparkTriggerModel(files, per, 5*time.Minute)
	if late == 0 || keptByPrev == 0 || len(want) < 20 {
		t.Fatalf("generator: %d late, %d kept only by the previous watermark, %d windows", late, keptByPrev, len(want))
	}
	t.Logf("%d windows, %d late, %d kept only by the previous watermark", len(want), late, keptByPrev)
	for _, mode := range []string{"straight", "restart", "crash"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			in, data := filepath.Join(dir, "in"), filepath.Join(dir, "data")
			etWrite(t, in, files, false)
			var got int64
			progress := func(p stream.Progress) { got += p.LateRows }
			eng, err := Open(Options{DataDir: data, StreamProgress: progress})
			if err != nil {
				t.Fatal(err)
			}
			etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in),
				"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT, v BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'")
			q := fmt.Sprintf("INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, k, count(*), sum(v) FROM src GROUP BY TUMBLE(ts, '5 minutes'), k WITH (name = 'tr', trigger = '%%s', max_files_per_trigger = %d)", per)
			switch mode {
			case "restart":
				for i := 0; i < len(files)/per/2; i++ {
					etExec(t, eng, fmt.Sprintf(q, "once"))
				}
			case "crash":
				const at = 5
				var lateBefore int64
				stream.CrashHook = func(point string, epoch int64) {
					if point == "after-flush" && epoch == at {
						panic(etCrash{epoch})
					}
					if point == "planned" && epoch == at {
						lateBefore = got
					}
				}
				func() {
					defer func() {
						stream.CrashHook = nil
						if r := recover(); r != nil {
							if c, ok := r.(etCrash); !ok || c.epoch != at {
								panic(r)
							}
						}
					}()
					etExec(t, eng, fmt.Sprintf(q, "available_now"))
					t.Fatal("the stream finished without crashing")
				}()
				got = lateBefore // the crashed epoch's progress was never reported
			}
			if mode != "straight" {
				if eng, err = Open(Options{DataDir: data, StreamProgress: progress}); err != nil {
					t.Fatal(err)
				}
			}
			etExec(t, eng, fmt.Sprintf(q, "available_now"))
			etSame(t, "windows written and the Spark model", queryRows(t, eng, "SELECT * FROM out"), want)
			if got != int64(late) {
				t.Fatalf("late rows counted %d, want %d (Spark's rule)", got, late)
			}
		})
	}
}
