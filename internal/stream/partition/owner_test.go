package partition

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/exec"
	"sluice/internal/expr"
	"sluice/internal/storage"
	"sluice/internal/stream"
	"sluice/internal/types"
)

var rowSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: types.Timestamp, Nullable: true},
	{Name: "status", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

const minute = int64(60_000_000)

// rows is a batch of (minute, status) pairs.
func rows(pairs ...[2]int64) arrow.RecordBatch {
	tb := array.NewTimestampBuilder(memory.DefaultAllocator, types.Timestamp.(*arrow.TimestampType))
	sb := array.NewInt64Builder(memory.DefaultAllocator)
	for _, p := range pairs {
		tb.Append(arrow.Timestamp(p[0] * minute))
		sb.Append(p[1])
	}
	return array.NewRecordBatch(rowSchema, []arrow.Array{tb.NewArray(), sb.NewArray()}, int64(len(pairs)))
}

// publishFile publishes the partials of one file's rows as a reader's
// epoch does: one epoch per file, flushed to JetStream.
func publishFile(t *testing.T, pub *Publisher, file int64, b arrow.RecordBatch) {
	t.Helper()
	ctx := context.Background()
	if err := pub.BeginEpoch(ctx, file); err != nil {
		t.Fatal(err)
	}
	if err := pub.Part.Process(ctx, b, nil); err != nil {
		t.Fatal(err)
	}
	if err := pub.Flush(ctx, file); err != nil {
		t.Fatal(err)
	}
}

// tumbleCount is GROUP BY TUMBLE(ts, '5 minutes'), status with count(*)
// in append mode.
func tumbleCount(t *testing.T) *exec.WindowAggregate {
	t.Helper()
	return tumbleCountMode(t, exec.Append)
}

// tumbleCountMode is tumbleCount in the given output mode.
func tumbleCountMode(t *testing.T, mode exec.OutputMode) *exec.WindowAggregate {
	t.Helper()
	size, _ := expr.Lit("5 minutes", types.String)
	win, err := expr.Call("tumble", expr.Col(0, "ts", types.Timestamp), size)
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := expr.NewAggregate("count", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	w, err := exec.NewWindowAggregate([]expr.Expr{win, expr.Col(1, "status", arrow.PrimitiveTypes.Int64)},
		[]string{"w", "status", "n"}, []*expr.Aggregate{cnt}, 0, mode)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// statusCountGroups is the template of SELECT status, count(*) AS n ...
// GROUP BY status in update mode, as workers share it.
func statusCountGroups(t *testing.T) *exec.WindowAggregate {
	t.Helper()
	cnt, err := expr.NewAggregate("count", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := exec.NewHashAggregate([]expr.Expr{expr.Col(1, "status", arrow.PrimitiveTypes.Int64)}, []string{"status", "n"}, []*expr.Aggregate{cnt})
	if err != nil {
		t.Fatal(err)
	}
	return exec.NewStreamAggregate(h, exec.Update).KeyedGroups()
}

// memSink records each flushed epoch's rows as "window-minute/status=n".
type memSink struct {
	cur    []string
	epochs map[int64][]string
	order  []int64
}

func (s *memSink) Schema() *arrow.Schema { return nil }
func (s *memSink) BeginEpoch(context.Context, int64) error {
	s.cur = nil
	return nil
}
func (s *memSink) Write(_ context.Context, b arrow.RecordBatch) error {
	w := b.Column(0).(*array.Struct).Field(0).(*array.Timestamp)
	for i := 0; i < int(b.NumRows()); i++ {
		s.cur = append(s.cur, fmt.Sprintf("%d/%s=%s", int64(w.Value(i))/minute, b.Column(1).ValueStr(i), b.Column(2).ValueStr(i)))
	}
	return nil
}
func (s *memSink) Flush(_ context.Context, id int64) error {
	sort.Strings(s.cur)
	if s.epochs == nil {
		s.epochs = map[int64][]string{}
	}
	s.epochs[id] = s.cur
	s.order = append(s.order, id)
	return nil
}
func (s *memSink) Close() error { return nil }

// all is every row of the last write of each epoch id, sorted.
func (s *memSink) all() []string {
	var out []string
	for _, r := range s.epochs {
		out = append(out, r...)
	}
	sort.Strings(out)
	return out
}

// TestOwnerExactlyOnce: partials of three files (one published twice
// under another message id, as after JetStream's duplicate window) are
// folded once; a window closes when the watermark passes its end; an
// owner that crashed before commits/N is replaced by one that replays
// offsets/N into the same sink epoch with the same rows; a zombie owner
// that wakes up after its successor committed is refused (by the lease
// check before its sink write; commits/N is written if absent too).
func TestOwnerExactlyOnce(t *testing.T) {
	ctx := context.Background()
	js := testJS(t)
	pst, err := EnsureStream(ctx, js, "agg", 0)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := tumbleCount(t)
	pub := &Publisher{JS: js, Stream: "agg", Part: tmpl.Partitioner(2)}
	publish := func(file int64, b arrow.RecordBatch) { publishFile(t, pub, file, b) }
	publish(1, rows([2]int64{1, 200}, [2]int64{2, 404}, [2]int64{2, 200}))
	publish(2, rows([2]int64{3, 200}, [2]int64{6, 404}))
	publish(1, rows([2]int64{1, 200}, [2]int64{2, 404}, [2]int64{2, 200})) // same message ids: dropped by JetStream
	// File 1 again under new message ids: only the owner's file set
	// knows it was folded.
	p2 := tmpl.Partitioner(2)
	_ = p2.Process(ctx, rows([2]int64{1, 200}, [2]int64{2, 404}, [2]int64{2, 200}), nil)
	parts, _ := p2.Take()
	for _, wp := range parts {
		data, _ := json.Marshal(partialMsg{File: 1, Partials: []partialWindow{{Start: wp.Start, End: wp.End, State: wp.State}}})
		if _, err := js.Publish(ctx, PartSubject("agg", wp.Partition), data); err != nil {
			t.Fatal(err)
		}
	}

	base := &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "cp/"}
	sink := &memSink{}
	newOwner := func(worker string) *Owner {
		t.Helper()
		l, err := OpenLeases(ctx, js, "sluice-agg", worker, 2, 2*time.Second, 0)
		if err != nil {
			t.Fatal(err)
		}
		return &Owner{Stream: "agg", Parts: 2, PStream: pst, Leases: l, Base: base, Template: tmpl, Sink: sink,
			parts: map[int]*ownedPart{}, owners: map[int]Holder{}}
	}
	a := newOwner("a")
	if _, err := a.Leases.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.balance(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(a.Leases.Held()); got != "[0 1]" {
		t.Fatalf("a holds %s", got)
	}
	runAll := func(o *Owner, wm int64) {
		t.Helper()
		for _, p := range []int{0, 1} {
			if part := o.parts[p]; part != nil {
				if err := o.epoch(ctx, part, wm); err != nil {
					t.Fatalf("partition %d: %v", p, err)
				}
			}
		}
	}
	runAll(a, math.MinInt64)
	if len(sink.order) != 0 {
		t.Fatalf("no window may close without a watermark: %v", sink.epochs)
	}
	runAll(a, 5*minute)
	if got, want := strings.Join(sink.all(), " "), "0/200=3 0/404=1"; got != want {
		t.Fatalf("closed at 5: %s, want %s", got, want)
	}
	if a.stats.Duplicates == 0 {
		t.Error("the second copy of file 1 was not counted as a duplicate")
	}

	// a crashes in the epoch closing [5, 10) after writing the sink and
	// before commits/N (here: its commit removed); b takes over after
	// the TTL and replays offsets/N into the same sink epoch.
	publish(3, rows([2]int64{7, 404}, [2]int64{11, 200}))
	runAll(a, 10*minute)
	before := len(sink.order)
	var lastIDs []int64
	for _, id := range sink.order[before-1:] {
		lastIDs = append(lastIDs, id)
	}
	for _, p := range []int{0, 1} {
		cp := a.partCheckpoint(p)
		n, _ := cp.Last(ctx, "commits")
		if err := base.Store.Delete(ctx, cp.Prefix+fmt.Sprintf("commits/%d", n)); err != nil {
			t.Fatal(err)
		}
	}
	rowsBefore := strings.Join(sink.all(), " ")
	b := newOwner("b")
	if _, err := b.Leases.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(b.Leases.Held()) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("b holds %v after a's leases expired", b.Leases.Held())
		}
		time.Sleep(200 * time.Millisecond)
		_, _ = b.Leases.Heartbeat(ctx)
		if err := b.balance(ctx); err != nil {
			t.Fatal(err)
		}
	}
	runAll(b, 20*minute) // replays offsets/N (watermark 10), whatever b's own watermark
	if got := strings.Join(sink.all(), " "); got != rowsBefore || got != "0/200=3 0/404=1 5/404=2" {
		t.Fatalf("after b's replay: %s, before %s", got, rowsBefore)
	}
	if sink.order[len(sink.order)-1] != lastIDs[0] {
		t.Fatalf("the replay wrote sink epoch %d, the crashed one %d", sink.order[len(sink.order)-1], lastIDs[0])
	}
	// a, paused past its lease (it still believes it holds it), wakes
	// up on the epoch b has just committed.
	publish(4, rows([2]int64{21, 200}))
	part := b.parts[0]
	if part == nil {
		part = b.parts[1]
	}
	zombie := a.parts[part.id]
	if err := b.epoch(ctx, part, 25*minute); err != nil {
		t.Fatal(err)
	}
	a.Leases.mu.Lock()
	a.Leases.held[part.id] = held{rev: 1, gen: zombie.gen}
	a.Leases.mu.Unlock()
	zombie.next = part.next - 1
	if err := a.epoch(ctx, zombie, 30*minute); err == nil {
		t.Fatal("a zombie owner committed an epoch its successor had committed")
	}
	if got := strings.Join(sink.all(), " "); got != "0/200=3 0/404=1 10/200=1 20/200=1 5/404=2" {
		t.Fatalf("after the zombie: %s", got)
	}
}
