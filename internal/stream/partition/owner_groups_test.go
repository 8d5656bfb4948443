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

	"sluice/internal/storage"
	"sluice/internal/stream"
)

// groupSink records each flushed epoch's rows as "status=n".
type groupSink struct {
	cur    []string
	epochs map[int64][]string
	order  []int64
}

func (s *groupSink) Schema() *arrow.Schema { return nil }
func (s *groupSink) BeginEpoch(context.Context, int64) error {
	s.cur = nil
	return nil
}
func (s *groupSink) Write(_ context.Context, b arrow.RecordBatch) error {
	for i := 0; i < int(b.NumRows()); i++ {
		s.cur = append(s.cur, b.Column(0).ValueStr(i)+"="+b.Column(1).ValueStr(i))
	}
	return nil
}
func (s *groupSink) Flush(_ context.Context, id int64) error {
	sort.Strings(s.cur)
	if s.epochs == nil {
		s.epochs = map[int64][]string{}
	}
	s.epochs[id] = s.cur
	s.order = append(s.order, id)
	return nil
}
func (s *groupSink) Close() error { return nil }

// last is the rows of the last n flushes, sorted.
func (s *groupSink) last(n int) string {
	var out []string
	for _, id := range s.order[len(s.order)-n:] {
		out = append(out, s.epochs[id]...)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestOwnerGroupsUpdate: an update-mode GROUP BY status over two
// partitions. Partials of two files (one file published again under
// other message ids) are folded once, and every group they changed is
// written with its count, with no watermark at all; an owner that
// crashed before commits/N is replaced by one that writes the same rows
// under the same sink epoch; a later file writes only its own group.
func TestOwnerGroupsUpdate(t *testing.T) {
	ctx := context.Background()
	js := testJS(t)
	pst, err := EnsureStream(ctx, js, "grp", 0)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := statusCountGroups(t)
	pub := &Publisher{JS: js, Stream: "grp", Part: tmpl.Partitioner(2)}
	publish := func(file int64, b arrow.RecordBatch) { publishFile(t, pub, file, b) }
	file1 := rows([2]int64{1, 200}, [2]int64{2, 404}, [2]int64{2, 200}, [2]int64{3, 500})
	publish(1, file1)
	publish(2, rows([2]int64{3, 200}, [2]int64{6, 404}))
	p2 := tmpl.Partitioner(2)
	_ = p2.Process(ctx, file1, nil)
	parts, _ := p2.Take()
	for _, wp := range parts {
		data, _ := json.Marshal(partialMsg{File: 1, Partials: []partialWindow{{Start: wp.Start, End: wp.End, State: wp.State}}})
		if _, err := js.Publish(ctx, PartSubject("grp", wp.Partition), data); err != nil {
			t.Fatal(err)
		}
	}
	base := &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "cp/"}
	sink := &groupSink{}
	newOwner := func(worker string) *Owner {
		t.Helper()
		l, err := OpenLeases(ctx, js, "sluice-grp", worker, 2, 2*time.Second, 0)
		if err != nil {
			t.Fatal(err)
		}
		o := &Owner{Stream: "grp", Parts: 2, PStream: pst, Leases: l, Base: base, Template: tmpl, Sink: sink,
			parts: map[int]*ownedPart{}, owners: map[int]Holder{}}
		if _, err := l.Heartbeat(ctx); err != nil {
			t.Fatal(err)
		}
		return o
	}
	runAll := func(o *Owner) int {
		t.Helper()
		before := len(sink.order)
		for _, p := range []int{0, 1} {
			if part := o.parts[p]; part != nil {
				if err := o.epoch(ctx, part, math.MinInt64); err != nil {
					t.Fatalf("partition %d: %v", p, err)
				}
			}
		}
		return len(sink.order) - before
	}
	a := newOwner("a")
	if err := a.balance(ctx); err != nil {
		t.Fatal(err)
	}
	n := runAll(a)
	if got := sink.last(n); got != "200=3 404=2 500=1" {
		t.Fatalf("first epochs wrote %q", got)
	}
	if a.stats.Duplicates == 0 {
		t.Error("the second copy of file 1 was not counted as a duplicate")
	}
	if n = runAll(a); n != 0 {
		t.Fatalf("epochs with no partial wrote %s", sink.last(n))
	}

	// a crashes after its sink write, before commits/N.
	publish(3, rows([2]int64{9, 404}, [2]int64{9, 500}))
	n = runAll(a)
	crashed := sink.last(n)
	crashedIDs := fmt.Sprint(sink.order[len(sink.order)-n:])
	for _, p := range []int{0, 1} {
		cp := a.partCheckpoint(p)
		last, _ := cp.Last(ctx, "commits")
		if err := base.Store.Delete(ctx, cp.Prefix+fmt.Sprintf("commits/%d", last)); err != nil {
			t.Fatal(err)
		}
	}
	b := newOwner("b")
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
	n = runAll(b)
	if got := sink.last(n); got != crashed || got != "404=3 500=2" {
		t.Fatalf("b's replay wrote %q, the crashed epochs %q", got, crashed)
	}
	if got := fmt.Sprint(sink.order[len(sink.order)-n:]); got != crashedIDs {
		t.Fatalf("b's replay wrote sink epochs %s, the crashed ones %s", got, crashedIDs)
	}
	publish(4, rows([2]int64{10, 200}))
	if n = runAll(b); sink.last(n) != "200=4" {
		t.Fatalf("a file of one group wrote %q", sink.last(n))
	}
}
