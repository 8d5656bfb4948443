package fuzz

// Batch equals stream, with crashes: a stateless query (a filter and a
// projection, with a generated boolean column) over a generated table is
// run once as a batch INSERT and once as INSERT STREAM over the same
// files, which arrive in a random order in random groups; each group is
// read by child processes (trigger available_now, a random
// max_files_per_trigger, so epochs of random size) that are SIGKILLed at
// a random crash point (stream.CrashHook: planned, decoding, sink-write,
// after-flush, after-commit, done, the K-th time) and restarted from the
// checkpoint until they finish. The sink must then equal the batch
// INSERT's table as a multiset: every row exactly once. One (seed,
// schedule) pair is a crash schedule; schedule i draws from its own
// source, so it replays alone.
//
// It catches: rows lost or written twice by a kill anywhere in an epoch
// (offsets written but not read, a sink written but not flushed or not
// committed, a commit without the source's log), files missed or read
// twice when they land out of order or between runs, a replayed epoch
// planning other files than the first try, and the stream's reading,
// filtering and writing differing from the batch path's for the
// generated values (NULL, NaN, -0.0, separators, partition values).
//
// A third of the schedules aggregate by a TUMBLE or HOP window under a
// watermark instead (crash_window.go says what those catch).
//
// It cannot catch: an answer wrong the same way in batch and stream (the
// other oracles look at that), kills between crash points other than
// these six, or object stores (files are local).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"sluice/internal/engine"
	"sluice/internal/stream"
)

// The child side of a crash schedule: the test binary, re-executed with
// these set, runs one statement and exits (CrashChild).
const (
	envCrashDir  = "SLUICE_FUZZ_CRASH_CHILD" // the data directory
	envCrashStmt = "SLUICE_FUZZ_CRASH_STMT"  // the INSERT STREAM
	envCrashAt   = "SLUICE_CRASHPOINT"       // "after-flush#2": SIGKILL there
)

// crashPoints are stream.CrashHook's points of an epoch.
var crashPoints = []string{"planned", "decoding", "sink-write", "after-flush", "after-commit", "done"}

// CrashConfig is a run of crash schedules.
type CrashConfig struct {
	Seed      uint64
	Schedules int
	// Dir holds each schedule's data directory and files.
	Dir string
	// Child is the executable re-run as the stream's process: a test
	// binary whose TestMain calls CrashChild first.
	Child string
	// DropFile, for the oracle's own test, loses one file on its way to
	// the stream: the sink must then differ from the batch.
	DropFile bool
	// Windowed makes every schedule a windowed one (the oracle's own
	// test); otherwise a third are.
	Windowed bool
}

// CrashStats counts what a crash run did.
type CrashStats struct {
	Schedules, Skipped int
	// Children is how many stream processes ran, Kills how many of them
	// died at their crash point.
	Children, Kills int
	// Files and Rows are the input files and the rows the sinks held.
	Files, Rows int
	// KillsAt counts kills by crash point.
	KillsAt map[string]int
	// Windowed counts the windowed schedules, WindowRows their sink rows.
	Windowed, WindowRows int
}

// CrashChild runs the child side when the environment asks for it: it
// reports ok false in an ordinary test process. Exit codes: 0 done, 2 the
// engine did not open, 3 the statement failed.
func CrashChild() (code int, ok bool) {
	dir := os.Getenv(envCrashDir)
	if dir == "" {
		return 0, false
	}
	if p := os.Getenv(envCrashAt); p != "" {
		stream.CrashHook = killAt(p)
	}
	eng, err := engine.Open(engine.Options{DataDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2, true
	}
	defer eng.Close()
	if _, err := eng.Execute(context.Background(), os.Getenv(envCrashStmt)); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 3, true
	}
	return 0, true
}

// killAt reads "point#K" and returns the hook that SIGKILLs this process
// the K-th time it reaches point.
func killAt(spec string) func(string, int64) {
	point, nth, _ := strings.Cut(spec, "#")
	k, _ := strconv.Atoi(nth)
	seen := 0
	return func(at string, _ int64) {
		if at != point {
			return
		}
		if seen++; seen == k {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
}

// schedule is one drawn crash schedule.
type schedule struct {
	seed  uint64
	index int
	t     *Table
	// proj is the SELECT list, types its output types; pred the WHERE.
	proj  []string
	types []Type
	pred  string
	// sinkFormat is the sink's and the batch table's format.
	sinkFormat string
	// maxFiles is max_files_per_trigger.
	maxFiles int
	// r draws the arrival order and the kills once the files are known.
	r *rand.Rand
	// win makes the schedule a windowed aggregation (crash_window.go);
	// nil for a stateless one.
	win *windowAgg
}

// drawSchedule draws schedule i of seed.
func drawSchedule(seed uint64, i int, dir string, windowed bool) *schedule {
	r := newRand(seed ^ (uint64(i)+1)*0x9e3779b97f4a7c15)
	t := genTable(r, "t", dir)
	if t.lossyCSV() {
		t.Format = "json"
	}
	// More files than the other oracles' tables: epochs of several.
	for n := 2 + r.IntN(7); len(t.Batches) < n; {
		t.addBatch(r)
	}
	s := &schedule{seed: seed, index: i, t: t, r: r, sinkFormat: []string{"json", "parquet"}[r.IntN(2)], maxFiles: 1 + r.IntN(3)}
	g := &exprGen{r: r, cols: t.Cols}
	for _, j := range r.Perm(len(t.Cols))[:1+r.IntN(len(t.Cols))] {
		s.proj = append(s.proj, t.Cols[j].Name)
		s.types = append(s.types, t.Cols[j].Type)
	}
	if r.IntN(2) == 0 {
		s.proj = append(s.proj, "("+g.pred(1)+")")
		s.types = append(s.types, Boolean)
	}
	s.pred = g.pred(2)
	if r.IntN(3) == 0 || windowed {
		drawWindow(r, s)
	}
	return s
}

func (s *schedule) selectFrom(table string) string {
	if s.win != nil {
		return s.win.selectFrom(s, table)
	}
	return "SELECT " + strings.Join(s.proj, ", ") + " FROM " + table + " WHERE " + s.pred
}

// crashRun is one schedule's directories and statements.
type crashRun struct {
	*schedule
	cfg                        CrashConfig
	data, stage, src, out, bat string
	stmt                       string
	setup                      []string
	log                        []string // what happened, for the report
}

// RunCrash runs cfg.Schedules crash schedules and returns the
// divergences; an error means a schedule could not be run at all (a
// child that did not start, a file that could not be moved).
func RunCrash(ctx context.Context, cfg CrashConfig) (divs []Divergence, st CrashStats, err error) {
	st.KillsAt = map[string]int{}
	for i := 0; i < cfg.Schedules; i++ {
		d, err := runSchedule(ctx, cfg, i, &st)
		if err != nil {
			return divs, st, fmt.Errorf("crash schedule %d of seed %d: %w", i, cfg.Seed, err)
		}
		if d != nil {
			divs = append(divs, *d)
		}
	}
	return divs, st, nil
}

func runSchedule(ctx context.Context, cfg CrashConfig, i int, st *CrashStats) (*Divergence, error) {
	root := filepath.Join(cfg.Dir, fmt.Sprintf("s%d", i))
	s := drawSchedule(cfg.Seed, i, filepath.Join(root, "stage"), cfg.Windowed)
	c := &crashRun{schedule: s, cfg: cfg, data: filepath.Join(root, "data"), stage: s.t.Location,
		src: filepath.Join(root, "src") + "/", out: filepath.Join(root, "out") + "/", bat: filepath.Join(root, "batch") + "/"}
	defer os.RemoveAll(root)
	st.Schedules++
	src := *s.t
	src.Name, src.Location, src.Batches = "src", c.src, nil
	var flush *Table
	if s.win != nil {
		src.Watermark = evColumn + " AS " + evColumn + " - " + evDelay
		flush = s.win.flushTable(s.t, root)
	}
	var cols []string
	for j, ty := range s.types {
		cols = append(cols, fmt.Sprintf("o%d %s", j, ty))
	}
	sinkCols := "(" + strings.Join(cols, ", ") + ") USING " + s.sinkFormat
	c.setup = append(s.t.Statements(), src.Statements()[0],
		"CREATE TABLE out "+sinkCols+" LOCATION '"+c.out+"'",
		"CREATE TABLE batch "+sinkCols+" LOCATION '"+c.bat+"'")
	if flush != nil {
		c.setup = append(c.setup, flush.Statements()...)
	}
	batch := "INSERT INTO batch " + s.selectFrom("t")
	c.stmt = "INSERT STREAM INTO out " + s.selectFrom("src") + fmt.Sprintf(
		" WITH (name = 'fz', trigger = 'available_now', max_files_per_trigger = %d, checkpoint_location = '%s')",
		s.maxFiles, filepath.Join(root, "cp"))

	eng, err := engine.Open(engine.Options{DataDir: c.data})
	if err != nil {
		return nil, err
	}
	if err := createOn(ctx, eng, c.setup); err != nil {
		st.Skipped++
		return &Divergence{Seed: cfg.Seed, Oracle: "crash-setup", Query1: err.Error(), Repro: c.repro()}, nil
	}
	if _, err := eng.Execute(ctx, batch); err != nil {
		// The query fails on these rows (an ANSI error): nothing to
		// compare the stream with.
		st.Skipped++
		return nil, nil
	}
	c.setup = append(c.setup, batch)
	eng.Close()

	files, err := inputFiles(c.stage)
	if err != nil {
		return nil, err
	}
	st.Files += len(files)
	order := s.r.Perm(len(files))
	if cfg.DropFile && len(order) > 0 {
		order = order[1:]
	}
	for len(order) > 0 {
		n := 1 + s.r.IntN(len(order))
		group := order[:n]
		order = order[n:]
		var names []string
		for _, j := range group {
			if err := moveInto(c.stage, c.src, files[j]); err != nil {
				return nil, err
			}
			names = append(names, files[j])
		}
		c.log = append(c.log, "-- files land: "+strings.Join(names, ", "))
		if d, err := c.catchUp(st); d != nil || err != nil {
			return d, err
		}
	}
	if flush != nil {
		if d, err := c.landFlush(flush, st); d != nil || err != nil {
			return d, err
		}
	}

	eng, err = engine.Open(engine.Options{DataDir: c.data})
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	want, got := query(ctx, eng, "SELECT * FROM batch"), query(ctx, eng, "SELECT * FROM out")
	st.Rows += len(got.rows)
	if s.win != nil {
		st.Windowed++
		st.WindowRows += len(got.rows)
	}
	if want.err != nil || !got.equal(want) {
		return &Divergence{Seed: cfg.Seed, Oracle: "crash", Query1: batch + "\n-- then SELECT * FROM batch", Answer1: want.String(),
			Query2: c.stmt + "\n" + strings.Join(c.log, "\n") + "\n-- then SELECT * FROM out", Answer2: got.String(), Repro: c.repro()}, nil
	}
	return nil, nil
}

// catchUp runs the stream over what has landed: a child process killed
// at a drawn crash point (on the first run two times in three, on each of
// the next two one time in three), then restarts until a run ends by
// itself (one that never reaches its point ends by itself too).
func (c *crashRun) catchUp(st *CrashStats) (*Divergence, error) {
	for attempt := 0; ; attempt++ {
		spec := ""
		if (attempt == 0 && c.r.IntN(3) != 0) || (attempt > 0 && attempt < 3 && c.r.IntN(3) == 0) {
			spec = fmt.Sprintf("%s#%d", crashPoints[c.r.IntN(len(crashPoints))], 1+c.r.IntN(3))
		}
		killed, code, stderr, err := c.child(spec)
		st.Children++
		if err != nil {
			return nil, err
		}
		switch {
		case killed:
			st.Kills++
			st.KillsAt[strings.Split(spec, "#")[0]]++
			c.log = append(c.log, "-- killed at "+spec+", restarted")
		case code == 0:
			if spec != "" {
				c.log = append(c.log, "-- ran to the end (never reached "+spec+")")
			} else {
				c.log = append(c.log, "-- ran to the end")
			}
			return nil, nil
		default:
			return &Divergence{Seed: c.seed, Oracle: "crash", Query1: "INSERT INTO batch " + c.selectFrom("t"), Answer1: "(succeeded)",
				Query2: c.stmt + "\n" + strings.Join(c.log, "\n"), Answer2: fmt.Sprintf("stream exited %d: %s", code, stderr), Repro: c.repro()}, nil
		}
		if attempt > 10 {
			return nil, errors.New("killed more than ten times in a row")
		}
	}
}

// child runs one stream process with crash spec (none if empty).
func (c *crashRun) child(spec string) (killed bool, code int, stderr string, err error) {
	cmd := exec.Command(c.cfg.Child, "-test.run=^$")
	cmd.Env = append(os.Environ(), envCrashDir+"="+c.data, envCrashStmt+"="+c.stmt)
	if spec != "" {
		cmd.Env = append(cmd.Env, envCrashAt+"="+spec)
	}
	var buf bytes.Buffer
	cmd.Stderr = &buf
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true, 0, buf.String(), nil
		}
		return false, ee.ExitCode(), buf.String(), nil
	}
	return false, 0, buf.String(), err
}

// repro is the schedule as a script: setup, batch, the stream's runs.
func (c *crashRun) repro() string {
	return fmt.Sprintf("-- crash schedule %d of seed %d\n%s\n%s\n%s", c.index, c.seed, joinQueries(c.setup...), c.stmt, strings.Join(c.log, "\n"))
}

// inputFiles lists the data files under dir (relative paths, Hive
// folders included), in an order that does not depend on their random
// names: by folder, then by content.
func inputFiles(dir string) ([]string, error) {
	type file struct{ rel, key string }
	var fs_ []file
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h := sha256.Sum256(b)
		fs_ = append(fs_, file{rel, filepath.Dir(rel) + "\x00" + string(h[:])})
		return nil
	})
	slices.SortFunc(fs_, func(a, b file) int { return strings.Compare(a.key, b.key) })
	var out []string
	for _, f := range fs_ {
		out = append(out, f.rel)
	}
	return out, err
}

// moveInto renames rel from dir from into dir to (a file landing).
func moveInto(from, to, rel string) error {
	dst := filepath.Join(to, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Rename(filepath.Join(from, rel), dst)
}
