package engine

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"sluice/internal/stream"
)

// etSparkFiles is etSparkLate's stream without the window verdicts: n
// files of about 120 events (one epoch each), arrival order increasing,
// each event's time its arrival minus a random delay that is mostly
// under a minute and sometimes up to 12 minutes, shuffled inside each
// file, over keys a..d, with a lull of minutes now and then.
func etSparkFiles(seed int64, n int) [][]etEvent {
	return etSparkFilesDelay(seed, n, 12*time.Minute)
}

// etSparkFilesDelay is etSparkFiles with the long delays up to maxDelay.
func etSparkFilesDelay(seed int64, n int, maxDelay time.Duration) [][]etEvent {
	r := rand.New(rand.NewSource(seed))
	arrival := etBase
	var files [][]etEvent
	for f := 0; f < n; f++ {
		var cur []etEvent
		for m := 100 + r.Intn(40); m > 0; m-- {
			arrival = arrival.Add(time.Duration(r.Intn(4000)) * time.Millisecond)
			if r.Intn(25) == 0 {
				arrival = arrival.Add(time.Duration(2+r.Intn(6)) * time.Minute) // a lull: sessions close
			}
			d := time.Duration(r.ExpFloat64()*45) * time.Second
			if r.Intn(8) == 0 {
				d = time.Duration(r.Intn(int(maxDelay/time.Second))) * time.Second
			}
			cur = append(cur, etEvent{ts: arrival.Add(-d).Truncate(time.Second), k: string(rune('a' + r.Intn(4))), v: r.Intn(100) - 20})
		}
		r.Shuffle(len(cur), func(a, b int) { cur[a], cur[b] = cur[b], cur[a] })
		files = append(files, cur)
	}
	return files
}

// etEpochWatermarks are the watermarks epochs 0..len(files) run at: none
// (zero) for the first, then the largest event time of the files before
// minus the delay; the last is the no-data epoch that closes what the
// final watermark passed.
func etEpochWatermarks(files [][]etEvent) []time.Time {
	var maxTs time.Time
	wms := make([]time.Time, len(files)+1)
	for i, f := range files {
		for _, e := range f {
			if e.ts.After(maxTs) {
				maxTs = e.ts
			}
		}
		wms[i+1] = maxTs.Add(-etDelay)
	}
	return wms
}

// etSparkSessions models Spark's session windows over the epochs: in
// epoch k, a row is late iff its own session [ts, ts+gap) ends at or
// before the previous epoch's watermark (dropped before merging, as
// Spark's SessionWindowStateStoreRestoreExec filters with
// eventTimeWatermarkForLateEvents); the rest merge, per key,
// with the rows of sessions still open, and when the epoch ends every
// session whose end (last event + gap) is at or before the epoch's own
// watermark W is emitted and forgotten. It returns "start end k count
// sum" per emitted session, the late count, and how many kept rows were older than their epoch's
// watermark (the old rule dropped them).
func etSparkSessions(files [][]etEvent, gap time.Duration) (rows []string, late, oldButKept int) {
	wms := etEpochWatermarks(files)
	open := map[string][]etEvent{}
	for k := 0; k <= len(files); k++ {
		wm, lateWM := wms[k], time.Time{}
		if k > 0 {
			lateWM = wms[k-1]
		}
		if k < len(files) {
			for _, e := range files[k] {
				if !lateWM.IsZero() && !e.ts.Add(gap).After(lateWM) {
					late++
					continue
				}
				if !wm.IsZero() && e.ts.Before(wm) {
					oldButKept++
				}
				open[e.k] = append(open[e.k], e)
			}
		}
		if wm.IsZero() {
			continue
		}
		for key, evs := range open {
			sort.Slice(evs, func(a, b int) bool { return evs[a].ts.Before(evs[b].ts) })
			var keep []etEvent
			for i := 0; i < len(evs); {
				j, end := i, evs[i].ts.Add(gap)
				for j+1 < len(evs) && evs[j+1].ts.Before(end) {
					j++
					if e := evs[j].ts.Add(gap); e.After(end) {
						end = e
					}
				}
				if !end.After(wm) {
					n, s := 0, 0
					for _, e := range evs[i : j+1] {
						n, s = n+1, s+e.v
					}
					rows = append(rows, fmt.Sprintf("%s %s %s %d %d", evs[i].ts.Format("2006-01-02 15:04:05"), end.Format("2006-01-02 15:04:05"), key, n, s))
				} else {
					keep = append(keep, evs[i:j+1]...)
				}
				i = j + 1
			}
			open[key] = keep
		}
	}
	sort.Strings(rows)
	return rows, late, oldButKept
}

// TestEventTimeSparkSessionLateRule: over a shuffled, out-of-order stream
// whose disorder far exceeds the watermark delay, an append-mode session
// count writes exactly the sessions of the Spark model and counts its
// late rows, run straight and with a fresh engine from the middle on
// (open sessions' rows go through a snapshot).
func TestEventTimeSparkSessionLateRule(t *testing.T) {
	const gap = 2 * time.Minute
	files := etSparkFilesDelay(57, 16, time.Hour)
	want, late, oldButKept := etSparkSessions(files, gap)
	if late == 0 || oldButKept == 0 || len(want) < 20 {
		t.Fatalf("generator: %d late, %d older than the watermark but on time, %d sessions", late, oldButKept, len(want))
	}
	t.Logf("%d sessions, %d late, %d older than the watermark but on time", len(want), late, oldButKept)
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
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
				"CREATE TABLE out (s TIMESTAMP, e TIMESTAMP, k STRING, n BIGINT, v BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'")
			sess := fmt.Sprintf("SESSION(ts, '%d minutes')", int(gap/time.Minute))
			q := "INSERT STREAM INTO out SELECT " + sess + ".start, " + sess + ".end, k, count(*), sum(v) FROM src GROUP BY " + sess + ", k WITH (name = 'sess', trigger = '%s', max_files_per_trigger = 1)"
			if restart {
				for i := 0; i < len(files)/2; i++ {
					etExec(t, eng, fmt.Sprintf(q, "once"))
				}
				eng, err = Open(Options{DataDir: data, StreamProgress: progress})
				if err != nil {
					t.Fatal(err)
				}
			}
			etExec(t, eng, fmt.Sprintf(q, "available_now"))
			etSame(t, "sessions written and the Spark model", queryRows(t, eng, "SELECT * FROM out"), want)
			if got != int64(late) {
				t.Fatalf("late rows counted %d, want %d (Spark's rule)", got, late)
			}
		})
	}
}

// TestEventTimeSparkStatelessLateRule: stateless streams never drop late
// rows (Spark applies the watermark only in stateful operators): a
// projection and a stream-static join write every row of a shuffled,
// very late stream and count none, while a windowed count behind the
// same join judges rows by their window (Spark's rule) and matches the
// model. Run straight and with a fresh engine from the middle on.
func TestEventTimeSparkStatelessLateRule(t *testing.T) {
	files := etSparkFiles(58, 12)
	wms := etEpochWatermarks(files)
	total, late, old := 0, 0, 0
	for i, f := range files {
		for j := range f {
			e := &f[j]
			total++
			if i > 1 && !e.ts.Truncate(5*time.Minute).Add(5*time.Minute).After(wms[i-1]) {
				e.late = true
				late++
			} else if i > 0 && e.ts.Before(wms[i]) {
				old++
			}
		}
	}
	if late == 0 || old == 0 {
		t.Fatalf("generator: %d late, %d older than the watermark but on time", late, old)
	}
	windows := etModel(files, 5*time.Minute, 5*time.Minute, wms[len(files)])
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			dir := t.TempDir()
			in, data := filepath.Join(dir, "in"), filepath.Join(dir, "data")
			etWrite(t, in, files, false)
			lates := map[string]int64{}
			progress := func(p stream.Progress) { lates[p.Name] += p.LateRows }
			eng, err := Open(Options{DataDir: data, StreamProgress: progress})
			if err != nil {
				t.Fatal(err)
			}
			etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in),
				"CREATE TABLE dim (k STRING, name STRING) USING json LOCATION '"+filepath.Join(dir, "dim")+"/'",
				"INSERT INTO dim VALUES ('a', 'a'), ('b', 'b'), ('c', 'c'), ('d', 'd')",
				"CREATE TABLE proj (ts TIMESTAMP, k STRING, v BIGINT) USING json LOCATION '"+filepath.Join(dir, "proj")+"/'",
				"CREATE TABLE joined (ts TIMESTAMP, k STRING, v BIGINT) USING json LOCATION '"+filepath.Join(dir, "joined")+"/'",
				"CREATE TABLE win (w TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json LOCATION '"+filepath.Join(dir, "win")+"/'")
			qs := []string{
				"INSERT STREAM INTO proj SELECT ts, k, v FROM src WHERE v > -100 WITH (name = 'sp', trigger = '%s', max_files_per_trigger = 1)",
				"INSERT STREAM INTO joined SELECT src.ts, dim.name, src.v FROM src JOIN dim ON src.k = dim.k WITH (name = 'sj', trigger = '%s', max_files_per_trigger = 1)",
				"INSERT STREAM INTO win SELECT TUMBLE(ts, '5 minutes').start, dim.name, count(*), sum(v) FROM src JOIN dim ON src.k = dim.k GROUP BY TUMBLE(ts, '5 minutes'), dim.name WITH (name = 'sw', trigger = '%s', max_files_per_trigger = 1)",
			}
			if restart {
				for _, q := range qs {
					for i := 0; i < len(files)/2; i++ {
						etExec(t, eng, fmt.Sprintf(q, "once"))
					}
				}
				eng, err = Open(Options{DataDir: data, StreamProgress: progress})
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range qs {
				etExec(t, eng, fmt.Sprintf(q, "available_now"))
			}
			all := queryRows(t, eng, "SELECT ts, k, v FROM src")
			if len(all) != total {
				t.Fatalf("batch read %d rows, want %d", len(all), total)
			}
			etSame(t, "projected stream and its input", queryRows(t, eng, "SELECT * FROM proj"), all)
			etSame(t, "stream-static join and its input", queryRows(t, eng, "SELECT * FROM joined"), all)
			etSame(t, "windows behind the join and the Spark model", queryRows(t, eng, "SELECT * FROM win"), windows)
			if lates["sp"] != 0 || lates["sj"] != 0 || lates["sw"] != int64(late) {
				t.Fatalf("late rows counted %v, want sp 0, sj 0, sw %d", lates, late)
			}
		})
	}
}
