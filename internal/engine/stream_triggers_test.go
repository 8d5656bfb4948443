package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sluice/internal/stream"
)

// triggerRig runs one stream on a manual clock; files land between
// triggers and each trigger's epochs are collected.
type triggerRig struct {
	t        *testing.T
	dir, in  string
	eng      *Engine
	clock    *stream.ManualClock
	progress chan stream.Progress
	done     chan error
	stmt     string
}

func newTriggerRig(t *testing.T, stmt string) *triggerRig {
	t.Helper()
	r := &triggerRig{t: t, dir: t.TempDir(), progress: make(chan stream.Progress, 100), stmt: stmt,
		clock: stream.NewManualClock(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))}
	r.in = filepath.Join(r.dir, "in")
	eng, err := Open(Options{DataDir: filepath.Join(r.dir, "data"), Clock: r.clock, StreamProgress: func(p stream.Progress) { r.progress <- p }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	r.eng = eng
	for _, q := range []string{
		"CREATE TABLE src (id BIGINT) USING json LOCATION '" + r.in + "/' OPTIONS (recursive 'true')",
		"CREATE TABLE out (id BIGINT) USING json LOCATION '" + filepath.Join(r.dir, "out") + "/'",
	} {
		if _, err := eng.Execute(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *triggerRig) land(files ...string) {
	for _, f := range files {
		writeFile(r.t, filepath.Join(r.in, filepath.FromSlash(f)), fmt.Sprintf("{\"id\": %d}\n", len(f)))
	}
}

// start runs the statement in the background.
func (r *triggerRig) start(stmt string) {
	r.done = make(chan error, 1)
	go func() {
		_, err := r.eng.Execute(context.Background(), stmt)
		r.done <- err
	}()
}

// settle waits until the runner blocks on its trigger again and returns
// the epochs it ran meanwhile as "files/rows" strings.
func (r *triggerRig) settle() []string {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.clock.Waiters() == 0 {
		select {
		case err := <-r.done:
			r.t.Fatalf("the stream ended: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			r.t.Fatal("the runner never waited for its trigger")
		}
		time.Sleep(time.Millisecond)
	}
	var got []string
	for {
		select {
		case p := <-r.progress:
			got = append(got, fmt.Sprintf("%d:%d", p.Epoch, p.Files))
		default:
			return got
		}
	}
}

func (r *triggerRig) stop() {
	r.t.Helper()
	if _, err := r.eng.Execute(context.Background(), "STOP STREAM s"); err != nil {
		r.t.Fatal(err)
	}
	if err := <-r.done; err != nil {
		r.t.Fatal(err)
	}
}

// TestIntervalTriggerScenarios: an interval trigger on a manual clock,
// files landing between triggers, no-op triggers when nothing is new,
// in both discovery modes; run straight and with a stop and START
// STREAM at each step, the epochs and the sink's content are the same.
func TestIntervalTriggerScenarios(t *testing.T) {
	steps := []struct {
		land []string
		want string // epochs as epoch:files, "" for a no-op trigger
	}{
		{[]string{"2026/11/30/00/a.json", "2026/11/30/00/b.json", "2026/11/30/00/c.json"}, "0:2"}, // first epoch at start
		{nil, "1:1"},
		{nil, ""},
		{[]string{"2026/11/30/01/d.json"}, "2:1"},
		{nil, ""},
		{[]string{"2026/11/30/02/e.json", "2026/11/30/02/f.json"}, "3:2"},
		{nil, ""},
	}
	for _, disc := range []string{"full", "start_after"} {
		var straight string
		for restart := -1; restart < len(steps); restart++ {
			if restart == 0 {
				continue
			}
			r := newTriggerRig(t, "")
			stmt := "INSERT STREAM INTO out SELECT id FROM src WITH (name = 's', trigger = '10 seconds', max_files_per_trigger = 2, discovery = '" + disc + "')"
			for i, s := range steps {
				r.land(s.land...)
				switch {
				case i == 0:
					r.start(stmt)
				case i == restart:
					r.stop()
					// Fire the stopped run's abandoned timer, so Waiters
					// counts only the new run's.
					r.clock.Advance(10 * time.Second)
					r.start("START STREAM s")
				default:
					r.clock.Advance(10 * time.Second)
				}
				if got := strings.Join(r.settle(), ","); got != s.want {
					t.Fatalf("%s, restart at %d: step %d ran epochs [%s], want [%s]", disc, restart, i, got, s.want)
				}
			}
			r.stop()
			rows := strings.Join(queryRows(t, r.eng, "SELECT id FROM out"), ",")
			if restart < 0 {
				straight = rows
				if strings.Count(rows, ",") != 5 {
					t.Fatalf("%s: out = %s", disc, rows)
				}
			} else if rows != straight {
				t.Fatalf("%s, restart at %d: out = %s, straight %s", disc, restart, rows, straight)
			}
		}
	}
}

// TestOnceTrigger: each run of a 'once' stream is one epoch with what is
// new (within the rate limits), and a run with nothing new is no epoch.
func TestOnceTrigger(t *testing.T) {
	r := newTriggerRig(t, "")
	stmt := "INSERT STREAM INTO out SELECT id FROM src WITH (name = 's', trigger = 'once')"
	runOnce := func() []string {
		t.Helper()
		if _, err := r.eng.Execute(context.Background(), stmt); err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			select {
			case p := <-r.progress:
				got = append(got, fmt.Sprintf("%d:%d", p.Epoch, p.Files))
			default:
				return got
			}
		}
	}
	r.land("a.json", "bb.json")
	if got := strings.Join(runOnce(), ","); got != "0:2" {
		t.Fatalf("first run: %s", got)
	}
	if got := strings.Join(runOnce(), ","); got != "" {
		t.Fatalf("nothing new should be no epoch: %s", got)
	}
	r.land("ccc.json")
	if got := strings.Join(runOnce(), ","); got != "1:1" {
		t.Fatalf("third run: %s", got)
	}
	if got := strings.Join(queryRows(t, r.eng, "SELECT id FROM out"), ","); got != "6,7,8" {
		t.Fatalf("out = %s", got)
	}
}

// TestAvailableNowBound: available_now takes the backlog that existed
// when it started, in rate-limited epochs, then stops; a file landing
// during the run waits for the next run. Both discovery modes.
func TestAvailableNowBound(t *testing.T) {
	for _, disc := range []string{"full", "start_after"} {
		r := newTriggerRig(t, "")
		r.land("d1/a.json", "d1/bb.json", "d1/ccc.json")
		landed := false
		r.eng.opts.StreamProgress = func(p stream.Progress) {
			if !landed {
				landed = true
				r.land("d2/dddd.json") // mid-run
			}
			r.progress <- p
		}
		stmt := "INSERT STREAM INTO out SELECT id FROM src WITH (name = 's', trigger = 'available_now', max_files_per_trigger = 2, discovery = '" + disc + "')"
		collect := func() string {
			t.Helper()
			if _, err := r.eng.Execute(context.Background(), stmt); err != nil {
				t.Fatal(err)
			}
			var got []string
			for {
				select {
				case p := <-r.progress:
					got = append(got, fmt.Sprintf("%d:%d", p.Epoch, p.Files))
				default:
					return strings.Join(got, ",")
				}
			}
		}
		if got := collect(); got != "0:2,1:1" {
			t.Fatalf("%s: first run epochs %s, want 0:2,1:1 (the backlog only)", disc, got)
		}
		if got := collect(); got != "2:1" {
			t.Fatalf("%s: second run epochs %s, want 2:1 (the file that landed mid-run)", disc, got)
		}
		if got := collect(); got != "" {
			t.Fatalf("%s: caught up, yet ran %s", disc, got)
		}
		if got := strings.Join(queryRows(t, r.eng, "SELECT id FROM out"), ","); got != "10,11,12,9" {
			t.Fatalf("%s: out = %s", disc, got)
		}
	}
}
