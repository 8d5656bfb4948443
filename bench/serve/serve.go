// Package serve measures `sluice serve` from outside, as its clients see
// it: a server in a child process (so its RSS is its own), small queries
// over /_plugins/_sql from 1, 16 and 64 concurrent clients, the server's
// memory idle and with many streams, and a stream's throughput with and
// without the API under load.
package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure one measurement run.
type Options struct {
	// Dir holds the data and the server's data dir (made if missing).
	Dir string
	// Self is the executable that serves when run as Self ChildArgs...
	Self      string
	ChildArgs []string
	// Duration is how long each latency level runs.
	Duration time.Duration
	// Clients are the concurrency levels of the latency runs.
	Clients []int
	// Streams is how many streams run for the memory figure.
	Streams int
	// StreamRows and StreamFiles size the throughput stream's input.
	StreamRows, StreamFiles int
	// LoadClients query while the loaded throughput stream runs.
	LoadClients int
	Log         io.Writer
}

// Latency is one concurrency level's figures.
type Latency struct {
	Clients int     `json:"clients"`
	Queries int     `json:"queries"`
	Errors  int     `json:"errors"`
	QPS     float64 `json:"qps"`
	P50ms   float64 `json:"p50_ms"`
	P99ms   float64 `json:"p99_ms"`
}

// Throughput is one stream's run over the whole input.
type Throughput struct {
	Load       string  `json:"load"`
	Rows       int64   `json:"rows"`
	Seconds    float64 `json:"seconds"`
	RowsPerSec float64 `json:"rows_per_second"`
	// Queries, QPS and P99ms are the load's, when there was one.
	Queries int     `json:"queries,omitempty"`
	QPS     float64 `json:"qps,omitempty"`
	P99ms   float64 `json:"p99_ms,omitempty"`
	Errors  int     `json:"errors,omitempty"`
}

// Report is every figure of a run.
type Report struct {
	Query          string       `json:"query"`
	Latency        []Latency    `json:"latency"`
	RSSIdleMB      float64      `json:"rss_idle_mb"`
	RSSStreamsMB   float64      `json:"rss_streams_mb"`
	Streams        int          `json:"streams"`
	PeakRSSMB      float64      `json:"peak_rss_mb"`
	Throughput     []Throughput `json:"throughput"`
	GOMAXPROCS     int          `json:"gomaxprocs"`
	StartedUTC     time.Time    `json:"started_utc"`
	DurationPerRun string       `json:"duration_per_level"`
}

const smallRows = 1000

// SmallQuery is the query the latency runs repeat (id varies).
const SmallQuery = "SELECT id, name FROM small WHERE id = %d"

type bench struct {
	o    Options
	url  string
	http *http.Client
	cmd  *exec.Cmd
}

func (b *bench) logf(format string, args ...any) {
	if b.o.Log != nil {
		fmt.Fprintf(b.o.Log, format+"\n", args...)
	}
}

// Run starts the server, measures, and stops it.
func Run(ctx context.Context, o Options) (*Report, error) {
	rep := &Report{Query: fmt.Sprintf(SmallQuery, 42), StartedUTC: time.Now().UTC(), DurationPerRun: o.Duration.String(), Streams: o.Streams}
	if err := writeData(o); err != nil {
		return nil, err
	}
	b := &bench{o: o, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: time.Minute}}
	if err := b.start(ctx); err != nil {
		return nil, err
	}
	defer b.stop()
	if err := b.setup(); err != nil {
		return nil, err
	}
	time.Sleep(2 * time.Second)
	rep.RSSIdleMB = b.rss("VmRSS")
	b.logf("idle RSS %.1f MB", rep.RSSIdleMB)
	for _, c := range o.Clients {
		l := b.latency(ctx, c, o.Duration)
		b.logf("%d clients: %d queries, %d errors, %.0f q/s, p50 %.2f ms, p99 %.2f ms", c, l.Queries, l.Errors, l.QPS, l.P50ms, l.P99ms)
		rep.Latency = append(rep.Latency, l)
	}
	for i, load := range []int{0, o.LoadClients} {
		tp, err := b.throughput(ctx, fmt.Sprintf("tp%d", i), load)
		if err != nil {
			return nil, err
		}
		b.logf("stream throughput (%s): %d rows in %.2f s = %.0f rows/s", tp.Load, tp.Rows, tp.Seconds, tp.RowsPerSec)
		rep.Throughput = append(rep.Throughput, tp)
	}
	if err := b.manyStreams(o.Streams); err != nil {
		return nil, err
	}
	rep.RSSStreamsMB, rep.PeakRSSMB = b.rss("VmRSS"), b.rss("VmHWM")
	b.logf("RSS with %d streams %.1f MB (peak %.1f MB)", o.Streams, rep.RSSStreamsMB, rep.PeakRSSMB)
	rep.GOMAXPROCS = runtime.GOMAXPROCS(0)
	return rep, nil
}

// writeData writes the small table and the throughput stream's input.
func writeData(o Options) error {
	var sb strings.Builder
	for i := 0; i < smallRows; i++ {
		fmt.Fprintf(&sb, `{"id": %d, "name": "n%d", "status": %d}`+"\n", i, i, 200+i%5*100)
	}
	if err := writeFile(filepath.Join(o.Dir, "small", "part0.json"), sb.String()); err != nil {
		return err
	}
	per := max(o.StreamRows/max(o.StreamFiles, 1), 1)
	for f := 0; f < o.StreamFiles; f++ {
		var eb strings.Builder
		for i := 0; i < per; i++ {
			id := f*per + i
			fmt.Fprintf(&eb, `{"id": %d, "path": "/p/%d", "status": %d, "bytes": %d}`+"\n", id, id%97, 200+id%5*100, id%5000)
		}
		if err := writeFile(filepath.Join(o.Dir, "events", fmt.Sprintf("e%04d.json", f)), eb.String()); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(body), 0o644)
}

func (b *bench) start(ctx context.Context) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	data := filepath.Join(b.o.Dir, "data")
	_ = os.RemoveAll(data)
	args := append(append([]string{}, b.o.ChildArgs...), "--data-dir", data, "--listen", addr)
	b.cmd = exec.CommandContext(ctx, b.o.Self, args...)
	b.cmd.Stderr = os.Stderr
	if err := b.cmd.Start(); err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	b.url = "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := b.sql("SELECT 1"); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the server did not answer on %s", addr)
}

func (b *bench) stop() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	_ = b.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = b.cmd.Process.Kill()
		<-done
	}
}

// sql runs one statement and fails on any status but 200.
func (b *bench) sql(q string) ([][]any, error) {
	body, _ := json.Marshal(map[string]any{"query": q})
	resp, err := b.http.Post(b.url+"/_plugins/_sql", "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s: status %d: %s", q, resp.StatusCode, raw)
	}
	var r struct{ Datarows [][]any }
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	return r.Datarows, nil
}

func (b *bench) setup() error {
	_, err := b.sql("CREATE TABLE small (id BIGINT, name STRING, status INT) USING json LOCATION '" + filepath.Join(b.o.Dir, "small") + "/'")
	if err == nil {
		_, err = b.sql("CREATE TABLE events (id BIGINT, path STRING, status INT, bytes BIGINT) USING json LOCATION '" + filepath.Join(b.o.Dir, "events") + "/'")
	}
	return err
}

// rss reads a field of the server's /proc status in MB.
func (b *bench) rss(field string) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", b.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// load runs clients querying until stop is closed (or for d when stop is
// nil) and returns their figures.
func (b *bench) load(ctx context.Context, clients int, d time.Duration, stop <-chan struct{}) Latency {
	var mu sync.Mutex
	var lat []time.Duration
	errs := 0
	t0 := time.Now()
	end := t0.Add(d)
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			var mine []time.Duration
			bad := 0
			for i := 0; ctx.Err() == nil; i++ {
				if stop == nil && time.Now().After(end) {
					break
				}
				if stop != nil {
					select {
					case <-stop:
						goto done
					default:
					}
				}
				q0 := time.Now()
				rows, err := b.sql(fmt.Sprintf(SmallQuery, (c*7919+i)%smallRows))
				if err != nil || len(rows) != 1 {
					bad++
					continue
				}
				mine = append(mine, time.Since(q0))
			}
		done:
			mu.Lock()
			lat = append(lat, mine...)
			errs += bad
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	el := time.Since(t0)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	l := Latency{Clients: clients, Queries: len(lat), Errors: errs, QPS: float64(len(lat)) / el.Seconds()}
	if len(lat) > 0 {
		l.P50ms = ms(lat[len(lat)*50/100])
		l.P99ms = ms(lat[min(len(lat)*99/100, len(lat)-1)])
	}
	return l
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (b *bench) latency(ctx context.Context, clients int, d time.Duration) Latency {
	b.load(ctx, clients, min(d/5, 2*time.Second), nil) // warm up
	return b.load(ctx, clients, d, nil)
}

// throughput runs a stream over the whole events input, one file per
// epoch, under load clients querying (0: none), and times it from the
// INSERT STREAM to its last row.
func (b *bench) throughput(ctx context.Context, name string, load int) (Throughput, error) {
	tp := Throughput{Load: "no API load"}
	if load > 0 {
		tp.Load = fmt.Sprintf("%d clients querying", load)
	}
	loc := filepath.Join(b.o.Dir, "sink_"+name)
	_ = os.RemoveAll(loc)
	if _, err := b.sql(fmt.Sprintf("CREATE TABLE sink_%s (id BIGINT, path STRING, status INT, bytes BIGINT) USING json LOCATION '%s/'", name, loc)); err != nil {
		return tp, err
	}
	stop := make(chan struct{})
	var lres Latency
	var wg sync.WaitGroup
	if load > 0 {
		wg.Add(1)
		go func() { defer wg.Done(); lres = b.load(ctx, load, 0, stop) }()
		time.Sleep(time.Second) // the load is on before the stream starts
	}
	want := int64(b.o.StreamRows / max(b.o.StreamFiles, 1) * b.o.StreamFiles)
	t0 := time.Now()
	if _, err := b.sql(fmt.Sprintf("INSERT STREAM INTO sink_%s SELECT id, path, status, bytes FROM events WITH (name = '%s', trigger = '10 milliseconds', max_files_per_trigger = '1')", name, name)); err != nil {
		close(stop)
		return tp, err
	}
	var err error
	for {
		var s struct {
			RowsOut   int64  `json:"rows_out"`
			State     string `json:"state"`
			LastError string `json:"last_error"`
		}
		if err = b.getJSON("/api/v1/streams/"+name, &s); err != nil {
			break
		}
		if s.RowsOut >= want {
			tp.Rows = s.RowsOut
			break
		}
		if s.State == "failed" {
			err = fmt.Errorf("stream %s failed: %s", name, s.LastError)
			break
		}
		if time.Since(t0) > 10*time.Minute {
			err = fmt.Errorf("stream %s: %d of %d rows after 10 minutes", name, s.RowsOut, want)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	el := time.Since(t0)
	close(stop)
	wg.Wait()
	if err != nil {
		return tp, err
	}
	_, _ = b.sql("STOP STREAM " + name)
	tp.Seconds, tp.RowsPerSec = el.Seconds(), float64(tp.Rows)/el.Seconds()
	if load > 0 {
		tp.Queries, tp.QPS, tp.P99ms, tp.Errors = lres.Queries, lres.QPS, lres.P99ms, lres.Errors
	}
	return tp, nil
}

func (b *bench) getJSON(path string, v any) error {
	resp, err := b.http.Get(b.url + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		raw, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, raw)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// manyStreams starts n streams over the small table (each to a sink of
// its own, triggered every second), waits until each wrote its rows, and
// lets them idle a moment.
func (b *bench) manyStreams(n int) error {
	for i := 0; i < n; i++ {
		loc := filepath.Join(b.o.Dir, fmt.Sprintf("many%02d", i))
		_ = os.RemoveAll(loc)
		if _, err := b.sql(fmt.Sprintf("CREATE TABLE many%02d (id BIGINT, name STRING) USING json LOCATION '%s/'", i, loc)); err != nil {
			return err
		}
		if _, err := b.sql(fmt.Sprintf("INSERT STREAM INTO many%02d SELECT id, name FROM small WITH (name = 'feed%02d', trigger = '1 second')", i, i)); err != nil {
			return err
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for i := 0; i < n; i++ {
		for {
			var s struct {
				RowsOut int64  `json:"rows_out"`
				State   string `json:"state"`
			}
			if err := b.getJSON(fmt.Sprintf("/api/v1/streams/feed%02d", i), &s); err != nil {
				return err
			}
			if s.RowsOut >= smallRows && s.State == "running" {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("stream feed%02d: %d rows, %s", i, s.RowsOut, s.State)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(3 * time.Second)
	return nil
}

// WriteText prints the report as tables.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "query: %s (each level runs %s after a warm-up)\n\n", r.Query, r.DurationPerRun)
	fmt.Fprintf(w, "%8s %9s %7s %9s %9s %9s\n", "clients", "queries", "errors", "q/s", "p50 ms", "p99 ms")
	for _, l := range r.Latency {
		fmt.Fprintf(w, "%8d %9d %7d %9.0f %9.2f %9.2f\n", l.Clients, l.Queries, l.Errors, l.QPS, l.P50ms, l.P99ms)
	}
	fmt.Fprintf(w, "\nserver RSS: idle %.1f MB; with %d streams running %.1f MB (peak %.1f MB)\n\n", r.RSSIdleMB, r.Streams, r.RSSStreamsMB, r.PeakRSSMB)
	for _, t := range r.Throughput {
		fmt.Fprintf(w, "stream throughput, %s: %d rows in %.2f s = %.0f rows/s", t.Load, t.Rows, t.Seconds, t.RowsPerSec)
		if t.Queries > 0 {
			fmt.Fprintf(w, " (load: %d queries, %.0f q/s, p99 %.2f ms, %d errors)", t.Queries, t.QPS, t.P99ms, t.Errors)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// WriteJSON prints the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
