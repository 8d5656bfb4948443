package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// goBackground runs background streams in goroutines (the server's
// Scheduler without its epoch slots).
type goBackground struct {
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

func newGoBackground() *goBackground {
	ctx, cancel := context.WithCancel(context.Background())
	return &goBackground{ctx: ctx, cancel: cancel}
}

func (b *goBackground) Go(_ string, run func(context.Context) error) {
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		_ = run(b.ctx)
	}()
}

func (b *goBackground) stop() {
	b.cancel()
	b.wg.Wait()
}

// skipCounts reads files= and skipped= of the scan out of EXPLAIN.
func skipCounts(t *testing.T, eng *Engine, q string) (files, skipped string) {
	t.Helper()
	plan := strings.Join(queryRows(t, eng, "EXPLAIN "+q), "\n")
	f := regexp.MustCompile(`files=(\d+)`).FindStringSubmatch(plan)
	s := regexp.MustCompile(`skipped=(\d+)`).FindStringSubmatch(plan)
	if f == nil {
		t.Fatalf("no files= in the plan:\n%s", plan)
	}
	if s == nil {
		return f[1], ""
	}
	return f[1], s[1]
}

// TestSkippingIndexReadsFewerFilesSameAnswer: over 40 files, selective
// queries give the same rows with the skipping index as without it, and
// read only the files that can match.
func TestSkippingIndexReadsFewerFilesSameAnswer(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for f := range 40 {
		var b strings.Builder
		for r := range 25 {
			id := f*25 + r
			fmt.Fprintf(&b, "{\"id\": %d, \"code\": \"c%d\", \"host\": \"h%d\"}\n", id, f%4, id)
		}
		writeFile(t, filepath.Join(in, fmt.Sprintf("f%02d.json", f)), b.String())
	}
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := eng.Execute(ctx, "CREATE TABLE logs (id INT, code STRING, host STRING) USING json LOCATION '"+in+"/'"); err != nil {
		t.Fatal(err)
	}
	// Bloom filters may let a few more files through (3% false
	// positives each): most is the most files a query may read.
	queries := []struct {
		q           string
		least, most int
	}{
		{"SELECT id, host FROM logs WHERE id = 517", 1, 1},
		{"SELECT id FROM logs WHERE id BETWEEN 100 AND 149", 2, 2},
		{"SELECT count(*) FROM logs WHERE host = 'h733'", 1, 4},
		{"SELECT count(*) FROM logs WHERE code = 'c3'", 10, 10},
		{"SELECT count(*) FROM logs WHERE code = 'c9'", 0, 0},
		{"SELECT count(*) FROM logs WHERE host IN ('h1', 'h999')", 2, 6},
	}
	var before [][]string
	for _, c := range queries {
		got := queryRows(t, eng, c.q)
		slices.Sort(got)
		before = append(before, got)
	}
	if _, err := eng.Execute(ctx, "CREATE SKIPPING INDEX ON logs (id MIN_MAX, code VALUE_SET, host BLOOM_FILTER)"); err != nil {
		t.Fatal(err)
	}
	for i, c := range queries {
		got := queryRows(t, eng, c.q)
		slices.Sort(got)
		if !slices.Equal(got, before[i]) {
			t.Errorf("%s: %v with the index, %v without", c.q, got, before[i])
		}
		files, skipped := skipCounts(t, eng, c.q)
		n, _ := strconv.Atoi(files)
		if n < c.least || n > c.most || skipped == "" {
			t.Errorf("%s: read files=%s skipped=%s, want %d to %d files", c.q, files, skipped, c.least, c.most)
		}
	}
	// A predicate the index cannot judge reads everything.
	if files, _ := skipCounts(t, eng, "SELECT count(*) FROM logs WHERE host LIKE 'h7%'"); files != "40" {
		t.Errorf("LIKE read %s files, want 40", files)
	}
}

// TestSkippingIndexAutoRefresh: with auto_refresh the index's stream
// runs in the background and indexes files as they land; ALTER stops it;
// after a restart, Resume starts it again.
func TestSkippingIndexAutoRefresh(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"id\": 1}\n{\"id\": 2}\n")
	bg := newGoBackground()
	defer bg.stop()
	data := filepath.Join(dir, "data")
	eng, err := Open(Options{DataDir: data, Background: bg})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exec := func(eng *Engine, q string) {
		t.Helper()
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(eng, "CREATE TABLE logs (id INT) USING json LOCATION '"+in+"/'")
	exec(eng, "CREATE SKIPPING INDEX ON logs (id MIN_MAX) WITH (auto_refresh = true, refresh_interval = '200 milliseconds')")
	indexed := func(eng *Engine, want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			got := queryRows(t, eng, "SELECT count(*) FROM flint_spark_catalog_default_logs_skipping_index")
			if len(got) == 1 && got[0] == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("index holds %v files, want %s", got, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	indexed(eng, "1")
	show := strings.Join(queryRows(t, eng, "SHOW FLINT INDEXES"), "\n")
	if !strings.Contains(show, "skipping default logs NULL true refreshing") {
		t.Fatalf("SHOW FLINT INDEXES:\n%s", show)
	}
	writeFile(t, filepath.Join(in, "b.json"), "{\"id\": 10}\n{\"id\": 20}\n")
	indexed(eng, "2")
	if files, skipped := skipCounts(t, eng, "SELECT id FROM logs WHERE id = 20"); files != "1" || skipped != "1" {
		t.Fatalf("files=%s skipped=%s, want the new file indexed and the old one skipped", files, skipped)
	}
	// A restarted process resumes the index's stream.
	bg.stop()
	bg2 := newGoBackground()
	defer bg2.stop()
	eng2, err := Open(Options{DataDir: data, Background: bg2})
	if err != nil {
		t.Fatal(err)
	}
	started, err := eng2.Resume(ctx)
	if err != nil || !slices.Contains(started, "si_flint_spark_catalog_default_logs_skipping_index") {
		t.Fatalf("Resume started %v, %v", started, err)
	}
	writeFile(t, filepath.Join(in, "c.json"), "{\"id\": 30}\n")
	indexed(eng2, "3")
	exec(eng2, "ALTER SKIPPING INDEX ON logs WITH (auto_refresh = false)")
	show = strings.Join(queryRows(t, eng2, "SHOW FLINT INDEXES"), "\n")
	if !strings.Contains(show, "logs NULL false active") {
		t.Fatalf("after ALTER, SHOW FLINT INDEXES:\n%s", show)
	}
	writeFile(t, filepath.Join(in, "d.json"), "{\"id\": 40}\n")
	exec(eng2, "REFRESH SKIPPING INDEX ON logs")
	indexed(eng2, "4")
	exec(eng2, "DROP SKIPPING INDEX ON logs")
}

// TestCoveringIndexAutoRefresh: Flint's "Create Index Options" example
// (checkpoint_location a local folder) runs its stream in the background
// and covers files as they land; ALTER ... auto_refresh = false stops it.
func TestCoveringIndexAutoRefresh(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeFile(t, filepath.Join(in, "a.json"), "{\"elb\": \"a\", \"requestUri\": \"/x\", \"status\": 200}\n")
	bg := newGoBackground()
	defer bg.stop()
	eng, err := Open(Options{DataDir: filepath.Join(dir, "data"), Background: bg})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := eng.Execute(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE alb_logs (elb STRING, requestUri STRING, status INT) USING json LOCATION '" + in + "/'")
	exec(`CREATE INDEX elb_and_requestUri
ON alb_logs ( elb, requestUri )
WITH (
  auto_refresh = true,
  refresh_interval = '1 minute',
  checkpoint_location = '` + filepath.Join(dir, "cp") + `'
)`)
	// The stream's first epoch runs at once, later ones every minute: the
	// second file is covered by a REFRESH once ALTER stopped the stream.
	covered := func(want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			got := queryRows(t, eng, "SELECT count(*) FROM flint_spark_catalog_default_alb_logs_elb_and_requesturi_index")
			if len(got) == 1 && got[0] == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("index holds %v rows, want %s", got, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	covered("1")
	show := strings.Join(queryRows(t, eng, "SHOW FLINT INDEXES"), "\n")
	if !strings.Contains(show, "covering default alb_logs elb_and_requestUri true refreshing") {
		t.Fatalf("SHOW FLINT INDEXES:\n%s", show)
	}
	exec("ALTER INDEX elb_and_requestUri ON alb_logs WITH (auto_refresh = false)")
	writeFile(t, filepath.Join(in, "b.json"), "{\"elb\": \"b\", \"requestUri\": \"/y\", \"status\": 404}\n")
	exec("REFRESH INDEX elb_and_requestUri ON alb_logs")
	covered("2")
	if got := strings.Join(queryRows(t, eng, "SHOW FLINT INDEXES"), "\n"); !strings.Contains(got, "elb_and_requestUri false active") {
		t.Fatalf("after ALTER, SHOW FLINT INDEXES:\n%s", got)
	}
}
