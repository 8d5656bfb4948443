// Command s3 measures reading from S3 against reading the same data from
// local disk: one large gzipped NDJSON object and many small NDJSON
// objects, through the engine (end to end) and through the storage layer
// alone. It starts a real S3 server (the Versity gateway) on loopback.
//
//	go run ./bench/s3 -dir /tmp/sluice-s3-bench               # defaults: 200 MB, 10,000 x 10 KB
//	go run ./bench/s3 -dir /tmp/x -big 20MB -small 1000 -repeat 1 # a quick run
//
// Data are generated once into -dir (bench/gen's access log) and reused.
// The figures go to stdout as a Markdown table; see BENCHMARKS.md.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"sluice/bench/gen"
	"sluice/internal/engine"
	"sluice/internal/storage"
	"sluice/internal/testutil/s3server"
	"sluice/internal/types"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/s3:", err)
		os.Exit(1)
	}
}

type config struct {
	dir        string
	bigSize    int64
	small      int
	smallSize  int64
	repeat     int
	readAheads []string
	cpuProfile string
}

func run(ctx context.Context) error {
	var c config
	var big, smallSize, ra string
	flag.StringVar(&c.dir, "dir", filepath.Join(os.TempDir(), "sluice-s3-bench"), "data cache directory")
	flag.StringVar(&big, "big", "200MB", "uncompressed size of the large NDJSON.gz object")
	flag.IntVar(&c.small, "small", 10000, "number of small NDJSON objects")
	flag.StringVar(&smallSize, "small-size", "10KB", "size of each small object")
	flag.IntVar(&c.repeat, "repeat", 3, "runs per measurement; the best is reported")
	flag.StringVar(&ra, "read-ahead", "0,16,64", "read_ahead values to compare for the small objects")
	flag.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the engine queries to this file")
	flag.Parse()
	var err error
	if c.bigSize, err = gen.ParseSize(big); err != nil {
		return fmt.Errorf("-big: %w", err)
	}
	if c.smallSize, err = gen.ParseSize(smallSize); err != nil {
		return fmt.Errorf("-small-size: %w", err)
	}
	c.readAheads = strings.Split(ra, ",")

	bigDir, smallDir, err := prepare(ctx, c)
	if err != nil {
		return err
	}
	srv, err := s3server.Start()
	if err != nil {
		return err
	}
	defer srv.Stop()
	pid := srv.PID()
	if err := srv.CreateBucket("bench"); err != nil {
		return err
	}
	opts := storage.Options{Endpoint: srv.Endpoint, Region: srv.Region, AccessKeyID: srv.AccessKey, SecretAccessKey: srv.SecretKey}
	st, err := storage.NewS3Store(ctx, "bench", opts)
	if err != nil {
		return err
	}
	fmt.Printf("GOMAXPROCS=%d, %s\n\n", runtime.GOMAXPROCS(0), loadAvg())

	// Upload (also measured: it is the INSERT path's storage half).
	bigFiles, _ := filepath.Glob(filepath.Join(bigDir, "ndjson_gz", "*.json.gz"))
	smallFiles, _ := filepath.Glob(filepath.Join(smallDir, "ndjson", "*.json"))
	if len(bigFiles) != 1 || len(smallFiles) != c.small {
		return fmt.Errorf("expected 1 large and %d small files, found %d and %d", c.small, len(bigFiles), len(smallFiles))
	}
	bigBytes, bigRaw := fileSize(bigFiles[0]), rawSize(bigFiles[0])
	upBig, err := best(1, pid, func() error { return upload(ctx, st, "big/", bigFiles, 1) })
	if err != nil {
		return err
	}
	upSmall, err := best(1, pid, func() error { return upload(ctx, st, "small/", smallFiles, 32) })
	if err != nil {
		return err
	}
	smallBytes := int64(0)
	for _, f := range smallFiles {
		smallBytes += fileSize(f)
	}

	var rows [][]string
	add := func(what, where string, m measure, raw int64, objects int) {
		d := m.wall
		cpu := m.client + m.server
		r := []string{what, where, fmt.Sprintf("%.2f s", d.Seconds()), fmt.Sprintf("%.1f", float64(raw)/1e6/d.Seconds())}
		if objects > 1 {
			r = append(r, fmt.Sprintf("%.0f", float64(objects)/d.Seconds()))
		} else {
			r = append(r, "")
		}
		r = append(r, fmt.Sprintf("%.2f + %.2f", m.client.Seconds(), m.server.Seconds()), fmt.Sprintf("%.1f", float64(raw)/1e6/cpu.Seconds()))
		if objects > 1 {
			r = append(r, fmt.Sprintf("%.0f", float64(objects)/cpu.Seconds()))
		} else {
			r = append(r, "")
		}
		rows = append(rows, r)
		fmt.Fprintf(os.Stderr, "%s | %s | %s\n", what, where, strings.Join(r[2:], " | "))
	}
	add("upload 1 large object (multipart)", "storage Put", upBig, bigBytes, 1)
	add(fmt.Sprintf("upload %d small objects (32 at once)", c.small), "storage Put", upSmall, smallBytes, c.small)

	// Storage alone.
	d, err := best(c.repeat, pid, func() error { return storageRead(ctx, st, "big/", 1, true) })
	if err != nil {
		return err
	}
	add("large NDJSON.gz: GET + gunzip", "S3, storage only", d, bigRaw, 1)
	for _, par := range []int{1, 16} {
		d, err = best(c.repeat, pid, func() error { return storageRead(ctx, st, "small/", par, false) })
		if err != nil {
			return err
		}
		add(fmt.Sprintf("small: LIST + GET, %d at once", par), "S3, storage only", d, smallBytes, c.small)
	}

	// Through the engine.
	eng, err := engine.Open(engine.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	s3opts := fmt.Sprintf("endpoint '%s', access_key '%s', secret_key '%s', region '%s'", srv.Endpoint, srv.AccessKey, srv.SecretKey, srv.Region)
	stmts := []string{
		fmt.Sprintf("CREATE TABLE big_local (status INT) USING json LOCATION '%s/'", filepath.Join(bigDir, "ndjson_gz")),
		fmt.Sprintf("CREATE TABLE big_s3 (status INT) USING json LOCATION 's3://bench/big/' OPTIONS (%s)", s3opts),
		fmt.Sprintf("CREATE TABLE small_local (status INT) USING json LOCATION '%s/'", filepath.Join(smallDir, "ndjson")),
	}
	for _, ra := range c.readAheads {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE small_s3_ra%s (status INT) USING json LOCATION 's3://bench/small/' OPTIONS (%s, read_ahead '%s')", ra, s3opts, ra))
	}
	for _, s := range stmts {
		if _, err := eng.Execute(ctx, s); err != nil {
			return err
		}
	}
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for _, q := range []struct{ table, what, where string }{
		{"big_local", "large NDJSON.gz: SELECT count(*)", "local disk, engine"},
		{"big_s3", "large NDJSON.gz: SELECT count(*)", "S3, engine"},
		{"small_local", fmt.Sprintf("%d small: SELECT count(*)", c.small), "local disk, engine"},
	} {
		d, err := best(c.repeat, pid, func() error { return count(ctx, eng, q.table) })
		if err != nil {
			return err
		}
		if strings.HasPrefix(q.table, "big") {
			add(q.what, q.where, d, bigRaw, 1)
		} else {
			add(q.what, q.where, d, smallBytes, c.small)
		}
	}
	for _, ra := range c.readAheads {
		d, err := best(c.repeat, pid, func() error { return count(ctx, eng, "small_s3_ra"+ra) })
		if err != nil {
			return err
		}
		add(fmt.Sprintf("%d small: SELECT count(*)", c.small), "S3, engine, read_ahead "+ra, d, smallBytes, c.small)
	}

	fmt.Printf("Large object: %.1f MB gzipped, %.1f MB NDJSON. Small objects: %d x %.1f KB = %.1f MB.\n\n",
		float64(bigBytes)/1e6, float64(bigRaw)/1e6, c.small, float64(smallBytes)/float64(c.small)/1e3, float64(smallBytes)/1e6)
	fmt.Printf("| case | path | wall (best of %d) | MB/s | objects/s | CPU s: client + server | MB per CPU-s | objects per CPU-s |\n", c.repeat)
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Printf("| %s |\n", strings.Join(r, " | "))
	}
	fmt.Printf("\n%s\n", loadAvg())
	return nil
}

// prepare generates (once) the large and the small data sets.
func prepare(ctx context.Context, c config) (bigDir, smallDir string, err error) {
	bigDir = filepath.Join(c.dir, fmt.Sprintf("big-%d", c.bigSize))
	smallDir = filepath.Join(c.dir, fmt.Sprintf("small-%dx%d", c.small, c.smallSize))
	if _, err := gen.ReadManifest(bigDir); err != nil {
		fmt.Fprintf(os.Stderr, "generating %s\n", bigDir)
		if _, err := gen.Generate(ctx, gen.Options{Dir: bigDir, Size: c.bigSize, Files: 1, Seed: 1, Layouts: []string{"ndjson_gz"}}); err != nil {
			return "", "", err
		}
	}
	if _, err := gen.ReadManifest(smallDir); err != nil {
		fmt.Fprintf(os.Stderr, "generating %s\n", smallDir)
		if _, err := gen.Generate(ctx, gen.Options{Dir: smallDir, Size: c.smallSize * int64(c.small), Files: c.small, Seed: 2, Layouts: []string{"ndjson"}}); err != nil {
			return "", "", err
		}
	}
	return bigDir, smallDir, nil
}

// upload puts files under prefix, par at a time.
func upload(ctx context.Context, st storage.Store, prefix string, files []string, par int) error {
	return parallel(files, par, func(f string) error {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		return st.Put(ctx, prefix+filepath.Base(f), bytes.NewReader(data), false)
	})
}

// storageRead lists prefix and reads every object, par at a time,
// gunzipping when asked.
func storageRead(ctx context.Context, st storage.Store, prefix string, par int, gunzip bool) error {
	var keys []string
	if err := st.List(ctx, prefix, "", func(o storage.ObjectInfo) error {
		keys = append(keys, o.Key)
		return nil
	}); err != nil {
		return err
	}
	return parallel(keys, par, func(k string) error {
		rc, err := st.Open(ctx, k)
		if err != nil {
			return err
		}
		defer rc.Close()
		var r io.Reader = rc
		if gunzip {
			zr, err := gzip.NewReader(rc)
			if err != nil {
				return err
			}
			r = zr
		}
		_, err = io.Copy(io.Discard, r)
		return err
	})
}

func parallel(items []string, par int, fn func(string) error) error {
	ch := make(chan string)
	var wg sync.WaitGroup
	var firstErr atomic.Value
	for w := 0; w < par; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range ch {
				if err := fn(it); err != nil {
					firstErr.CompareAndSwap(nil, err)
				}
			}
		}()
	}
	for _, it := range items {
		ch <- it
	}
	close(ch)
	wg.Wait()
	if err, ok := firstErr.Load().(error); ok {
		return err
	}
	return nil
}

// count runs SELECT count(*); while the engine lacks aggregates it falls
// back to reading the column and counting rows here, which does the same
// I/O and decoding.
func count(ctx context.Context, eng *engine.Engine, table string) error {
	res, err := eng.Execute(ctx, "SELECT count(*) FROM "+table)
	if err == nil {
		if len(res) == 1 && len(res[0].Batches) > 0 {
			fmt.Fprintf(os.Stderr, "  %s: count(*) = %s\n", table, types.FormatValue(res[0].Batches[0].Column(0), 0))
		}
		return nil
	}
	res, err = eng.Execute(ctx, "SELECT status FROM "+table)
	if err != nil {
		return err
	}
	n := int64(0)
	for _, b := range res[0].Batches {
		n += b.NumRows()
		b.Release()
	}
	fmt.Fprintf(os.Stderr, "  %s: %d rows (no count(*) yet)\n", table, n)
	return nil
}

// measure is one run: wall time, and CPU time of this process (engine,
// SDK) and of the S3 server. On a shared, loaded machine wall time
// mostly measures the neighbours; CPU time does not.
type measure struct {
	wall, client, server time.Duration
}

// best runs fn n times and returns the run with the least wall time.
func best(n, pid int, fn func() error) (measure, error) {
	var b measure
	for i := 0; i < max(n, 1); i++ {
		c0, s0 := selfCPU(), procCPU(pid)
		t0 := time.Now()
		if err := fn(); err != nil {
			return measure{}, err
		}
		m := measure{wall: time.Since(t0), client: selfCPU() - c0, server: procCPU(pid) - s0}
		if b.wall == 0 || m.wall < b.wall {
			b = m
		}
	}
	return b, nil
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU reads utime+stime of a process from /proc (clock ticks of
// 1/100 s on Linux).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the ")" that ends the command name; utime and stime
	// are the 14th and 15th of the whole line.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// rawSize is the uncompressed size of a gzip file.
func rawSize(p string) int64 {
	f, err := os.Open(p)
	if err != nil {
		return 0
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return 0
	}
	n, _ := io.Copy(io.Discard, zr)
	return n
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return "load average " + strings.Join(f[:3], " ")
}
