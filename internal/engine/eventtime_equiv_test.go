package engine

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sluice/internal/stream"
)

// The event-time equivalence tests generate random event sets whose
// disorder stays within the watermark delay, land them as files, run a
// windowed stream over them one file per epoch, and compare the output
// with the batch query over the same files. Seeds are fixed so a failure
// replays.

var etBase = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

const etDelay = time.Minute

type etEvent struct {
	ts   time.Time
	k    string
	v    int
	late bool // deliberately older than the watermark of its epoch
}

// etFiles returns the events of one random run, grouped by file in
// arrival order. Arrival times increase; each event's time is its arrival
// time minus a jitter below the delay, so an event is never older than
// the largest earlier event time minus the delay: nothing is late. Rows
// inside a file are shuffled, files hold a random number of rows, and
// neighbouring files are swapped at random wherever the swap keeps
// every row on time, so files land out of event-time order too.
func etFiles(seed int64, events, keys int) [][]etEvent {
	return etFilesDelay(seed, events, keys, etDelay)
}

// etFilesDelay is etFiles with disorder up to delay.
func etFilesDelay(seed int64, events, keys int, delay time.Duration) [][]etEvent {
	r := rand.New(rand.NewSource(seed))
	var files [][]etEvent
	arrival := etBase.Add(time.Duration(r.Intn(600)) * time.Second)
	var cur []etEvent
	size := 1 + r.Intn(8)
	for i := 0; i < events; i++ {
		arrival = arrival.Add(time.Duration(r.Intn(20)) * time.Second)
		jitter := time.Duration(r.Int63n(int64(delay/time.Second))) * time.Second
		cur = append(cur, etEvent{ts: arrival.Add(-jitter), k: string(rune('a' + r.Intn(keys))), v: r.Intn(100) - 20})
		if len(cur) == size || i == events-1 {
			r.Shuffle(len(cur), func(a, b int) { cur[a], cur[b] = cur[b], cur[a] })
			files = append(files, cur)
			cur, size = nil, 1+r.Intn(8)
		}
	}
	for a := 0; a < 4*len(files) && len(files) > 1; a++ {
		i := r.Intn(len(files) - 1)
		files[i], files[i+1] = files[i+1], files[i]
		if !etOnTime(files, delay) {
			files[i], files[i+1] = files[i+1], files[i]
		}
	}
	return files
}

// etOutOfOrder counts files whose latest event is older than the
// previous file's.
func etOutOfOrder(files [][]etEvent) int {
	latest := func(f []etEvent) time.Time {
		var m time.Time
		for _, e := range f {
			if e.ts.After(m) {
				m = e.ts
			}
		}
		return m
	}
	n := 0
	for i := 1; i < len(files); i++ {
		if latest(files[i]).Before(latest(files[i-1])) {
			n++
		}
	}
	return n
}

// etOnTime reports whether no row of any file is older than the largest
// event time of the files before it minus the delay.
func etOnTime(files [][]etEvent, delay time.Duration) bool {
	var maxTs time.Time
	for i, f := range files {
		for _, e := range f {
			if i > 0 && e.ts.Before(maxTs.Add(-delay)) {
				return false
			}
		}
		for _, e := range f {
			if e.ts.After(maxTs) {
				maxTs = e.ts
			}
		}
	}
	return true
}

// etWrite lands the files under dir as NDJSON, in arrival order by name
// (the file source lists in name order). skipLate leaves the deliberately
// late rows out, for a reference copy of what the stream should keep.
func etWrite(t *testing.T, dir string, files [][]etEvent, skipLate bool) {
	t.Helper()
	etWriteRange(t, dir, files, 0, len(files), skipLate)
}

// etWriteRange lands files[from:to] only.
func etWriteRange(t *testing.T, dir string, files [][]etEvent, from, to int, skipLate bool) {
	t.Helper()
	for i := from; i < to; i++ {
		f := files[i]
		var sb strings.Builder
		for _, e := range f {
			if skipLate && e.late {
				continue
			}
			fmt.Fprintf(&sb, "{\"ts\": %q, \"k\": %q, \"v\": %d}\n", e.ts.Format(time.RFC3339), e.k, e.v)
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%04d.json", i)), sb.String())
	}
}

// etMaxEvent is the largest event time of all files: the final watermark
// plus the delay.
func etMaxEvent(files [][]etEvent) time.Time {
	var m time.Time
	for _, f := range files {
		for _, e := range f {
			if e.ts.After(m) {
				m = e.ts
			}
		}
	}
	return m
}

// etModel computes the expected windowed result in Go, independently of
// the engine: rows "start k count sum" for windows of size/slide whose
// end is at most closeBy (zero: all windows), late rows left out.
func etModel(files [][]etEvent, size, slide time.Duration, closeBy time.Time) []string {
	type key struct {
		start time.Time
		k     string
	}
	type acc struct{ n, s int }
	m := map[key]*acc{}
	for _, f := range files {
		for _, e := range f {
			if e.late {
				continue
			}
			last := e.ts.Truncate(slide)
			for st := last; st.After(e.ts.Add(-size)); st = st.Add(-slide) {
				if !closeBy.IsZero() && st.Add(size).After(closeBy) {
					continue
				}
				a := m[key{st, e.k}]
				if a == nil {
					a = &acc{}
					m[key{st, e.k}] = a
				}
				a.n++
				a.s += e.v
			}
		}
	}
	var rows []string
	for k, a := range m {
		rows = append(rows, fmt.Sprintf("%s %s %d %d", k.start.Format("2006-01-02 15:04:05"), k.k, a.n, a.s))
	}
	sort.Strings(rows)
	return rows
}

func etExec(t *testing.T, eng *Engine, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func etSame(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s differ\ngot  (%d): %v\nwant (%d): %v", what, len(got), got, len(want), want)
	}
}

// etWindow is the SQL window function for size and slide (slide == size:
// a tumbling window).
func etWindow(size, slide time.Duration) string {
	if size == slide {
		return fmt.Sprintf("TUMBLE(ts, '%d minutes')", int(size/time.Minute))
	}
	return fmt.Sprintf("HOP(ts, '%d minutes', '%d minutes')", int(size/time.Minute), int(slide/time.Minute))
}

const etSrcDDL = "CREATE TABLE %s (ts TIMESTAMP, k STRING, v BIGINT, WATERMARK FOR ts AS ts - INTERVAL 1 MINUTE) USING json LOCATION '%s/'"

// TestEventTimeAppendEquivalence: for random event sets, the append
// stream's output (available_now, one file per epoch) equals the batch
// query over the same files restricted to the windows the final
// watermark closed, for tumbling and hopping windows, straight through
// and restarted in a fresh engine every epoch.
func TestEventTimeAppendEquivalence(t *testing.T) {
	windows := []struct{ size, slide time.Duration }{
		{5 * time.Minute, 5 * time.Minute},
		{10 * time.Minute, 5 * time.Minute},
		{6 * time.Minute, 2 * time.Minute},
	}
	// The generator must really land files out of event-time order.
	if swapped := etOutOfOrder(etFiles(105, 160, 3)); swapped == 0 {
		t.Fatal("generator landed every file in event-time order")
	}
	for _, seed := range []int64{1, 2, 3, 4} {
		for _, w := range windows {
			for _, restart := range []bool{false, true} {
				name := fmt.Sprintf("seed%d/%s/restart=%v", seed, etWindow(w.size, w.slide), restart)
				t.Run(name, func(t *testing.T) {
					files := etFiles(seed*100+int64(w.size/time.Minute), 60+int(seed)*25, 3)
					if restart && len(files) > 12 {
						files = files[:12] // an engine per epoch: keep it quick
					}
					etAppendRun(t, files, w.size, w.slide, restart)
				})
			}
		}
	}
}

func etAppendRun(t *testing.T, files [][]etEvent, size, slide time.Duration, restart bool) {
	dir := t.TempDir()
	in, data := filepath.Join(dir, "in"), filepath.Join(dir, "data")
	etWrite(t, in, files, false)
	eng, err := Open(Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in),
		"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'")
	win := etWindow(size, slide)
	q := "INSERT STREAM INTO out SELECT " + win + ".start, k, count(*), sum(v) FROM src GROUP BY " + win + ", k WITH (name = 'eq', trigger = '%s', max_files_per_trigger = 1)"
	if !restart {
		etExec(t, eng, fmt.Sprintf(q, "available_now"))
	} else {
		// One epoch per engine, so window state goes through snapshot and
		// restore between every epoch; the extra runs are no-data epochs
		// that close what the final watermark passed.
		for i := 0; i < len(files)+2; i++ {
			e, err := Open(Options{DataDir: data})
			if err != nil {
				t.Fatal(err)
			}
			etExec(t, e, fmt.Sprintf(q, "once"))
		}
	}
	finalWM := etMaxEvent(files).Add(-etDelay)
	lastStart := finalWM.Add(-size)
	got := queryRows(t, eng, "SELECT * FROM out")
	batch := queryRows(t, eng, "SELECT * FROM (SELECT "+win+".start AS st, k, count(*), sum(v) FROM src GROUP BY "+win+", k) b WHERE st <= TIMESTAMP '"+lastStart.Format("2006-01-02 15:04:05")+"'")
	model := etModel(files, size, slide, finalWM)
	if len(model) == 0 {
		t.Fatal("generator made no closed window")
	}
	etSame(t, "batch query and Go model", batch, model)
	etSame(t, "stream output and batch query", got, batch)
}

// TestEventTimeUpdateEquivalence: an update-mode stream into the local
// index, upserting by window and key, converges to the batch result over
// all windows (open ones included), straight through and restarted every
// epoch.
func TestEventTimeUpdateEquivalence(t *testing.T) {
	for _, seed := range []int64{11, 12, 13} {
		for _, win := range []struct{ size, slide time.Duration }{{5 * time.Minute, 5 * time.Minute}, {10 * time.Minute, 5 * time.Minute}} {
			for _, restart := range []bool{false, true} {
				t.Run(fmt.Sprintf("seed%d/%s/restart=%v", seed, etWindow(win.size, win.slide), restart), func(t *testing.T) {
					files := etFiles(seed, 80, 3)
					if restart && len(files) > 10 {
						files = files[:10]
					}
					etUpdateRun(t, files, win.size, win.slide, restart, nil)
				})
			}
		}
	}
}

// etUpdateRun streams files in update mode into an index table and checks
// its content against the batch query over ref (the files without their
// late rows) and the Go model. It returns the late rows the stream
// counted.
func etUpdateRun(t *testing.T, files [][]etEvent, size, slide time.Duration, restart bool, check func(eng *Engine)) int64 {
	dir := t.TempDir()
	in, ref, data := filepath.Join(dir, "in"), filepath.Join(dir, "ref"), filepath.Join(dir, "data")
	etWrite(t, in, files, false)
	etWrite(t, ref, files, true)
	var late int64
	progress := func(p stream.Progress) { late += p.LateRows }
	eng, err := Open(Options{DataDir: data, StreamProgress: progress})
	if err != nil {
		t.Fatal(err)
	}
	etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in), fmt.Sprintf(etSrcDDL, "ref", ref),
		"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING index OPTIONS (id 'w,k')")
	win := etWindow(size, slide)
	q := "INSERT STREAM INTO out SELECT " + win + ".start AS w, k, count(*) AS n, sum(v) AS s FROM src GROUP BY " + win + ", k WITH (name = 'up', output_mode = 'update', trigger = '%s', max_files_per_trigger = 1)"
	if !restart {
		etExec(t, eng, fmt.Sprintf(q, "available_now"))
	} else {
		for i := 0; i < len(files)+2; i++ {
			e, err := Open(Options{DataDir: data, StreamProgress: progress})
			if err != nil {
				t.Fatal(err)
			}
			etExec(t, e, fmt.Sprintf(q, "once"))
		}
	}
	got := queryRows(t, eng, "SELECT w, k, n, s FROM out")
	batch := queryRows(t, eng, "SELECT "+win+".start, k, count(*), sum(v) FROM ref GROUP BY "+win+", k")
	etSame(t, "batch query and Go model", batch, etModel(files, size, slide, time.Time{}))
	etSame(t, "index content and batch query", got, batch)
	if check != nil {
		check(eng)
	}
	return late
}

// etInjectLate adds rows to files from the third on: some older than the
// watermark their epoch judges lateness by (Spark's: the previous epoch's
// watermark, the largest event time of the files before that one minus
// the delay), and one exactly at it, which is on time. Those whose
// 5-minute window ends at or before that watermark are marked late; the
// others are on time, though older than it. It returns how many late
// rows it added.
func etInjectLate(seed int64, files [][]etEvent) int {
	r := rand.New(rand.NewSource(seed))
	var maxTs, prev time.Time
	late := 0
	for i := range files {
		wm := prev
		if i > 0 {
			prev = maxTs.Add(-etDelay)
		}
		if i >= 2 {
			for j := r.Intn(4); j > 0; j-- {
				back := time.Duration(1+r.Intn(900)) * time.Second
				ts, k, v := wm.Add(-back), string(rune('a'+r.Intn(3))), 1000+r.Intn(100)
				// Spark's rule: late only when the row's 5-minute window
				// ends at or before the watermark (it was emitted or
				// evicted); an older row of a still-open window counts.
				if ts.Truncate(5 * time.Minute).Add(5 * time.Minute).After(wm) {
					files[i] = append(files[i], etEvent{ts: ts, k: k, v: v - 1000})
					continue
				}
				files[i] = append(files[i], etEvent{ts: ts, k: k, v: v, late: true})
				late++
			}
			files[i] = append(files[i], etEvent{ts: wm, k: "a", v: 7})
			r.Shuffle(len(files[i]), func(a, b int) { files[i][a], files[i][b] = files[i][b], files[i][a] })
		}
		for _, e := range files[i] {
			if !e.late && e.ts.After(maxTs) {
				maxTs = e.ts
			}
		}
	}
	return late
}

// TestEventTimeLateRows: rows older than their epoch's watermark are
// dropped and counted (Progress.LateRows and DESCRIBE STREAM), never
// written, in update mode (every window, open ones too, reaches the
// sink) straight through and restarted every epoch; a row exactly at the
// watermark is on time. DESCRIBE STREAM is checked separately below.
func TestEventTimeLateRows(t *testing.T) {
	for _, seed := range []int64{21, 22, 23} {
		for _, restart := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed%d/restart=%v", seed, restart), func(t *testing.T) {
				files := etFiles(seed, 90, 3)
				if restart && len(files) > 10 {
					files = files[:10]
				}
				want := etInjectLate(seed, files)
				if want == 0 {
					t.Fatal("generator made no late row")
				}
				got := etUpdateRun(t, files, 5*time.Minute, 5*time.Minute, restart, nil)
				if got != int64(want) {
					t.Fatalf("Progress.LateRows summed to %d, want %d", got, want)
				}
			})
		}
	}
}

// TestEventTimeLateRowsAppend: in append mode, late rows never reach a
// closed window's row: the output equals the batch query over the files
// without their late rows, restricted to the closed windows.
func TestEventTimeLateRowsAppend(t *testing.T) {
	for _, seed := range []int64{31, 32} {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			files := etFiles(seed, 90, 3)
			want := etInjectLate(seed, files)
			dir := t.TempDir()
			in, ref := filepath.Join(dir, "in"), filepath.Join(dir, "ref")
			etWrite(t, in, files, false)
			etWrite(t, ref, files, true)
			var late int64
			eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), StreamProgress: func(p stream.Progress) { late += p.LateRows }})
			if err != nil {
				t.Fatal(err)
			}
			etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in), fmt.Sprintf(etSrcDDL, "ref", ref),
				"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
				"INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, k, count(*), sum(v) FROM src GROUP BY TUMBLE(ts, '5 minutes'), k WITH (name = 'ap', trigger = 'available_now', max_files_per_trigger = 1)")
			finalWM := etMaxEvent(files).Add(-etDelay)
			got := queryRows(t, eng, "SELECT * FROM out")
			batch := queryRows(t, eng, "SELECT * FROM (SELECT TUMBLE(ts, '5 minutes').start AS st, k, count(*), sum(v) FROM ref GROUP BY TUMBLE(ts, '5 minutes'), k) b WHERE st <= TIMESTAMP '"+finalWM.Add(-5*time.Minute).Format("2006-01-02 15:04:05")+"'")
			etSame(t, "batch query and Go model", batch, etModel(files, 5*time.Minute, 5*time.Minute, finalWM))
			etSame(t, "stream output and batch query", got, batch)
			if late != int64(want) {
				t.Fatalf("Progress.LateRows summed to %d, want %d", late, want)
			}
			for _, row := range got {
				// Late rows carry v >= 1000; a sum that large means one got in.
				var w1, w2, k string
				var n, s int
				if _, err := fmt.Sscan(row, &w1, &w2, &k, &n, &s); err == nil && s >= 1000 && s > n*100 {
					t.Fatalf("a late row reached the output: %s", row)
				}
			}
		})
	}
}

// TestEventTimeLateRowsDescribe: DESCRIBE STREAM's late_rows_dropped is
// the stream's total, like rows_in and bad_rows beside it.
func TestEventTimeLateRowsDescribe(t *testing.T) {
	files := etFiles(21, 90, 3)
	want := etInjectLate(21, files)
	etUpdateRun(t, files, 5*time.Minute, 5*time.Minute, false, func(eng *Engine) {
		rows := queryRows(t, eng, "DESCRIBE STREAM up")
		for _, r := range rows {
			if strings.HasPrefix(r, "late_rows_dropped ") {
				if r != fmt.Sprintf("late_rows_dropped %d", want) {
					t.Fatalf("DESCRIBE STREAM: %s, want %d", r, want)
				}
				return
			}
		}
		t.Fatalf("DESCRIBE STREAM has no late_rows_dropped: %v", rows)
	})
}

// TestEventTimeMaterializedViewEquivalence: a windowed materialized view
// (auto_refresh = false) refreshed after each few files land converges
// to the Go model (equal to the batch query, checked above): in append
// mode over the windows the final watermark closed, in update mode over
// every window.
func TestEventTimeMaterializedViewEquivalence(t *testing.T) {
	for _, seed := range []int64{41, 42} {
		for _, m := range []struct{ name, with string }{
			{"append", "output_mode = 'append'"},
			{"update", "output_mode = 'update'"},
			{"update_id_expression", "output_mode = 'update', id_expression = 'w,k'"},
		} {
			mode := m.name
			t.Run(fmt.Sprintf("seed%d/%s", seed, mode), func(t *testing.T) {
				files := etFiles(seed, 120, 3)
				dir := t.TempDir()
				in := filepath.Join(dir, "in")
				eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
				if err != nil {
					t.Fatal(err)
				}
				etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in))
				r := rand.New(rand.NewSource(seed))
				landed := 0
				for landed < len(files) {
					next := min(len(files), landed+1+r.Intn(5))
					etWriteRange(t, in, files, landed, next, false)
					if landed == 0 {
						etExec(t, eng, "CREATE MATERIALIZED VIEW mv AS SELECT TUMBLE(ts, '5 minutes').start AS w, k, count(*) AS n, sum(v) AS s FROM src GROUP BY TUMBLE(ts, '5 minutes'), k WITH (auto_refresh = false, "+m.with+")")
					} else {
						etExec(t, eng, "REFRESH MATERIALIZED VIEW mv")
					}
					landed = next
				}
				got := queryRows(t, eng, "SELECT w, k, n, s FROM mv")
				var want []string
				if mode == "append" {
					finalWM := etMaxEvent(files).Add(-etDelay)
					want = etModel(files, 5*time.Minute, 5*time.Minute, finalWM)
				} else {
					want = etModel(files, 5*time.Minute, 5*time.Minute, time.Time{})
				}
				etSame(t, "view content and Go model", got, want)
			})
		}
	}
}

// TestEventTimeWatermarkDelayOption: the watermark_delay query option
// overrides the table's WATERMARK (1 minute): with disorder up to 3
// minutes and watermark_delay = '3 minutes' nothing is late, and the
// append output holds exactly the windows closed by max event time - 3
// minutes.
func TestEventTimeWatermarkDelayOption(t *testing.T) {
	for _, seed := range []int64{51, 52} {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			const delay = 3 * time.Minute
			files := etFilesDelay(seed, 120, 3, delay)
			if etOnTime(files, etDelay) {
				t.Fatal("no file is out of order by more than the table's 1 minute: the option would not matter")
			}
			dir := t.TempDir()
			in := filepath.Join(dir, "in")
			etWrite(t, in, files, false)
			var late int64
			eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), StreamProgress: func(p stream.Progress) { late += p.LateRows }})
			if err != nil {
				t.Fatal(err)
			}
			etExec(t, eng, fmt.Sprintf(etSrcDDL, "src", in),
				"CREATE TABLE out (w TIMESTAMP, k STRING, n BIGINT, s BIGINT) USING json LOCATION '"+filepath.Join(dir, "out")+"/'",
				"INSERT STREAM INTO out SELECT TUMBLE(ts, '5 minutes').start, k, count(*), sum(v) FROM src GROUP BY TUMBLE(ts, '5 minutes'), k WITH (name = 'wd', trigger = 'available_now', max_files_per_trigger = 1, watermark_delay = '3 minutes')")
			if late != 0 {
				t.Fatalf("%d rows dropped as late with a 3-minute delay", late)
			}
			got := queryRows(t, eng, "SELECT * FROM out")
			etSame(t, "stream output and Go model", got, etModel(files, 5*time.Minute, 5*time.Minute, etMaxEvent(files).Add(-delay)))
		})
	}
}
