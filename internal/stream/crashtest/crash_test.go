package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sluice/internal/engine"
	"sluice/internal/stream"
	"sluice/internal/testutil/s3server"
)

// The child side: when SLUICE_CRASH_CHILD is set, the test binary runs
// one stream and exits instead of running tests.
const (
	envChild = "SLUICE_CRASH_CHILD" // the data directory
	envPoint = "SLUICE_CRASHPOINT"  // "after-flush:3": SIGKILL there
	envSetup = "SLUICE_CRASH_SETUP" // statements before the stream, ";\n"-separated
	envStmt  = "SLUICE_CRASH_STMT"  // the INSERT STREAM
	envHold  = "SLUICE_CRASH_HOLD"  // sleep this long inside each epoch (lock races)
)

var s3srv *s3server.Server

func TestMain(m *testing.M) {
	if dir := os.Getenv(envChild); dir != "" {
		os.Exit(child(dir))
	}
	code := m.Run()
	s3srv.Stop()
	stopNotify()
	osNode.Close() // nil-safe
	os.Exit(code)
}

func child(dir string) int {
	if p := os.Getenv(envPoint); p != "" {
		stream.CrashHook = crashAt(p)
	}
	if h := os.Getenv(envHold); h != "" {
		d, _ := time.ParseDuration(h)
		stream.CrashHook = func(at string, _ int64) {
			if at == "planned" {
				time.Sleep(d)
			}
		}
	}
	eng, err := engine.Open(engine.Options{DataDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2
	}
	defer eng.Close()
	ctx := context.Background()
	for _, q := range strings.Split(os.Getenv(envSetup), ";\n") {
		if strings.TrimSpace(q) == "" {
			continue
		}
		if _, err := eng.Execute(ctx, q); err != nil {
			fmt.Fprintln(os.Stderr, "child setup:", err)
			return 2
		}
	}
	if _, err := eng.Execute(ctx, os.Getenv(envStmt)); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		if errors.Is(err, stream.ErrLocked) {
			return 4
		}
		return 3
	}
	return 0
}

// run is one child run's outcome.
// crashAt reads "point:N" (at epoch N) or "point#K" (the K-th time this
// process reaches point) and returns the hook that SIGKILLs there.
func crashAt(spec string) func(string, int64) {
	point, nth, relative := strings.Cut(spec, "#")
	epoch := int64(-1)
	if !relative {
		var ep string
		point, ep, _ = strings.Cut(spec, ":")
		epoch, _ = strconv.ParseInt(ep, 10, 64)
	}
	k, _ := strconv.Atoi(nth)
	seen := 0
	return func(at string, n int64) {
		if at != point {
			return
		}
		seen++
		if (relative && seen == k) || (!relative && n == epoch) {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}
}

type run struct {
	killed bool
	code   int
	stderr string
	took   time.Duration
}

// scenario is a stream over a directory of input files.
type scenario struct {
	dataDir string
	// session runs first in every engine (SET s3.* for S3 checkpoints).
	session []string
	// files is how many input files have landed; more lands n more (a
	// stream that caught up before enough kills gets a new backlog).
	files int
	more  func(t *testing.T, from, n int)
	setup []string
	stmt  string
	env   []string
}

// start launches one child.
func (s *scenario) start(t *testing.T, extra ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"="+s.dataDir, envSetup+"="+strings.Join(append(append([]string{}, s.session...), s.setup...), ";\n"), envStmt+"="+s.stmt)
	cmd.Env = append(cmd.Env, s.env...)
	cmd.Env = append(cmd.Env, extra...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// runChild runs one child, killing it after killAfter (0: never).
func (s *scenario) runChild(t *testing.T, killAfter time.Duration, extra ...string) run {
	t.Helper()
	t0 := time.Now()
	cmd, stderr := s.start(t, extra...)
	if killAfter > 0 {
		timer := time.AfterFunc(killAfter, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
		defer timer.Stop()
	}
	err := cmd.Wait()
	r := run{stderr: stderr.String(), took: time.Since(t0)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			r.killed = true
		} else {
			r.code = ee.ExitCode()
		}
	default:
		t.Fatal(err)
	}
	return r
}

// catchUp restarts the stream until a run ends by itself; a lease left by
// a killed S3 run makes restarts fail with "already running" until it
// expires.
func (s *scenario) catchUp(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		r := s.runChild(t, 0)
		switch {
		case r.code == 0 && !r.killed:
			return
		case r.code == 4 && time.Now().Before(deadline):
			time.Sleep(200 * time.Millisecond)
		default:
			t.Fatalf("restart failed (code %d): %s", r.code, r.stderr)
		}
	}
}

// rows reads a table's rows, sorted, in a fresh engine over the data dir.
func (s *scenario) rows(t *testing.T, q string) []string {
	t.Helper()
	eng, err := engine.Open(engine.Options{DataDir: s.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, q := range s.session {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	res, err := eng.Execute(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	last := res[len(res)-1]
	var out []string
	for _, b := range last.Batches {
		for r := 0; r < int(b.NumRows()); r++ {
			var cells []string
			for c := 0; c < int(b.NumCols()); c++ {
				cells = append(cells, b.Column(c).ValueStr(r))
			}
			out = append(out, strings.Join(cells, "|"))
		}
	}
	sort.Strings(out)
	return out
}

func (s *scenario) exec(t *testing.T, qs ...string) {
	t.Helper()
	qs = append(append([]string{}, s.session...), qs...)
	eng, err := engine.Open(engine.Options{DataDir: s.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, q := range qs {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// writeInputs writes n JSON files of per rows each (ids unique overall).
func writeInputs(t *testing.T, dir string, n, per int) {
	writeInputsFrom(t, dir, 0, n, per)
}

// writeInputsFrom writes files from..from+n-1.
func writeInputsFrom(t *testing.T, dir string, from, n, per int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := from; i < from+n; i++ {
		var b strings.Builder
		for j := 0; j < per; j++ {
			id := i*per + j
			fmt.Fprintf(&b, "{\"id\": %d, \"status\": %d, \"msg\": \"m%d\"}\n", id, 200+id%5*100, id%7)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.json", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// compare checks the streamed table against a batch INSERT of the same
// query: equal multisets, so a duplicate or a loss both fail.
func (s *scenario) compare(t *testing.T, wantRows int) {
	t.Helper()
	got := s.rows(t, "SELECT id, status, msg FROM out")
	want := s.rows(t, "SELECT id, status, msg FROM batch")
	if len(want) != wantRows {
		t.Fatalf("batch INSERT wrote %d rows, want %d", len(want), wantRows)
	}
	if len(got) != len(want) {
		t.Fatalf("stream wrote %d rows, batch %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d: stream %q, batch %q", i, got[i], want[i])
		}
	}
}

var points = []string{"planned", "decoding", "sink-write", "after-flush", "after-commit", "done"}

// killLoop kills the stream at least kills times: mostly at crash points
// (seeded, so each CI run hits the same schedule), every fourth run at a
// random moment by the parent instead; then restarts until caught up.
func (s *scenario) killLoop(t *testing.T, kills int, seed uint64) (killed, finished int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; killed < kills; i++ {
		var r run
		if i%4 == 3 {
			r = s.runChild(t, time.Duration(20+rng.IntN(250))*time.Millisecond)
		} else {
			p := fmt.Sprintf("%s#%d", points[rng.IntN(len(points))], 1+rng.IntN(2))
			r = s.runChild(t, 0, envPoint+"="+p)
		}
		switch {
		case r.killed:
			killed++
		case r.code == 0:
			finished++
			s.more(t, s.files, 20)
			s.files += 20
		case r.code == 4:
			time.Sleep(200 * time.Millisecond) // a dead S3 run's lease
		default:
			t.Fatalf("run %d failed (code %d): %s", i, r.code, r.stderr)
		}
	}
	s.catchUp(t)
	return killed, finished
}

func localScenario(t *testing.T, nFiles int) *scenario {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeInputs(t, in, nFiles, 50)
	return &scenario{
		files:   nFiles,
		more:    func(t *testing.T, from, n int) { writeInputsFrom(t, in, from, n, 50) },
		dataDir: filepath.Join(dir, "data"),
		setup: []string{
			"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION '" + in + "/'",
			"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "out") + "/'",
			"CREATE TABLE IF NOT EXISTS batch (id BIGINT, status INT, msg STRING) USING parquet LOCATION '" + filepath.Join(dir, "batch") + "/'",
		},
		stmt: "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE status < 500 " +
			"WITH (name = 'feed', trigger = 'available_now', max_files_per_trigger = 1, checkpoint_location = '" + filepath.Join(dir, "cp") + "')",
	}
}

// TestCrashRecoveryLocal: the stream straight through, then the same
// stream SIGKILLed at 50+ points and restarted until caught up; both
// equal the batch INSERT row for row.
func TestCrashRecoveryLocal(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(map[bool]string{false: "straight", true: "killed"}[crash], func(t *testing.T) {
			s := localScenario(t, 100)
			t0 := time.Now()
			if crash {
				killed, finished := s.killLoop(t, 50, 42)
				t.Logf("%d kills, %d runs caught up before the end, %d files, done in %s", killed, finished, s.files, time.Since(t0))
			} else {
				s.catchUp(t)
			}
			s.exec(t, "INSERT INTO batch SELECT id, status, msg FROM src WHERE status < 500")
			s.compare(t, s.files*50*3/5)
		})
	}
}
