package partition

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"sluice/internal/exec"
	"sluice/internal/storage"
	"sluice/internal/stream"
)

// fixedSeqs tags every file id f with queue sequence f (listed: none).
type fixedSeqs struct{ listed map[int64]bool }

func (s fixedSeqs) EventSeqsFor(epoch int64) ([]uint64, bool) {
	if s.listed[epoch] {
		return nil, true
	}
	return []uint64{uint64(epoch)}, false
}

// forgetRig is a one-partition update-mode GROUP BY status owner with a
// publisher whose file f is tagged with queue sequence f.
type forgetRig struct {
	t     *testing.T
	ctx   context.Context
	pub   *Publisher
	tmpl  *exec.WindowAggregate
	owner *Owner
	sink  *groupSink
	part  *ownedPart
}

func newForgetRig(t *testing.T, name string, listed map[int64]bool) *forgetRig {
	t.Helper()
	ctx := context.Background()
	js := testJS(t)
	pst, err := EnsureStream(ctx, js, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := statusCountGroups(t)
	l, err := OpenLeases(ctx, js, "sluice-"+name, "a", 1, 5*time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	sink := &groupSink{}
	o := &Owner{Stream: name, Parts: 1, PStream: pst, Leases: l, Template: tmpl, Sink: sink,
		Base:  &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "cp/"},
		parts: map[int]*ownedPart{}, owners: map[int]Holder{}}
	if err := o.balance(ctx); err != nil {
		t.Fatal(err)
	}
	r := &forgetRig{t: t, ctx: ctx, tmpl: tmpl, owner: o, sink: sink, part: o.parts[0],
		pub: &Publisher{JS: js, Stream: name, Part: tmpl.Partitioner(1), Events: fixedSeqs{listed: listed}}}
	if r.part == nil {
		t.Fatal("partition 0 not taken")
	}
	o.checkBackfill(ctx) // no listing: done
	return r
}

// publish sends file f's partials (message ids <stream>#f#0).
func (r *forgetRig) publish(f int64, status int64) {
	r.t.Helper()
	if err := r.pub.BeginEpoch(r.ctx, f); err != nil {
		r.t.Fatal(err)
	}
	if err := r.pub.Part.Process(r.ctx, rows([2]int64{1, status}), nil); err != nil {
		r.t.Fatal(err)
	}
	if err := r.pub.Flush(r.ctx, f); err != nil {
		r.t.Fatal(err)
	}
}

// republish sends file f's partials again under a message id JetStream
// has not seen (as after its duplicate window), tagged qseq.
func (r *forgetRig) republish(f int64, status int64, qseq uint64) {
	r.t.Helper()
	p := r.tmpl.Partitioner(1)
	if err := p.Process(r.ctx, rows([2]int64{1, status}), nil); err != nil {
		r.t.Fatal(err)
	}
	parts, err := p.Take()
	if err != nil {
		r.t.Fatal(err)
	}
	data, _ := json.Marshal(partialMsg{File: f, QSeq: qseq, Partials: []partialWindow{{Start: parts[0].Start, End: parts[0].End, State: parts[0].State}}})
	if _, err := r.pub.JS.Publish(r.ctx, PartSubject(r.owner.Stream, 0), data); err != nil {
		r.t.Fatal(err)
	}
}

// epoch runs the partition's next epoch with the owner's ack floor at
// floor, and returns what it wrote.
func (r *forgetRig) epoch(floor uint64) string {
	r.t.Helper()
	r.owner.setFloor(floor)
	before := len(r.sink.order)
	if err := r.owner.epoch(r.ctx, r.part, math.MinInt64); err != nil {
		r.t.Fatal(err)
	}
	if len(r.sink.order) == before {
		return ""
	}
	return r.sink.last(1)
}

// TestOwnerForgetsAckedFiles: an update-mode GROUP BY's file-id set
// holds every file folded until the file queue's ack floor passes the
// file's message, then shrinks to the files above it; a file of the
// first listing stays; nothing is forgotten before the listing is
// committed; the horizon survives a restore.
func TestOwnerForgetsAckedFiles(t *testing.T) {
	r := newForgetRig(t, "fgt", map[int64]bool{1000: true})
	r.owner.backfilled = false
	r.owner.Backfilled = func(context.Context) (bool, error) { return false, nil }
	r.owner.checkBackfill(r.ctx)
	const n = 200
	for f := int64(1); f <= n; f++ {
		r.publish(f, 200+f%3)
	}
	r.publish(1000, 200)
	if got := r.epoch(n); got != "200=67 201=67 202=67" {
		t.Fatalf("first epoch wrote %q", got)
	}
	before := r.part.fileIDs()
	stateBefore, err := r.part.encodeState()
	if err != nil {
		t.Fatal(err)
	}
	if before != n+1 {
		t.Fatalf("%d file ids after %d files, want %d", before, n+1, n+1)
	}
	if r.part.horizon != 0 {
		t.Fatalf("horizon %d before the listing was committed", r.part.horizon)
	}
	// The listing committed; the ack floor is at 150.
	r.owner.Backfilled = func(context.Context) (bool, error) { return true, nil }
	r.owner.checkBackfill(r.ctx)
	if got := r.epoch(150); got != "" {
		t.Fatalf("an epoch with no partial wrote %q", got)
	}
	after := r.part.fileIDs()
	if after != n-150+1 {
		t.Fatalf("%d file ids with the floor at 150, want %d", after, n-150+1)
	}
	if _, ok := r.part.files[0][1000]; !ok {
		t.Fatal("the listed file was forgotten")
	}
	if r.owner.stats.Forgotten != 150 {
		t.Fatalf("forgotten %d, want 150", r.owner.stats.Forgotten)
	}
	stateAfter, err := r.part.encodeState()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("file ids over %d files: %d before the ack floor moved (state %d bytes), %d after it reached 150 (state %d bytes)",
		n+1, before, len(stateBefore), after, len(stateAfter))
	// A new owner restores the shrunk set and the horizon.
	cp := r.owner.partCheckpoint(0)
	restored, err := r.owner.restore(r.ctx, 0, r.part.gen)
	if err != nil {
		t.Fatal(err)
	}
	if restored.horizon != 150 || restored.fileIDs() != after {
		t.Fatalf("restored horizon %d with %d ids, want 150 with %d (%s)", restored.horizon, restored.fileIDs(), after, cp.Prefix)
	}
	restored.in.close(r.ctx)
}

// TestOwnerDropsDuplicatesAroundHorizon: a file's partials published
// again under new message ids (past JetStream's duplicate window) are
// dropped while its id is still remembered (its message not yet
// acknowledged) and after it is forgotten (the copy carries the
// acknowledged sequence); a new file above the floor is folded.
func TestOwnerDropsDuplicatesAroundHorizon(t *testing.T) {
	r := newForgetRig(t, "fdup", nil)
	for f := int64(1); f <= 10; f++ {
		r.publish(f, 200)
	}
	if got := r.epoch(4); got != "200=10" {
		t.Fatalf("first epoch wrote %q", got)
	}
	// The floor was read before the range: files 1-4 are folded and
	// forgotten in the same epoch.
	if r.part.fileIDs() != 6 {
		t.Fatalf("%d ids after the first epoch, want 6", r.part.fileIDs())
	}
	// File 7 again (still needed: its message is above the floor), then
	// file 2 again (forgotten at the next epoch's end: the floor is 4).
	r.republish(7, 200, 7)
	if got := r.epoch(6); got != "" {
		t.Fatalf("a duplicate of a remembered file wrote %q", got)
	}
	if _, ok := r.part.files[0][7]; !ok {
		t.Fatal("file 7 forgotten above the floor")
	}
	if _, ok := r.part.files[0][2]; ok {
		t.Fatal("file 2 not forgotten below the floor")
	}
	r.republish(2, 200, 2)
	r.republish(7, 200, 9) // a later message named file 7 too: kept until 9 is acknowledged
	r.publish(11, 200)
	if got := r.epoch(8); got != "200=11" {
		t.Fatalf("duplicates of files 2 and 7 with new file 11 wrote %q, want only file 11 counted", got)
	}
	if _, ok := r.part.files[0][7]; !ok {
		t.Fatal("file 7 forgotten while a later message naming it is unacknowledged")
	}
	if r.owner.stats.Duplicates != 3 {
		t.Fatalf("duplicates %d, want 3", r.owner.stats.Duplicates)
	}
	r.republish(7, 200, 9)
	if got := r.epoch(9); got != "" {
		t.Fatalf("a duplicate tagged at the floor wrote %q", got)
	}
	if got := fmt.Sprint(r.part.fileIDs()); got != "2" {
		t.Fatalf("%s ids left with the floor at 9, want 2 (files 10 and 11)", got)
	}
}

// seqsFunc tags a file's partials with whatever the function says.
type seqsFunc func(epoch int64) ([]uint64, bool)

func (f seqsFunc) EventSeqsFor(epoch int64) ([]uint64, bool) { return f(epoch) }

// TestOwnerSecondMessageKeepsFile: one file read for two queue messages
// (a duplicate event) within JetStream's duplicate window: both copies
// are stored (message ids carry the sequence), the file is folded once
// and remembered until the later message is acknowledged, so a replay
// of the later reading after the earlier message's acknowledgement is
// still dropped.
func TestOwnerSecondMessageKeepsFile(t *testing.T) {
	r := newForgetRig(t, "fsec", nil)
	var tag uint64
	r.pub.Events = seqsFunc(func(int64) ([]uint64, bool) { return []uint64{tag}, false })
	tag = 3
	r.publish(42, 200)
	tag = 7
	r.publish(42, 200)
	if got := r.epoch(0); got != "200=1" {
		t.Fatalf("two readings of one file wrote %q", got)
	}
	if r.owner.stats.Duplicates != 1 {
		t.Fatalf("duplicates %d, want 1: the second reading was not stored", r.owner.stats.Duplicates)
	}
	r.epoch(5) // the first message is acknowledged
	if _, ok := r.part.files[0][42]; !ok {
		t.Fatal("the file was forgotten while its second message is unacknowledged")
	}
	r.republish(42, 200, 7) // the second reading replayed
	if got := r.epoch(6); got != "" {
		t.Fatalf("a replay of the second reading wrote %q", got)
	}
	if got := r.epoch(7); got != "" || r.part.fileIDs() != 0 {
		t.Fatalf("with both messages acknowledged: wrote %q, %d ids left", got, r.part.fileIDs())
	}
}
