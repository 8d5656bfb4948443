package file

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

var t0 = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// landing is a local directory files land in, each with a chosen mtime
// so latest_first and max_file_age decide deterministically.
type landing struct {
	t   *testing.T
	dir string
}

func newLanding(t *testing.T) *landing { return &landing{t: t, dir: t.TempDir()} }

// add writes name with size bytes of rows, modified at t0+min minutes.
func (l *landing) add(name string, min int, content string) {
	l.t.Helper()
	p := filepath.Join(l.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		l.t.Fatal(err)
	}
	mt := t0.Add(time.Duration(min) * time.Minute)
	if err := os.Chtimes(p, mt, mt); err != nil {
		l.t.Fatal(err)
	}
}

// driver runs a StreamSource's epochs the way stream.Query does:
// Latest, Plan, Commit; restart makes a new source and Recovers it.
type driver struct {
	t     *testing.T
	opts  map[string]string
	dir   string
	area  connector.CheckpointArea
	src   *StreamSource
	epoch int64
	warns []string
}

func newDriver(t *testing.T, dir string, opts map[string]string) *driver {
	name := strings.NewReplacer("/", "_").Replace(t.Name())
	storage.DropMemStore(name)
	d := &driver{t: t, opts: opts, dir: dir,
		area: connector.CheckpointArea{Store: storage.NamedMemStore(name), Prefix: "cp/sources/0/"}}
	d.restart()
	return d
}

func (d *driver) restart() {
	d.t.Helper()
	sch := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "land", Using: "json", Location: d.dir + "/", Options: d.opts, Schema: sch})
	if err != nil {
		d.t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		d.t.Fatal(err)
	}
	ss.Warnf = func(f string, a ...any) { d.warns = append(d.warns, fmt.Sprintf(f, a...)) }
	if err := ss.Recover(context.Background(), d.area, d.epoch-1); err != nil {
		d.t.Fatal(err)
	}
	d.src = ss
}

// next runs one epoch and returns its files' base names (nil: a no-op
// trigger, nothing new).
func (d *driver) next() []string {
	d.t.Helper()
	ctx := context.Background()
	off, err := d.src.Latest(ctx)
	if err != nil {
		d.t.Fatal(err)
	}
	if off == nil {
		return nil
	}
	splits, err := d.src.Plan(ctx, nil, off)
	if err != nil {
		d.t.Fatal(err)
	}
	var names []string
	for _, s := range splits {
		names = append(names, filepath.Base(s.ID()[:strings.IndexAny(s.ID()+"@#", "@#")]))
	}
	if err := d.src.Commit(ctx, d.epoch, off); err != nil {
		d.t.Fatal(err)
	}
	d.epoch++
	sort.Strings(names)
	return names
}

// script is a stream scenario: before each epoch, files land; then the
// epoch must take exactly want.
type step struct {
	land func(l *landing)
	want string // comma-separated base names; "" for a no-op trigger
}

func runScript(t *testing.T, opts map[string]string, steps []step, restartAt int) []string {
	l := newLanding(t)
	d := newDriver(t, l.dir, opts)
	var got []string
	for i, s := range steps {
		if i == restartAt {
			d.restart()
		}
		if s.land != nil {
			s.land(l)
		}
		names := strings.Join(d.next(), ",")
		got = append(got, names)
		if names != s.want {
			t.Fatalf("epoch step %d (restart at %d): took [%s], want [%s]", i, restartAt, names, s.want)
		}
	}
	return append(got, d.warns...)
}

func rowsJSON(ids ...int) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "{\"id\": %d}\n", id)
	}
	return b.String()
}

// TestStreamSourceScenarios: every discovery mode and option, each run
// straight through and again with a restart (Recover from the
// checkpoint) in the middle; both must take the same files per epoch.
func TestStreamSourceScenarios(t *testing.T) {
	add := func(files ...string) func(*landing) {
		return func(l *landing) {
			for _, f := range files {
				name, min, _ := strings.Cut(f, "@")
				var m int
				fmt.Sscan(min, &m)
				l.add(name, m, rowsJSON(m))
			}
		}
	}
	big := func(name string, min, rows int) func(*landing) {
		return func(l *landing) {
			ids := make([]int, rows)
			l.add(name, min, rowsJSON(ids...))
		}
	}
	cases := []struct {
		name  string
		opts  map[string]string
		steps []step
		warn  string
	}{
		{"full: new files between epochs, no-op when nothing new", nil, []step{
			{add("a.json@1", "b.json@2"), "a.json,b.json"},
			{nil, ""},
			{add("c.json@3"), "c.json"},
			{add("0-early-key.json@4"), "0-early-key.json"},
			{nil, ""},
		}, ""},
		{"start_after: only keys after the last one", map[string]string{"discovery": "start_after"}, []step{
			{add("2026/11/30/00.json@1", "2026/11/30/01.json@2"), "00.json,01.json"},
			{add("2026/11/30/02.json@3"), "02.json"},
			// A key sorting before the last one is never listed again.
			{add("2026/11/29/23.json@4"), ""},
			{add("2026/12/01/00.json@5"), "00.json"},
		}, ""},
		{"max_files_per_trigger, oldest first", map[string]string{"max_files_per_trigger": "2"}, []step{
			{add("e.json@5", "d.json@4", "c.json@3", "b.json@2", "a.json@1"), "a.json,b.json"},
			{nil, "c.json,d.json"},
			{nil, "e.json"},
			{nil, ""},
		}, ""},
		{"latest_first", map[string]string{"max_files_per_trigger": "2", "latest_first": "true"}, []step{
			{add("a.json@1", "b.json@2", "c.json@3"), "b.json,c.json"},
			{add("d.json@4"), "a.json,d.json"},
			{nil, ""},
		}, ""},
		{"max_bytes_per_trigger, at least one file", map[string]string{"max_bytes_per_trigger": "25"}, []step{
			{big("huge.json", 1, 10), "huge.json"},
			{add("a.json@2", "b.json@3", "c.json@4"), "a.json,b.json"},
			{nil, "c.json"},
		}, ""},
		{"max_file_age relative to the newest file", map[string]string{"max_file_age": "1h"}, []step{
			{add("old.json@0", "new.json@120"), "new.json"},
			{add("mid.json@100"), "mid.json"},
			{add("stale.json@30"), ""},
		}, ""},
		{"changed etag ignored with a warning", nil, []step{
			{add("a.json@1"), "a.json"},
			{add("a.json@2"), ""},
			{nil, ""},
		}, "a.json changed after it was read"},
		{"changed etag re-read", map[string]string{"reprocess_changed_files": "true"}, []step{
			{add("a.json@1"), "a.json"},
			{add("a.json@2"), "a.json"},
			{nil, ""},
		}, ""},
		{"skip_files", map[string]string{"skip_files": "bad*.json"}, []step{
			{add("a.json@1", "bad1.json@2"), "a.json"},
			{nil, ""},
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			straight := runScript(t, c.opts, c.steps, -1)
			n := len(c.steps)
			for r := 1; r < n; r++ {
				restarted := runScript(t, c.opts, c.steps, r)
				if strings.Join(straight[:n], ";") != strings.Join(restarted[:n], ";") {
					t.Fatalf("restart at %d: %v, straight: %v", r, restarted, straight)
				}
				// A process warns once per changed file; a restarted one
				// may warn again.
				if len(restarted)-n > 2 {
					t.Fatalf("restart at %d: too many warnings: %v", r, restarted[n:])
				}
			}
			warns := strings.Join(straight[n:], "\n")
			if (c.warn == "") != (warns == "") || !strings.Contains(warns, c.warn) {
				t.Fatalf("warnings %q, want %q", warns, c.warn)
			}
			if strings.Count(warns, "\n") > 0 {
				t.Fatalf("a changed file should warn once: %q", warns)
			}
		})
	}
}

// TestStartAfterThenFull: start_after snapshots keep no seen set; a
// stream switched to full discovery afterwards must still not re-read
// what start_after read.
func TestStartAfterThenFull(t *testing.T) {
	l := newLanding(t)
	d := newDriver(t, l.dir, map[string]string{"discovery": "start_after"})
	for i := 0; i < compactEvery+1; i++ {
		l.add(fmt.Sprintf("k%02d.json", i), i, rowsJSON(i))
		if got := d.next(); len(got) != 1 {
			t.Fatalf("epoch %d took %v", i, got)
		}
	}
	d.opts = map[string]string{"discovery": "full"}
	d.restart()
	if got := d.next(); got != nil {
		t.Fatalf("switched to full discovery, it re-read %v", got)
	}
	// Keys up to the last one start_after read count as read (it would
	// never have listed them either); later keys are new.
	l.add("a-early.json", 98, rowsJSON(98))
	l.add("z-late.json", 99, rowsJSON(99))
	if got := strings.Join(d.next(), ","); got != "z-late.json" {
		t.Fatalf("took %q, want z-late.json", got)
	}
}
