package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/connector/memtable"
	"sluice/internal/exec"
	"sluice/internal/storage"
	"sluice/internal/types"
)

// batchSource streams a memtable: each appended batch is "a new file".
// Its progress (the next batch to read) lives in its checkpoint area.
type batchSource struct {
	*memtable.Table
	area     connector.CheckpointArea
	pos      int
	maxBatch int
}

type span struct{ From, To int }

func (s *batchSource) Recover(ctx context.Context, area connector.CheckpointArea, committed int64) error {
	s.area = area
	r, err := area.Store.Open(ctx, area.Prefix+"pos")
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	defer r.Close()
	var v struct{ Epoch, Pos int64 }
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		return err
	}
	if v.Epoch <= committed {
		s.pos = int(v.Pos)
	}
	return nil
}

func (s *batchSource) Latest(ctx context.Context) (connector.Offset, error) {
	n, _ := s.Table.Latest(ctx)
	total, _ := strconv.Atoi(string(n))
	if total <= s.pos {
		return nil, nil
	}
	to := total
	if s.maxBatch > 0 && to-s.pos > s.maxBatch {
		to = s.pos + s.maxBatch
	}
	return json.Marshal(span{s.pos, to})
}

func (s *batchSource) Plan(ctx context.Context, from, to connector.Offset) ([]connector.Split, error) {
	var sp span
	if err := json.Unmarshal(to, &sp); err != nil {
		return nil, err
	}
	return s.Table.Plan(ctx, []byte(strconv.Itoa(sp.From)), []byte(strconv.Itoa(sp.To)))
}

func (s *batchSource) Commit(ctx context.Context, epoch int64, off connector.Offset) error {
	var sp span
	if err := json.Unmarshal(off, &sp); err != nil {
		return err
	}
	s.pos = sp.To
	data, _ := json.Marshal(struct{ Epoch, Pos int64 }{epoch, int64(sp.To)})
	return s.area.Store.Put(ctx, s.area.Prefix+"pos", bytes.NewReader(data), false)
}

// epochSink keeps rows per epoch; a replayed epoch replaces its rows, as
// deterministic file names or document ids do. failAfterWrite simulates
// a crash between writing and committing.
type epochSink struct {
	mu             sync.Mutex
	epoch          int64
	pending        []int64
	rows           map[int64][]int64
	failAfterWrite int64
}

func (s *epochSink) Schema() *arrow.Schema { return nil }
func (s *epochSink) BeginEpoch(ctx context.Context, e int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch, s.pending = e, nil
	return nil
}
func (s *epochSink) Write(ctx context.Context, b arrow.RecordBatch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	col := b.Column(0).(*array.Int64)
	for i := 0; i < col.Len(); i++ {
		s.pending = append(s.pending, col.Value(i))
	}
	return nil
}
func (s *epochSink) Flush(ctx context.Context, e int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rows == nil {
		s.rows = map[int64][]int64{}
	}
	s.rows[e] = s.pending
	if s.failAfterWrite == e {
		s.failAfterWrite = -1
		return errors.New("simulated crash after the sink wrote")
	}
	return nil
}
func (s *epochSink) Close() error { return nil }
func (s *epochSink) all() []int64 {
	var out []int64
	for _, r := range s.rows {
		out = append(out, r...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

var schema = arrow.NewSchema([]arrow.Field{{Name: "v", Type: types.BigInt, Nullable: true}}, nil)

func batchOf(vals ...int64) arrow.RecordBatch {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues(vals, nil)
	return array.NewRecordBatch(schema, []arrow.Array{b.NewArray()}, int64(len(vals)))
}

func newQuery(t *testing.T, store storage.Store, tbl *memtable.Table, sink *epochSink, trig Trigger, clock Clock) *Query {
	src := &batchSource{Table: tbl, maxBatch: 2}
	scan := &exec.Scan{Source: src, Parallelism: 1}
	return &Query{Name: "t", Checkpoint: &Checkpoint{Store: store, Prefix: "cp/"}, Trigger: trig, Clock: clock,
		Source: src, Scan: scan, Root: &exec.Stage{Scan: scan}, Sink: sink, Owner: "test"}
}

func TestAvailableNowWithCrashAndRestart(t *testing.T) {
	ctx := context.Background()
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprintf("crash=%v", crash), func(t *testing.T) {
			store := storage.NewMemStore("")
			tbl := memtable.New(schema, nil)
			for i := int64(0); i < 5; i++ {
				tbl.Append(batchOf(i*10, i*10+1))
			}
			sink := &epochSink{failAfterWrite: -1}
			if crash {
				sink.failAfterWrite = 1
			}
			q := newQuery(t, store, tbl, sink, Trigger{AvailableNow: true}, SystemClock{})
			err := q.Run(ctx, nil)
			if crash {
				if err == nil {
					t.Fatal("want the simulated crash")
				}
				q = newQuery(t, store, tbl, sink, Trigger{AvailableNow: true}, SystemClock{})
				if err := q.Run(ctx, nil); err != nil {
					t.Fatal(err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			want := []int64{0, 1, 10, 11, 20, 21, 30, 31, 40, 41}
			if got := sink.all(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("sink holds %v, want %v", got, want)
			}
			// Three epochs of at most two batches each.
			last, _ := q.Checkpoint.Last(ctx, "commits")
			if last != 2 {
				t.Fatalf("last committed epoch %d, want 2", last)
			}
		})
	}
}

func TestIntervalTriggerPicksUpNewData(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	tbl.Append(batchOf(1))
	sink := &epochSink{failAfterWrite: -1}
	clock := NewManualClock(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	q := newQuery(t, store, tbl, sink, Trigger{Interval: 10 * time.Second}, clock)
	epochs := make(chan Progress, 10)
	q.OnProgress = func(p Progress) { epochs <- p }
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, stop) }()
	p := <-epochs
	if p.Epoch != 0 || p.RowsOut != 1 {
		t.Fatalf("first epoch: %+v", p)
	}
	tbl.Append(batchOf(2), batchOf(3), batchOf(4))
	waitWaiters(t, clock)
	clock.Advance(10 * time.Second)
	p = <-epochs
	if p.Epoch != 1 || p.RowsOut != 2 { // rate limit: two batches per epoch
		t.Fatalf("second epoch: %+v", p)
	}
	waitWaiters(t, clock)
	clock.Advance(10 * time.Second)
	p = <-epochs
	if p.Epoch != 2 || p.RowsOut != 1 {
		t.Fatalf("third epoch: %+v", p)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := sink.all(); fmt.Sprint(got) != "[1 2 3 4]" {
		t.Fatalf("sink holds %v", got)
	}
}

func waitWaiters(t *testing.T, c *ManualClock) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for c.Waiters() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("runner never waited for its trigger")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestSecondRunnerFailsFast(t *testing.T) {
	dir := t.TempDir()
	store, err := storage.NewLocalStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	cp := &Checkpoint{Store: store, Prefix: "cp/"}
	l1, err := AcquireLock(context.Background(), cp, "first")
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(context.Background(), cp, "second")
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("want ErrLocked, got %v", err)
	}
	l1.Release()
	l2, err := AcquireLock(context.Background(), cp, "third")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Release()
	// Lease locks on object stores.
	mem := &Checkpoint{Store: storage.NewMemStore(""), Prefix: "cp/"}
	m1, err := AcquireLock(context.Background(), mem, "first")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireLock(context.Background(), mem, "second"); !errors.Is(err, ErrLocked) {
		t.Fatalf("lease: want ErrLocked, got %v", err)
	}
	m1.Release()
}

func TestParseTrigger(t *testing.T) {
	for in, want := range map[string]string{"10 seconds": "10s", "once": "once", "available_now": "available_now", "500 ms": "500ms"} {
		tr, err := ParseTrigger(in)
		if err != nil || tr.String() != want {
			t.Errorf("%q: got %v %v, want %s", in, tr, err, want)
		}
	}
	if _, err := ParseTrigger("soon"); err == nil {
		t.Error("want an error for 'soon'")
	}
}
