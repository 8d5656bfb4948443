package file

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
	"sluice/internal/storage"
)

// openCounter counts the objects a restart reads from the checkpoint.
type openCounter struct {
	storage.Store
	opens atomic.Int64
}

func (c *openCounter) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	c.opens.Add(1)
	return c.Store.Open(ctx, key)
}

// manyFiles lands n tiny JSON objects under mem://name/in/ with keys that
// sort by arrival, and returns the table location.
func manyFiles(t testing.TB, name string, from, n int) string {
	t.Helper()
	return manyFilesAt(t, name, from, n, time.Time{})
}

// manyFilesAt is manyFiles with every object's modification time set to
// at (unless zero), so age rules do not depend on how long landing took.
func manyFilesAt(t testing.TB, name string, from, n int, at time.Time) string {
	t.Helper()
	st := storage.NamedMemStore(name)
	ctx := context.Background()
	for i := from; i < from+n; i++ {
		key := fmt.Sprintf("in/%07d.json", i)
		if err := st.Put(ctx, key, bytes.NewReader([]byte(fmt.Sprintf("{\"id\": %d}\n", i))), false); err != nil {
			t.Fatal(err)
		}
		if !at.IsZero() {
			st.SetModTime(key, at)
		}
	}
	return "mem://" + name + "/in/"
}

type compactRig struct {
	t    *testing.T
	loc  string
	opts map[string]string
	area connector.CheckpointArea
	cnt  *openCounter
	src  *StreamSource
	next int64
}

func (r *compactRig) open() time.Duration {
	r.t.Helper()
	sch := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	src, err := NewSource(context.Background(), connector.TableSpec{Name: "many", Using: "json", Location: r.loc, Options: r.opts, Schema: sch})
	if err != nil {
		r.t.Fatal(err)
	}
	ss, err := NewStreamSource(src)
	if err != nil {
		r.t.Fatal(err)
	}
	r.cnt.opens.Store(0)
	start := time.Now()
	if err := ss.Recover(context.Background(), r.area, r.next-1); err != nil {
		r.t.Fatal(err)
	}
	r.src = ss
	return time.Since(start)
}

// epochs runs epochs until one finds nothing new; it returns the files read.
func (r *compactRig) epochs() int {
	r.t.Helper()
	ctx := context.Background()
	total := 0
	for {
		off, err := r.src.Latest(ctx)
		if err != nil {
			r.t.Fatal(err)
		}
		if off == nil {
			return total
		}
		fo, err := decodeOffset(off)
		if err != nil {
			r.t.Fatal(err)
		}
		total += len(fo.Files)
		if err := r.src.Commit(ctx, r.next, off); err != nil {
			r.t.Fatal(err)
		}
		r.next++
	}
}

func memNow() runtime.MemStats {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

// TestSeenLogCompaction200k streams 200,000 files and restarts: the
// restart reads one snapshot plus the log entries since, whatever the
// history; in start_after mode the seen set stays empty, and with
// max_file_age the old files are purged from it.
func TestSeenLogCompaction200k(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 files")
	}
	const n = 200_000
	for _, mode := range []string{"full", "start_after", "max_file_age"} {
		t.Run(mode, func(t *testing.T) {
			name := "compact-" + strings.ReplaceAll(mode, "_", "-")
			storage.DropMemStore(name)
			storage.DropMemStore(name + "-cp")
			defer storage.DropMemStore(name)
			defer storage.DropMemStore(name + "-cp")
			// Event times are set, not waited for: the backlog landed at
			// base, the later files a minute after it.
			base := time.Now().Add(-time.Hour)
			loc := manyFilesAt(t, name, 0, n, base)
			opts := map[string]string{"max_files_per_trigger": "50000"}
			switch mode {
			case "start_after":
				opts["discovery"] = "start_after"
			case "max_file_age":
				opts["max_file_age"] = "4s"
			}
			cnt := &openCounter{Store: storage.NamedMemStore(name + "-cp")}
			r := &compactRig{t: t, loc: loc, opts: opts, cnt: cnt, area: connector.CheckpointArea{Store: cnt, Prefix: "cp/sources/0/"}}
			r.open()
			if got := r.epochs(); got != n {
				t.Fatalf("streamed %d files, want %d", got, n)
			}
			// Eight more epochs of one file each: the compaction after
			// epoch 9 and two log entries after it. They land a minute
			// after the backlog, which then ages out under max_file_age.
			for i := 0; i < 8; i++ {
				manyFilesAt(t, name, n+i, 1, base.Add(time.Minute))
				if got := r.epochs(); got != 1 {
					t.Fatalf("epoch with one new file read %d", got)
				}
			}
			r.src = nil
			before := memNow()
			took := r.open()
			after := memNow()
			seen := r.src.Seen()
			t.Logf("%s: restart after %d epochs (%d files) took %s, read %d checkpoint objects, seen set %d entries, allocated %.1f MiB, heap %.1f -> %.1f MiB",
				mode, r.next, n+8, took.Round(time.Millisecond), cnt.opens.Load(), seen,
				float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), float64(before.HeapAlloc)/(1<<20), float64(after.HeapAlloc)/(1<<20))
			if o := cnt.opens.Load(); o > 1+compactEvery {
				t.Fatalf("restart read %d objects: want one snapshot and fewer than %d log entries", o, compactEvery)
			}
			switch mode {
			case "full":
				if seen != n+8 {
					t.Fatalf("seen set %d, want %d", seen, n+8)
				}
			default:
				if seen > compactEvery {
					t.Fatalf("seen set %d entries: want only the log entries since the snapshot", seen)
				}
			}
			// The restarted source must still see nothing new.
			if got := r.epochs(); got != 0 {
				t.Fatalf("after restart %d files looked new", got)
			}
		})
	}
}
