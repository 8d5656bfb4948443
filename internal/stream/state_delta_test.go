package stream

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector/memtable"
	"sluice/internal/exec"
	"sluice/internal/storage"
)

// keyCount counts rows by v%5 and, at each epoch's end, writes
// key*1000+count for the keys that changed (an update-mode aggregate in
// miniature). Its deltas hold the changed keys only, so a restore that
// skips, repeats or misorders a delta writes other counts.
type keyCount struct {
	exec.Base
	counts  map[int64]int64
	changed map[int64]bool
	dirty   map[int64]bool
}

var _ exec.Incremental = (*keyCount)(nil)

func newKeyCount() *keyCount {
	return &keyCount{counts: map[int64]int64{}, changed: map[int64]bool{}, dirty: map[int64]bool{}}
}

func (k *keyCount) Schema() *arrow.Schema { return schema }
func (k *keyCount) String() string        { return "KeyCount" }

func (k *keyCount) Process(ctx context.Context, b arrow.RecordBatch, out exec.Output) error {
	col := b.Column(0).(*array.Int64)
	for i := 0; i < col.Len(); i++ {
		key := col.Value(i) % 5
		k.counts[key]++
		k.changed[key], k.dirty[key] = true, true
	}
	return nil
}

func (k *keyCount) EndEpoch(ctx context.Context, out exec.Output) error {
	var vals []int64
	for key := range k.dirty {
		vals = append(vals, key*1000+k.counts[key])
	}
	clear(k.dirty)
	if len(vals) == 0 {
		return nil
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	bb := array.NewInt64Builder(memory.DefaultAllocator)
	bb.AppendValues(vals, nil)
	rb := array.NewRecordBatch(schema, []arrow.Array{bb.NewArray()}, int64(len(vals)))
	return out.Send(ctx, exec.Message{Batch: rb})
}

func (k *keyCount) write(w io.Writer, keys map[int64]bool) error {
	var pairs []int64
	for key := range keys {
		pairs = append(pairs, key, k.counts[key])
	}
	if err := binary.Write(w, binary.LittleEndian, int64(len(pairs))); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, pairs)
}

func (k *keyCount) read(r io.Reader) error {
	var n int64
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return err
	}
	pairs := make([]int64, n)
	if err := binary.Read(r, binary.LittleEndian, pairs); err != nil {
		return err
	}
	for i := 0; i < len(pairs); i += 2 {
		k.counts[pairs[i]] = pairs[i+1]
	}
	clear(k.changed)
	return nil
}

func (k *keyCount) Snapshot(w io.Writer) error {
	all := map[int64]bool{}
	for key := range k.counts {
		all[key] = true
	}
	clear(k.changed)
	return k.write(w, all)
}

func (k *keyCount) SnapshotDelta(w io.Writer) error {
	err := k.write(w, k.changed)
	clear(k.changed)
	return err
}

func (k *keyCount) Restore(r io.Reader) error {
	k.counts = map[int64]int64{}
	return k.read(r)
}

func (k *keyCount) RestoreDelta(r io.Reader) error { return k.read(r) }

func (k *keyCount) StateDescription() exec.StateDescription {
	return exec.StateDescription{Kind: "key_count", Props: []exec.StateProperty{{Name: "keys", Value: "v % 5"}}}
}

// failCommit fails the put of commits/<epoch> once: a crash after the
// epoch's state (a delta, say) is written and before it commits.
type failCommit struct {
	storage.Store
	epoch int64
}

func (f *failCommit) Put(ctx context.Context, key string, r io.Reader, ifAbsent bool) error {
	if f.epoch >= 0 && strings.HasSuffix(key, fmt.Sprintf("commits/%d", f.epoch)) {
		f.epoch = -1
		return errors.New("simulated crash before the commit")
	}
	return f.Store.Put(ctx, key, r, ifAbsent)
}

// runKeyCount streams 20 one-batch epochs through keyCount, restarting
// after each crash in crashes (the commit of that epoch fails), with
// compactEvery deltas between full snapshots; it returns the sink's rows
// in epoch order and the checkpoint's store.
func runKeyCount(t *testing.T, compactEvery int64, crashes ...int64) (string, storage.Store) {
	t.Helper()
	ctx := context.Background()
	mem := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	for i := int64(0); i < 20; i++ {
		tbl.Append(batchOf(i, i*3+1, i*7+2))
	}
	sink := &epochSink{failAfterWrite: -1}
	for run := 0; ; run++ {
		store := &failCommit{Store: mem, epoch: -1}
		if run < len(crashes) {
			store.epoch = crashes[run]
		}
		q := newQuery(t, store, tbl, sink, Trigger{AvailableNow: true}, SystemClock{})
		q.Source.(*batchSource).maxBatch = 1
		q.Root.Ops = []exec.Operator{newKeyCount()}
		q.CompactEvery = compactEvery
		err := q.Run(ctx, nil)
		if run < len(crashes) {
			if err == nil || !strings.Contains(err.Error(), "simulated crash") {
				t.Fatalf("run %d: want the simulated crash, got %v", run, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	var epochs []int64
	for e := range sink.rows {
		epochs = append(epochs, e)
	}
	sort.Slice(epochs, func(i, j int) bool { return epochs[i] < epochs[j] })
	var sb strings.Builder
	for _, e := range epochs {
		fmt.Fprintf(&sb, "%d:%v ", e, sink.rows[e])
	}
	return sb.String(), mem
}

func stateFiles(t *testing.T, store storage.Store) (full, deltas int) {
	t.Helper()
	err := store.List(context.Background(), "cp/state/", "", func(o storage.ObjectInfo) error {
		if strings.HasSuffix(o.Key, deltaSuffix) {
			deltas++
		} else {
			full++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return full, deltas
}

// TestDeltaStateCrashRestartManyEpochs: 20 epochs with a full snapshot
// at least every 4th, crashing between the state write and the commit at a delta
// epoch, around compactions and at the last epoch; the sink must hold
// exactly what a straight run with full snapshots only writes.
func TestDeltaStateCrashRestartManyEpochs(t *testing.T) {
	want, _ := runKeyCount(t, -1)
	straight, store := runKeyCount(t, 3)
	if straight != want {
		t.Fatalf("with deltas:\n%s\nfull snapshots:\n%s", straight, want)
	}
	// Every 4th epoch at most is full (or sooner, when the deltas outgrow
	// the full snapshot while the state is small).
	if full, deltas := stateFiles(t, store); full < 5 || deltas < 10 || full+deltas != 20 {
		t.Fatalf("checkpoint holds %d full snapshots and %d deltas over 20 epochs", full, deltas)
	}
	got, _ := runKeyCount(t, 3, 6, 8, 9, 19)
	if got != want {
		t.Fatalf("with crashes:\n%s\nstraight:\n%s", got, want)
	}
}

// TestFullSnapshotCheckpointStillRestores: a checkpoint whose commits
// hold full snapshots only (as before deltas) restores, and the stream
// goes on with deltas from there.
func TestFullSnapshotCheckpointStillRestores(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	tbl.Append(batchOf(1, 2, 6))
	sink := &epochSink{failAfterWrite: -1}
	q := newQuery(t, store, tbl, sink, Trigger{Once: true}, SystemClock{})
	q.Root.Ops = []exec.Operator{newKeyCount()}
	q.CompactEvery = -1
	if err := q.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	c, err := q.Checkpoint.ReadCommit(ctx, 0)
	if err != nil || c.State.Operators[0].Deltas != 0 {
		t.Fatalf("commit 0: %+v, %v", c, err)
	}
	for i := int64(0); i < 2; i++ {
		tbl.Append(batchOf(11))
		q = newQuery(t, store, tbl, sink, Trigger{Once: true}, SystemClock{})
		q.Root.Ops = []exec.Operator{newKeyCount()}
		if err := q.Run(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Key 1 counted 1 and 6, then 11 twice: the state came through the
	// full snapshot and then one delta.
	if got := fmt.Sprint(sink.rows[2]); got != "[1004]" {
		t.Fatalf("epoch 2 wrote %s, want [1004]", got)
	}
	if _, err := store.Stat(ctx, q.Checkpoint.DeltaKey(2, "key_count-0")); err != nil {
		t.Fatalf("epoch 2 saved no delta: %v", err)
	}
}

// TestPurgeKeepsTheDeltaChain: purging to one retained epoch keeps the
// full snapshot and deltas that the last commit restores from.
func TestPurgeKeepsTheDeltaChain(t *testing.T) {
	ctx := context.Background()
	cp := &Checkpoint{Store: storage.NewMemStore(""), Prefix: "cp/"}
	for e := int64(10); e <= 20; e++ {
		key := cp.DeltaKey(e, "key_count-0")
		if e == 15 {
			key = cp.StateKey(e, "key_count-0")
		}
		if err := cp.Store.Put(ctx, key, strings.NewReader("x"), false); err != nil {
			t.Fatal(err)
		}
		if err := cp.WriteCommit(ctx, &CommitRecord{Epoch: e, State: &StateManifest{Operators: []StateEntry{{ID: "key_count-0", Deltas: max(e-15, 0)}}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := cp.Purge(ctx, 20, 1); err != nil {
		t.Fatal(err)
	}
	for e := int64(15); e <= 20; e++ {
		key := cp.DeltaKey(e, "key_count-0")
		if e == 15 {
			key = cp.StateKey(e, "key_count-0")
		}
		if _, err := cp.Store.Stat(ctx, key); err != nil {
			t.Fatalf("purge removed %s, which commits/20 restores from", key)
		}
	}
	if _, err := cp.Store.Stat(ctx, cp.DeltaKey(14, "key_count-0")); err == nil {
		t.Fatal("purge kept state/14, which no kept commit needs")
	}
}
