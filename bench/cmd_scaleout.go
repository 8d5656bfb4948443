package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Scale-out benchmarks (BENCHMARKS.md "Scale-out"): each starts NATS,
// a Versity gateway publishing S3 events, and `sluice sql` processes.
//
//	bench workers   --files 48 --rows 20000 --workers 1,2,3 [--max-files 1] [--cluster]
//	bench freshness --objects 40 --gap 250ms
//	bench discover  --keys 1000000 --objects 10

func scaleoutFlags(name string) (*flag.FlagSet, *string, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	dir := fs.String("dir", filepath.Join(os.TempDir(), "sluice-bench-"+name), "work directory (removed first)")
	bin := fs.String("sluice", "", "a built sluice binary (default: go build ./cmd/sluice)")
	return fs, dir, bin
}

func waitEvents(ctx context.Context, r *soRig, want uint64) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, err := r.events()
		if err != nil {
			return err
		}
		if n >= want {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the stream holds %d events, want %d", n, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func tablesFor(bucket, prefix, out, using string) []string {
	return []string{
		"CREATE TABLE IF NOT EXISTS src (id BIGINT, status INT, msg STRING) USING json LOCATION 's3://" + bucket + "/" + prefix + "'",
		"CREATE TABLE IF NOT EXISTS out (id BIGINT, status INT, msg STRING) USING " + using + " LOCATION '" + out + "/'",
	}
}

// cmdWorkers: rows/s of one stateless stream in 1, 2, 3 worker
// processes over the same files (their events already in the queue).
func cmdWorkers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, dir, bin := scaleoutFlags("workers")
	files := fs.Int("files", 48, "input files")
	rows := fs.Int("rows", 20000, "NDJSON rows per file")
	counts := fs.String("workers", "1,2,3", "worker process counts to run")
	maxFiles := fs.Int("max-files", 1, "max_files_per_trigger (files per epoch)")
	cluster := fs.Bool("cluster", false, "a 3-node JetStream cluster with an R3 events stream instead of one server")
	if err := fs.Parse(args); err != nil {
		return err
	}
	os.RemoveAll(*dir)
	r, err := newSORigOn(*dir, *bin, *cluster)
	if err != nil {
		return err
	}
	defer r.close()
	if err := r.s3.CreateBucket("workers"); err != nil {
		return err
	}
	var bytesIn int64
	for i := 0; i < *files; i++ {
		body := ndjson(i**rows, *rows)
		bytesIn += int64(len(body))
		if err := r.put(ctx, "workers", fmt.Sprintf("in/f%04d.json", i), body); err != nil {
			return err
		}
	}
	if err := waitEvents(ctx, r, uint64(1+*files)); err != nil {
		return err
	}
	where := "JetStream"
	if *cluster {
		where = "an R3 stream of a 3-node JetStream cluster"
	}
	fmt.Fprintf(stdout, "%d files x %d rows (%.1f MB NDJSON) on Versity, events in %s; max_files_per_trigger %d\n",
		*files, *rows, float64(bytesIn)/1e6, where, *maxFiles)
	fmt.Fprintln(stdout, "| workers | wall s | rows/s | sluice CPU s | Versity CPU s | NATS+bench CPU s | CPU s per M rows | load avg before | load avg after |")
	fmt.Fprintln(stdout, "|---:|---:|---:|---:|---:|---:|---:|---|---|")
	for k, c := range splitList(*counts) {
		n, err := strconv.Atoi(c)
		if err != nil || n < 1 {
			return fmt.Errorf("--workers %q", c)
		}
		base := filepath.Join(*dir, fmt.Sprintf("run%d-w%d", k, n))
		stmts := append(r.session(), tablesFor("workers", "in/", filepath.Join(base, "out"), "parquet")...)
		stmts = append(stmts, "INSERT STREAM INTO out SELECT id, status, msg FROM src WITH (name = 'feed', trigger = 'available_now', "+
			fmt.Sprintf("workers = %d, max_files_per_trigger = %d, discovery = 'notifications', discovery_backfill = 'false', ", max(n, 2), *maxFiles)+
			"queue = '"+r.queue(fmt.Sprintf("bench%d", k))+"', checkpoint_location = '"+filepath.Join(base, "cp")+"')")
		before := loadavg()
		vs0, me0 := childCPU("versitygw"), cpuSeconds()
		t0 := time.Now()
		var ps []*proc
		for i := 0; i < n; i++ {
			p, err := r.sluice(filepath.Join(base, fmt.Sprintf("data%d", i)), stmts...)
			if err != nil {
				return err
			}
			ps = append(ps, p)
		}
		cpu := 0.0
		for _, p := range ps {
			if err := <-p.done; err != nil {
				return fmt.Errorf("worker: %v: %s", err, p.stderr.String())
			}
			cpu += p.cpu()
		}
		wall := time.Since(t0).Seconds()
		vs, me := childCPU("versitygw")-vs0, cpuSeconds()-me0
		got, err := r.count(filepath.Join(base, "check"), filepath.Join(base, "out"))
		if err != nil {
			return err
		}
		if want := *files * *rows; got != want {
			return fmt.Errorf("%d workers wrote %d rows, want %d", n, got, want)
		}
		total := float64(*files * *rows)
		fmt.Fprintf(stdout, "| %d | %.2f | %.0f | %.2f | %.2f | %.2f | %.2f | %s | %s |\n",
			n, wall, total/wall, cpu, vs, me, (cpu+vs+me)/(total/1e6), before, loadavg())
	}
	return nil
}

// count is the row count of a parquet directory, through sluice.
func (r *soRig) count(dataDir, out string) (int, error) {
	cmd := exec.Command(r.bin, "sql", "--data-dir", dataDir, "--format", "csv", "-e",
		"CREATE TABLE IF NOT EXISTS chk (id BIGINT, status INT, msg STRING) USING parquet LOCATION '"+out+"/'; SELECT count(*) FROM chk")
	b, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("counting %s: %v", out, err)
	}
	lines := strings.Fields(strings.TrimSpace(string(b)))
	return strconv.Atoi(lines[len(lines)-1])
}

// sinkWatch records when each id first shows in a JSON sink directory.
type sinkWatch struct {
	dir  string
	mu   sync.Mutex
	seen map[int]time.Time
	read map[string]bool
}

func watchSink(ctx context.Context, dir string) *sinkWatch {
	w := &sinkWatch{dir: dir, seen: map[int]time.Time{}, read: map[string]bool{}}
	go func() {
		for ctx.Err() == nil {
			w.poll()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return w
}

func (w *sinkWatch) poll() {
	ents, _ := os.ReadDir(w.dir)
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "part-") || w.read[name] {
			continue
		}
		data, err := os.ReadFile(filepath.Join(w.dir, name))
		if err != nil {
			continue
		}
		now := time.Now()
		var ids []int
		ok := true
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			var row struct {
				ID int `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &row) != nil {
				ok = false // not complete yet
				break
			}
			ids = append(ids, row.ID)
		}
		if !ok {
			continue
		}
		w.read[name] = true
		w.mu.Lock()
		for _, id := range ids {
			if _, dup := w.seen[id]; !dup {
				w.seen[id] = now
			}
		}
		w.mu.Unlock()
	}
}

func (w *sinkWatch) at(id int) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t, ok := w.seen[id]
	return t, ok
}

// seenAt is a sink watcher: when it first saw each id.
type seenAt interface {
	at(id int) (time.Time, bool)
}

// warmID is the id of the warm-up object; the timed objects follow it.
const warmID = 1_000_000_000

// warmUp PUTs one object (id warmID) and waits until every watcher saw
// it: the streams are up and caught up. A stream that exits meanwhile
// fails it at once.
func warmUp(ctx context.Context, r *soRig, bucket, key string, ws []seenAt, ps []*proc, names []string, within time.Duration) error {
	if err := r.put(ctx, bucket, key, ndjson(warmID, 1)); err != nil {
		return err
	}
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		var seen []bool
		all := true
		for _, w := range ws {
			_, ok := w.at(warmID)
			seen, all = append(seen, ok), all && ok
		}
		if all {
			return nil
		}
		for i, p := range ps {
			select {
			case err := <-p.done:
				return fmt.Errorf("%s stream exited: %v: %s", names[i], err, p.stderr.String())
			default:
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the warm-up object did not reach every sink (%v)", seen)
		}
	}
}

// putSpaced PUTs objects one by one, gap apart, object i (id warmID+1+i)
// under key(i), and returns when each PUT started.
func putSpaced(ctx context.Context, r *soRig, bucket string, key func(int) string, objects int, gap time.Duration) ([]time.Time, error) {
	put := make([]time.Time, objects)
	for i := range put {
		put[i] = time.Now()
		if err := r.put(ctx, bucket, key(i), ndjson(warmID+1+i, 1)); err != nil {
			return nil, err
		}
		time.Sleep(gap)
	}
	return put, nil
}

// seenLatencies is, sorted, each PUT-to-seen time of the objects w saw.
func seenLatencies(w seenAt, put []time.Time) []time.Duration {
	var lat []time.Duration
	for i := range put {
		if at, ok := w.at(warmID + 1 + i); ok {
			lat = append(lat, at.Sub(put[i]))
		}
	}
	sort.Slice(lat, func(a, b int) bool { return lat[a] < lat[b] })
	return lat
}

// pct is the p-th percentile (nearest rank) of sorted ds.
func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := int(float64(len(ds))*p+0.999999) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

// fresh runs one stream per discovery mode side by side over bucket's
// prefix and measures, for objects PUT one by one, the time from the
// PUT's start to the row being in each sink. existing is how many keys
// the prefix already holds (listing walks them all on each poll).
func fresh(ctx context.Context, r *soRig, stdout io.Writer, bucket, prefix string, objects int, gap time.Duration, label string) error {
	base := filepath.Join(r.dir, "fresh-"+bucket)
	modes := []struct{ name, opts string }{
		{"notifications", "discovery = 'notifications', discovery_backfill = 'false', queue = '" + r.queue("fresh-"+bucket) + "', "},
		{"listing", ""},
	}
	var ps []*proc
	var ws []*sinkWatch
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for _, m := range modes {
		out := filepath.Join(base, m.name, "out")
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		stmts := append(r.session(), tablesFor(bucket, prefix, out, "json")...)
		stmts = append(stmts, "INSERT STREAM INTO out SELECT id, status, msg FROM src WHERE id >= 1000000000 WITH (name = 'fresh', "+
			m.opts+"path_glob_filter = '*.new.json', checkpoint_location = '"+filepath.Join(base, m.name, "cp")+"')")
		p, err := r.sluice(filepath.Join(base, m.name, "data"), stmts...)
		if err != nil {
			return err
		}
		defer p.kill()
		ps = append(ps, p)
		ws = append(ws, watchSink(wctx, out))
	}
	names := []string{modes[0].name, modes[1].name}
	if err := warmUp(ctx, r, bucket, prefix+"warm.new.json", []seenAt{ws[0], ws[1]}, ps, names, 10*time.Minute); err != nil {
		return err
	}
	cpu0 := []float64{procCPU(ps[0]), procCPU(ps[1])}
	vs0 := childCPU("versitygw")
	before := loadavg()
	t0 := time.Now()
	put, err := putSpaced(ctx, r, bucket, func(i int) string { return fmt.Sprintf("%so%05d.new.json", prefix, i) }, objects, gap)
	if err != nil {
		return err
	}
	lat := make([][]time.Duration, len(modes))
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		lat[0], lat[1] = seenLatencies(ws[0], put), seenLatencies(ws[1], put)
		if len(lat[0]) == objects && len(lat[1]) == objects {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not every object reached both sinks within 5 minutes (%d, %d of %d)", len(lat[0]), len(lat[1]), objects)
		}
	}
	wall := time.Since(t0).Seconds()
	vs := childCPU("versitygw") - vs0
	for mi, m := range modes {
		l := lat[mi]
		fmt.Fprintf(stdout, "| %s | %s | %d | %.0f | %.0f | %.0f | %.0f | %.2f | %.1f | %s / %s |\n", label, m.name, objects,
			ms(pct(l, 0.5)), ms(pct(l, 0.99)), ms(l[0]), ms(l[len(l)-1]), procCPU(ps[mi])-cpu0[mi], wall, before, loadavg())
	}
	fmt.Fprintf(stdout, "(Versity CPU over the run, both streams' requests: %.2f s)\n", vs)
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// procCPU is a running process's CPU seconds so far, from /proc.
func procCPU(p *proc) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return p.cpu()
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100
}

const freshHeader = "| keys already there | discovery | objects | p50 ms | p99 ms | min ms | max ms | stream CPU s | wall s | load avg before / after |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"

// cmdFreshness: PUT-to-visible latency, notifications vs listing.
func cmdFreshness(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, dir, bin := scaleoutFlags("freshness")
	objects := fs.Int("objects", 40, "objects PUT one by one")
	gap := fs.Duration("gap", 250*time.Millisecond, "pause between PUTs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	os.RemoveAll(*dir)
	r, err := newSORig(*dir, *bin)
	if err != nil {
		return err
	}
	defer r.close()
	if err := r.s3.CreateBucket("fresh"); err != nil {
		return err
	}
	fmt.Fprintln(stdout, freshHeader)
	return fresh(ctx, r, stdout, "fresh", "in/", *objects, *gap, "0")
}

// cmdDiscover: the same latency with keys (empty objects, created as
// files straight in Versity's posix directory, which is how that
// backend stores objects) already under the location.
func cmdDiscover(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, dir, bin := scaleoutFlags("discover")
	keys := fs.Int("keys", 1_000_000, "keys already under the location")
	objects := fs.Int("objects", 10, "new objects PUT one by one")
	gap := fs.Duration("gap", time.Second, "pause between PUTs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	os.RemoveAll(*dir)
	r, err := newSORig(*dir, *bin)
	if err != nil {
		return err
	}
	defer r.close()
	if err := r.s3.CreateBucket("disc"); err != nil {
		return err
	}
	t0 := time.Now()
	root := filepath.Join(r.s3.Dir, "disc", "in")
	const per = 1000
	for d := 0; d*per < *keys; d++ {
		sub := filepath.Join(root, fmt.Sprintf("d%04d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for i := d * per; i < min((d+1)*per, *keys); i++ {
			f, err := os.Create(filepath.Join(sub, fmt.Sprintf("k%07d.json", i)))
			if err != nil {
				return err
			}
			f.Close()
		}
	}
	fmt.Fprintf(stdout, "%d keys created as files in %.1f s\n", *keys, time.Since(t0).Seconds())
	t0 = time.Now()
	n, err := r.listCount(ctx, "disc", "in/")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "one ListObjectsV2 pass over them: %d keys in %.1f s\n", n, time.Since(t0).Seconds())
	fmt.Fprintln(stdout, freshHeader)
	return fresh(ctx, r, stdout, "disc", "in/", *objects, *gap, strconv.Itoa(*keys))
}
