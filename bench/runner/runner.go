// Package runner times Sluice on the benchmark data set written by
// bench/gen: one table per layout, four whole-table queries, best wall
// time of a few repeats, and throughput in rows/s and MB/s of on-disk
// input.
//
//	rep, err := runner.Run(ctx, runner.Options{Data: "/tmp/logs", Repeat: 3})
//	rep.WriteText(os.Stdout)
//	// layout  query  name               input MB  files  best s  rows/s  MB/s  cores  MB/s/core  cpu s  MB/cpu-s  result rows
//	// ndjson  Q1     scan-filter-count  1003.8    8      17.488  201.5k  57.4  2      28.7       3.69   271.8     1
//
// CPU seconds are reported beside wall time because a shared machine
// stretches the wall clock but not the work done.
package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"sluice/bench/gen"
	"sluice/internal/engine"
	"sluice/internal/types"
)

// Options say what to run.
type Options struct {
	// Data is the data set directory (the --out of bench gen).
	Data string
	// Layouts to run; empty or "all" means every layout present.
	Layouts []string
	// Queries by ID (Q1..Q4); empty means all.
	Queries []string
	// Repeat is how many times each query runs; the best time counts.
	Repeat int
	// Parallelism is passed to the engine; 0 means GOMAXPROCS.
	Parallelism int
	// Log, when set, gets one line per finished query as the run goes.
	Log io.Writer
}

// Result is one query over one layout.
type Result struct {
	Layout     string    `json:"layout"`
	Query      string    `json:"query"`
	Name       string    `json:"name"`
	SQL        string    `json:"sql"`
	Files      int       `json:"files"`
	InputRows  int64     `json:"input_rows"`
	InputBytes int64     `json:"input_bytes"`
	Cores      int       `json:"cores"` // min(GOMAXPROCS, files): the parallelism the scan can use
	Times      []float64 `json:"times_s"`
	Best       float64   `json:"best_s"`
	RowsPerSec float64   `json:"rows_per_s"`
	MBPerSec   float64   `json:"mb_per_s"`
	// MBPerSecPerCore is MBPerSec / Cores.
	MBPerSecPerCore float64 `json:"mb_per_s_per_core"`
	// CPUSeconds is the least process CPU time (user+system) of one run,
	// and MBPerCPUSecond the input it got through per CPU-second: on a
	// machine shared with other work, wall-clock rates fall with the load
	// but this one does not, so it is the fairer per-core figure.
	CPUSeconds     float64 `json:"cpu_s"`
	MBPerCPUSecond float64 `json:"mb_per_cpu_s"`
	ResultRows     int64   `json:"result_rows"`
	// Answer is the single value of a one-row, one-column result (Q1's
	// count), so layouts can be checked against each other.
	Answer string `json:"answer,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Report is a whole run.
type Report struct {
	GoVersion  string    `json:"go_version"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	NumCPU     int       `json:"num_cpu"`
	CPU        string    `json:"cpu"`
	Data       string    `json:"data"`
	Rows       int64     `json:"rows"`
	Repeat     int       `json:"repeat"`
	Started    time.Time `json:"started"`
	Results    []Result  `json:"results"`
}

// dataset is what the runner knows about one layout before running.
type dataset struct {
	layout string
	files  int
	bytes  int64
	rows   int64 // 0 when there is no manifest: counted by the engine
}

// Run opens an engine on a scratch data directory, creates a table per
// layout and times every query. A failing query is recorded in its Result
// and the run goes on, so a partly working engine still gets measured.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Repeat <= 0 {
		o.Repeat = 3
	}
	abs, err := filepath.Abs(o.Data)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", o.Data, err)
	}
	queries, err := selectQueries(o.Queries)
	if err != nil {
		return nil, err
	}
	sets, err := discover(abs, o.Layouts)
	if err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp("", "sluice-bench-")
	if err != nil {
		return nil, fmt.Errorf("creating scratch data dir: %w", err)
	}
	defer os.RemoveAll(scratch)
	eng, err := engine.Open(engine.Options{DataDir: scratch, Parallelism: o.Parallelism})
	if err != nil {
		return nil, fmt.Errorf("opening engine: %w", err)
	}
	defer eng.Close()

	rep := &Report{
		GoVersion: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(),
		CPU: cpuModel(), Data: abs, Repeat: o.Repeat, Started: time.Now().UTC(),
	}
	for _, ds := range sets {
		ddl, err := CreateTableSQL(ds.layout, abs)
		if err != nil {
			return nil, err
		}
		if _, err := eng.Execute(ctx, ddl); err != nil {
			return nil, fmt.Errorf("creating table for %s: %w", ds.layout, err)
		}
		if ds.rows == 0 {
			n, _, err := runOnce(ctx, eng, "SELECT count(*) FROM "+TableName(ds.layout))
			if err != nil {
				return nil, fmt.Errorf("counting rows of %s: %w", ds.layout, err)
			}
			ds.rows = n
		}
		rep.Rows = max(rep.Rows, ds.rows)
		for _, q := range queries {
			r := measure(ctx, eng, ds, q, o.Repeat)
			rep.Results = append(rep.Results, r)
			if o.Log != nil {
				fmt.Fprintln(o.Log, r.line())
			}
			if err := ctx.Err(); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// measure runs q over one layout repeat times.
func measure(ctx context.Context, eng *engine.Engine, ds *dataset, q Query, repeat int) Result {
	cores := min(runtime.GOMAXPROCS(0), ds.files)
	r := Result{
		Layout: ds.layout, Query: q.ID, Name: q.Name, SQL: q.Text(TableName(ds.layout)),
		Files: ds.files, InputRows: ds.rows, InputBytes: ds.bytes, Cores: max(cores, 1),
	}
	for i := 0; i < repeat; i++ {
		// Garbage from the previous run should not be collected on this
		// one's clock.
		runtime.GC()
		cpu0 := cpuTime()
		start := time.Now()
		n, answer, err := runOnce(ctx, eng, r.SQL)
		d := time.Since(start).Seconds()
		cpu := cpuTime() - cpu0
		if err != nil {
			r.Error = err.Error()
			return r
		}
		if i == 0 || cpu < r.CPUSeconds {
			r.CPUSeconds = cpu
		}
		r.Times = append(r.Times, d)
		r.ResultRows, r.Answer = n, answer
	}
	r.Best = r.Times[0]
	for _, t := range r.Times {
		r.Best = min(r.Best, t)
	}
	if r.Best > 0 {
		r.RowsPerSec = float64(r.InputRows) / r.Best
		r.MBPerSec = float64(r.InputBytes) / 1e6 / r.Best
		r.MBPerSecPerCore = r.MBPerSec / float64(r.Cores)
	}
	if r.CPUSeconds > 0 {
		r.MBPerCPUSecond = float64(r.InputBytes) / 1e6 / r.CPUSeconds
	}
	return r
}

// runOnce executes one query and returns its row count and, for a single
// value, that value. Batches are released here: only counts leave.
func runOnce(ctx context.Context, eng *engine.Engine, sql string) (rows int64, answer string, err error) {
	res, err := eng.Execute(ctx, sql)
	if err != nil {
		return 0, "", err
	}
	if len(res) != 1 {
		return 0, "", fmt.Errorf("%d results for one statement", len(res))
	}
	var cols int
	if res[0].Schema != nil {
		cols = res[0].Schema.NumFields()
	}
	for _, b := range res[0].Batches {
		if rows == 0 && b.NumRows() == 1 && cols == 1 {
			answer = types.FormatValue(b.Column(0), 0)
		}
		rows += b.NumRows()
		b.Release()
	}
	if rows != 1 || cols != 1 {
		answer = ""
	}
	return rows, answer, nil
}

// discover finds the layouts to run and their sizes, from the manifest
// when gen wrote one, else by listing the directories.
func discover(dir string, want []string) ([]*dataset, error) {
	if len(want) == 1 && want[0] == "all" {
		want = nil
	}
	for _, l := range want {
		if _, ok := gen.Extension[l]; !ok {
			return nil, fmt.Errorf("unknown layout %q (known: %s)", l, strings.Join(gen.Layouts, ", "))
		}
	}
	m, merr := gen.ReadManifest(dir)
	var out []*dataset
	for _, l := range gen.Layouts {
		if len(want) > 0 && !contains(want, l) {
			continue
		}
		ds := &dataset{layout: l}
		if merr == nil && m.Layouts[l] != nil {
			ds.files, ds.bytes, ds.rows = len(m.Layouts[l].Files), m.Layouts[l].Bytes, m.Rows
		} else {
			files, _ := filepath.Glob(filepath.Join(dir, l, "part-*"+gen.Extension[l]))
			sort.Strings(files)
			for _, f := range files {
				st, err := os.Stat(f)
				if err != nil {
					return nil, fmt.Errorf("sizing %s: %w", f, err)
				}
				ds.bytes += st.Size()
			}
			ds.files = len(files)
		}
		if ds.files == 0 {
			if len(want) > 0 {
				return nil, fmt.Errorf("no %s files under %s", l, filepath.Join(dir, l))
			}
			continue
		}
		out = append(out, ds)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no data under %s (run: go run ./bench gen --out %s)", dir, dir)
	}
	return out, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// cpuModel reads the CPU name from /proc/cpuinfo (Linux only).
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
