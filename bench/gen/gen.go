// Package gen writes Sluice's benchmark data set: a deterministic
// synthetic HTTP access log in four layouts (NDJSON, gzipped NDJSON, CSV
// and Parquet) that hold the same rows.
//
// Every random choice comes from PCG streams seeded by (seed, file), so the
// same Options produce byte-identical files whatever the parallelism:
//
//	m, err := gen.Generate(ctx, gen.Options{Rows: 200_000, Files: 4, Dir: "/tmp/logs", Seed: 1})
//	// /tmp/logs/ndjson/part-0000.json ... /tmp/logs/parquet/part-0003.parquet
//	fmt.Println(m.Rows, m.Layouts["ndjson"].Bytes)
//
// A row looks like this in NDJSON (about 280 bytes on average):
//
//	{"@timestamp":"2026-11-01T00:00:00.412Z","clientip":"81.2.69.160","method":"GET",
//	 "path":"/api/v1/users/4242","status":200,"bytes":2110,"latency_ms":17.301,
//	 "user_agent":"Mozilla/5.0 ...","geo":{"country":"GB","city":"London"},"tags":["api"]}
package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The layouts, in the order they are reported.
var Layouts = []string{"ndjson", "ndjson_gz", "csv", "parquet"}

// Extension is the file name suffix of each layout.
var Extension = map[string]string{
	"ndjson":    ".json",
	"ndjson_gz": ".json.gz",
	"csv":       ".csv",
	"parquet":   ".parquet",
}

// Options say what to generate. Rows or Size must be set.
type Options struct {
	Dir string
	// Rows is the total row count across files.
	Rows int64
	// Size, when Rows is 0, is the target NDJSON size in bytes; the row
	// count is derived from the average line length of a sample.
	Size int64
	// Files is the number of files per layout (default 8, at most Rows).
	Files int
	Seed  uint64
	// Layouts to write; empty means all four.
	Layouts []string
	// Parallelism bounds files generated at once; 0 means GOMAXPROCS.
	Parallelism int
}

// Manifest describes a generated data set; it is written to
// DIR/manifest.json so the runner knows rows and sizes without scanning.
type Manifest struct {
	Rows    int64              `json:"rows"`
	Files   int                `json:"files"`
	Seed    uint64             `json:"seed"`
	Layouts map[string]*Layout `json:"layouts"`
}

// Layout is one layout's files.
type Layout struct {
	Bytes int64    `json:"bytes"`
	Files []string `json:"files"` // relative to the data set directory
}

// ManifestName is the manifest's file name inside the data set directory.
const ManifestName = "manifest.json"

// ReadManifest loads DIR/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("reading manifest %s: %w", filepath.Join(dir, ManifestName), err)
	}
	return &m, nil
}

// Generate writes the data set and its manifest.
func Generate(ctx context.Context, o Options) (*Manifest, error) {
	if o.Dir == "" {
		return nil, fmt.Errorf("generating: no output directory")
	}
	layouts, err := checkLayouts(o.Layouts)
	if err != nil {
		return nil, err
	}
	p := newPools(o.Seed)
	rows := o.Rows
	if rows <= 0 {
		if o.Size <= 0 {
			return nil, fmt.Errorf("generating: give a row count or a size")
		}
		rows = rowsForSize(p, o.Seed, o.Size)
	}
	files := o.Files
	if files <= 0 {
		files = 8
	}
	if int64(files) > rows {
		files = int(rows)
	}
	for _, l := range layouts {
		if err := prepareDir(filepath.Join(o.Dir, l)); err != nil {
			return nil, err
		}
	}
	par := o.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}

	m := &Manifest{Rows: rows, Files: files, Seed: o.Seed, Layouts: map[string]*Layout{}}
	sizes := make([]map[string]int64, files)
	errs := make([]error, files)
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for f := 0; f < files; f++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(f int) {
			defer wg.Done()
			defer func() { <-sem }()
			first := rows * int64(f) / int64(files)
			last := rows * int64(f+1) / int64(files)
			sizes[f], errs[f] = writeFile(ctx, p, o.Seed, o.Dir, layouts, f, first, last-first, rows)
		}(f)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, l := range layouts {
		lay := &Layout{}
		for f := 0; f < files; f++ {
			lay.Bytes += sizes[f][l]
			lay.Files = append(lay.Files, filepath.Join(l, partName(f, l)))
		}
		m.Layouts[l] = lay
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(o.Dir, ManifestName), append(b, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("writing manifest: %w", err)
	}
	return m, nil
}

func partName(f int, layout string) string {
	return fmt.Sprintf("part-%04d%s", f, Extension[layout])
}

func checkLayouts(ls []string) ([]string, error) {
	if len(ls) == 0 || (len(ls) == 1 && ls[0] == "all") {
		return Layouts, nil
	}
	var out []string
	for _, l := range ls {
		if _, ok := Extension[l]; !ok {
			return nil, fmt.Errorf("unknown layout %q (known: %s)", l, strings.Join(Layouts, ", "))
		}
		out = append(out, l)
	}
	sort.SliceStable(out, func(i, j int) bool { return layoutRank(out[i]) < layoutRank(out[j]) })
	return out, nil
}

func layoutRank(l string) int {
	for i, x := range Layouts {
		if x == l {
			return i
		}
	}
	return len(Layouts)
}

// prepareDir creates a layout directory and removes part files left by an
// earlier, larger run, so a table over the directory sees only this set.
func prepareDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	old, err := filepath.Glob(filepath.Join(dir, "part-*"))
	if err != nil {
		return fmt.Errorf("listing %s: %w", dir, err)
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("removing stale %s: %w", f, err)
		}
	}
	return nil
}

// rowsForSize estimates the row count whose NDJSON is size bytes from
// the mean line length of a 20,000-row sample.
func rowsForSize(p *pools, seed uint64, size int64) int64 {
	const sample = 20000
	g := newRowGen(p, seed, sampleStream, 0, sample)
	var ts tsFormatter
	var row Row
	var buf []byte
	var total int64
	for i := 0; i < sample; i++ {
		g.fill(&row)
		buf = appendNDJSON(buf[:0], &row, &ts)
		total += int64(len(buf))
	}
	rows := size * sample / total
	if rows < 1 {
		rows = 1
	}
	return rows
}

// ParseSize reads "1GB", "250MB", "64KB" or a plain byte count. Units are
// decimal (1 GB = 10^9 bytes), matching the MB/s the runner reports.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("size %q: want a positive number with an optional KB/MB/GB unit", s)
	}
	return int64(f * float64(mult)), nil
}
