package partition

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/exec"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// TestOwnerWindowsUpdate: an update-mode TUMBLE(ts, '5 minutes'),
// status count over one partition. Each epoch writes the windows its
// partials changed, with their current counts, and nothing else; once
// the watermark passes a window's end its state and file ids are
// dropped without another write, and a later partial for it is late;
// an owner that crashed before commits/N is replaced by one that writes
// the same rows under the same sink epoch.
func TestOwnerWindowsUpdate(t *testing.T) {
	ctx := context.Background()
	js := testJS(t)
	pst, err := EnsureStream(ctx, js, "wup", 0)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := tumbleCountMode(t, exec.Update)
	pub := &Publisher{JS: js, Stream: "wup", Part: tmpl.Partitioner(1)}
	publish := func(file int64, b arrow.RecordBatch) { publishFile(t, pub, file, b) }
	base := &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "cp/"}
	sink := &memSink{}
	newOwner := func(worker string) *Owner {
		t.Helper()
		l, err := OpenLeases(ctx, js, "sluice-wup", worker, 1, 2*time.Second, 0)
		if err != nil {
			t.Fatal(err)
		}
		o := &Owner{Stream: "wup", Parts: 1, PStream: pst, Leases: l, Base: base, Template: tmpl, Sink: sink,
			parts: map[int]*ownedPart{}, owners: map[int]Holder{}}
		deadline := time.Now().Add(10 * time.Second)
		for o.parts[0] == nil {
			if time.Now().After(deadline) {
				t.Fatalf("%s never took partition 0", worker)
			}
			if _, err := l.Heartbeat(ctx); err != nil {
				t.Fatal(err)
			}
			if err := o.balance(ctx); err != nil {
				t.Fatal(err)
			}
			if o.parts[0] == nil {
				time.Sleep(200 * time.Millisecond)
			}
		}
		return o
	}
	// epoch runs one epoch and returns what it wrote, sorted.
	epoch := func(o *Owner, wm int64) string {
		t.Helper()
		before := len(sink.order)
		if err := o.epoch(ctx, o.parts[0], wm); err != nil {
			t.Fatal(err)
		}
		if len(sink.order) == before {
			return ""
		}
		rows := append([]string(nil), sink.epochs[sink.order[len(sink.order)-1]]...)
		sort.Strings(rows)
		return strings.Join(rows, " ")
	}
	a := newOwner("a")
	publish(1, rows([2]int64{1, 200}, [2]int64{2, 404}, [2]int64{6, 200}))
	publish(2, rows([2]int64{3, 200}))
	if got := epoch(a, math.MinInt64); got != "0/200=2 0/404=1 5/200=1" {
		t.Fatalf("first epoch wrote %q", got)
	}
	publish(3, rows([2]int64{4, 404}))
	if got := epoch(a, math.MinInt64); got != "0/404=2" {
		t.Fatalf("a partial of window 0's 404 group wrote %q, want that group only", got)
	}
	// The watermark passes window 0: dropped, nothing written.
	if got := epoch(a, 5*minute); got != "" {
		t.Fatalf("closing window 0 wrote %q", got)
	}
	if got := fmt.Sprint(a.parts[0].agg.OpenWindowEnds()); got != fmt.Sprint([][2]int64{{5 * minute, 10 * minute}}) {
		t.Fatalf("open windows after the watermark passed window 0: %s", got)
	}
	if _, ok := a.parts[0].files[0]; ok {
		t.Fatal("window 0's file ids outlived it")
	}
	// a crashes after writing the sink, before commits/N.
	publish(4, rows([2]int64{2, 500}, [2]int64{7, 404}))
	crashed := epoch(a, 5*minute)
	if crashed != "5/404=1" {
		t.Fatalf("a late row and a row of window 5 wrote %q", crashed)
	}
	if a.stats.Late != 1 {
		t.Fatalf("late %d, want 1 (window 0's partial)", a.stats.Late)
	}
	crashedID := sink.order[len(sink.order)-1]
	cp := a.partCheckpoint(0)
	last, _ := cp.Last(ctx, "commits")
	if err := base.Store.Delete(ctx, cp.Prefix+fmt.Sprintf("commits/%d", last)); err != nil {
		t.Fatal(err)
	}
	b := newOwner("b")
	if got := epoch(b, 5*minute); got != crashed || sink.order[len(sink.order)-1] != crashedID {
		t.Fatalf("b's replay wrote %q under %d, the crashed epoch %q under %d", got, sink.order[len(sink.order)-1], crashed, crashedID)
	}
}
