package file

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestEventSeqsReplay: a shared source's offsets record which queue
// messages named each file (and whether the first listing did), so a
// replay of the epoch in another process, which holds no message, tags
// the file's partials with the same sequences; the seen log keeps none.
func TestEventSeqsReplay(t *testing.T) {
	r := newNotifyRig(t, "30s")
	ctx := context.Background()
	r.put("lake", "in/old.json") // listed by slot 0's backfill
	ss := r.source(nil, -1)
	defer ss.Close()
	if err := ss.SetWorker(0, 2); err != nil {
		t.Fatal(err)
	}
	off, keys := latestKeys(t, ss)
	if len(keys) != 1 || keys[0] != "in/old.json" {
		t.Fatalf("first epoch %v", keys)
	}
	fo, _ := decodeOffset(off)
	id := fileEpoch(fo.Files[0].Key, fo.Files[0].ETag)
	if _, err := ss.Plan(ctx, nil, off); err != nil {
		t.Fatal(err)
	}
	if _, listed := ss.EventSeqsFor(id); !listed {
		t.Fatal("a file of the first listing is not marked listed")
	}
	if err := ss.Commit(ctx, 0, off); err != nil {
		t.Fatal(err)
	}
	// The listing's own event is acked as seen; a new file comes next.
	r.put("lake", "in/new.json")
	var seqs []uint64
	deadline := time.Now().Add(20 * time.Second)
	for {
		off, keys = latestKeys(t, ss)
		if len(keys) == 1 && keys[0] == "in/new.json" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("in/new.json not announced (last %v)", keys)
		}
		time.Sleep(100 * time.Millisecond)
	}
	fo, _ = decodeOffset(off)
	id = fileEpoch(fo.Files[0].Key, fo.Files[0].ETag)
	if len(fo.Files[0].Seqs) != 1 || fo.Files[0].Listed {
		t.Fatalf("offset of a notified file: %+v", fo.Files[0])
	}
	if _, err := ss.Plan(ctx, nil, off); err != nil {
		t.Fatal(err)
	}
	seqs, _ = ss.EventSeqsFor(id)
	if len(seqs) < 1 || seqs[0] != fo.Files[0].Seqs[0] {
		t.Fatalf("EventSeqsFor %v, offset recorded %v", seqs, fo.Files[0].Seqs)
	}
	// Another process replays epoch 1 from its offsets: no message held.
	other := r.source(nil, 0)
	defer other.Close()
	if err := other.SetWorker(0, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Plan(ctx, nil, off); err != nil {
		t.Fatal(err)
	}
	if held := other.HeldSeqsFor(id); len(held) != 0 {
		t.Fatalf("the replaying process holds %v", held)
	}
	if got, listed := other.EventSeqsFor(id); len(got) != 1 || got[0] != fo.Files[0].Seqs[0] || listed {
		t.Fatalf("replay's EventSeqsFor %v (listed %v), want %v", got, listed, fo.Files[0].Seqs)
	}
	if err := other.Commit(ctx, 1, off); err != nil {
		t.Fatal(err)
	}
	rd, err := r.area.Store.Open(ctx, r.area.Prefix+"log/1")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rd)
	rd.Close()
	if err != nil {
		t.Fatal(err)
	}
	if log := string(data); strings.Contains(log, "seqs") || strings.Contains(log, "listed") {
		t.Fatalf("seen log keeps queue sequences: %s", log)
	}
}
