package stream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"sluice/internal/connector/memtable"
	"sluice/internal/exec"
	"sluice/internal/storage"
)

// distinctQuery streams v through DISTINCT: what it writes after a
// restart shows whether the set of seen values was restored.
func distinctQuery(t *testing.T, store storage.Store, tbl *memtable.Table, sink *epochSink, ops ...exec.Operator) *Query {
	q := newQuery(t, store, tbl, sink, Trigger{Once: true}, SystemClock{})
	if ops == nil {
		ops = []exec.Operator{exec.NewDistinct(schema)}
	}
	q.Root.Ops = ops
	return q
}

func moveObject(t *testing.T, store storage.Store, from, to string) {
	t.Helper()
	ctx := context.Background()
	r, err := store.Open(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(r)
	r.Close()
	if err := store.Put(ctx, to, bytes.NewReader(data), false); err != nil {
		t.Fatal(err)
	}
	if err := store.Delete(ctx, from); err != nil {
		t.Fatal(err)
	}
}

// makeLegacy rewrites epoch n of the checkpoint as code before operator
// ids wrote it: state/n/0 and a commit without a state manifest.
func makeLegacy(t *testing.T, cp *Checkpoint, n int64, ids ...string) {
	t.Helper()
	ctx := context.Background()
	for i, id := range ids {
		moveObject(t, cp.Store, cp.StateKey(n, id), cp.legacyStateKey(n, i))
	}
	c, err := cp.ReadCommit(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	c.State = nil
	key := cp.key("commits", fmt.Sprint(n))
	if err := cp.Store.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if err := cp.WriteCommit(ctx, c); err != nil {
		t.Fatal(err)
	}
}

func TestStateRestoresByID(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	tbl.Append(batchOf(1, 2), batchOf(2, 3))
	sink := &epochSink{failAfterWrite: -1}
	if err := distinctQuery(t, store, tbl, sink).Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Stat(ctx, "cp/state/0/distinct-0"); err != nil {
		t.Fatalf("state of epoch 0 not under its operator id: %v", err)
	}
	tbl.Append(batchOf(3, 4))
	if err := distinctQuery(t, store, tbl, sink).Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sink.all()); got != "[1 2 3 4]" {
		t.Fatalf("sink holds %s: the seen values were not restored", got)
	}
}

func TestLegacyStateStillRestores(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	tbl.Append(batchOf(1, 2), batchOf(2, 3))
	sink := &epochSink{failAfterWrite: -1}
	q := distinctQuery(t, store, tbl, sink)
	if err := q.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	makeLegacy(t, q.Checkpoint, 0, "distinct-0")
	tbl.Append(batchOf(3, 4))
	if err := distinctQuery(t, store, tbl, sink).Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(sink.all()); got != "[1 2 3 4]" {
		t.Fatalf("sink holds %s: the legacy state was not restored", got)
	}
	// The restart wrote epoch 1 with ids; make it legacy again and add an
	// operator: the counts differ, so nothing is restored.
	makeLegacy(t, q.Checkpoint, 1, "distinct-0")
	tbl.Append(batchOf(5))
	err := distinctQuery(t, store, tbl, sink, exec.NewDistinct(schema), exec.NewLimit(schema, 100, 0)).Run(ctx, nil)
	var mismatch *StateMismatchError
	if !errors.As(err, &mismatch) || !strings.Contains(err.Error(), "holds the state of 1 stateful operators and the query has 2") {
		t.Fatalf("want a state mismatch, got %v", err)
	}
}

func TestStateMismatchRefusesToStart(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemStore("")
	tbl := memtable.New(schema, nil)
	tbl.Append(batchOf(1, 2))
	sink := &epochSink{failAfterWrite: -1}
	if err := distinctQuery(t, store, tbl, sink).Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	tbl.Append(batchOf(3))
	err := distinctQuery(t, store, tbl, sink, exec.NewLimit(schema, 100, 0)).Run(ctx, nil)
	var mismatch *StateMismatchError
	if !errors.As(err, &mismatch) {
		t.Fatalf("want a state mismatch, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"stream t:", "checkpoint mem://", "limit-0 is new: limit 100, offset 0",
		"distinct-0 is gone: columns [v BIGINT]", "use a new checkpoint_location or delete the checkpoint"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
	if last, _ := (&Checkpoint{Store: store, Prefix: "cp/"}).Last(ctx, "offsets"); last != 0 {
		t.Errorf("an epoch was planned after the mismatch: last offsets %d", last)
	}
	if got := fmt.Sprint(sink.all()); got != "[1 2]" {
		t.Errorf("sink holds %s after the refused start", got)
	}
}
