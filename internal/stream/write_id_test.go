package stream

import (
	"bytes"
	"context"
	"testing"

	"sluice/internal/storage"
)

// TestWriteID: a new checkpoint gets an id, the same at every call (a
// restart, another worker); a checkpoint an earlier version started
// (epochs, no metadata) keeps "", the id its epochs were written under.
func TestWriteID(t *testing.T) {
	ctx := context.Background()
	st := storage.NewMemStore("cp")
	fresh := &Checkpoint{Store: st, Prefix: "a/"}
	id, err := fresh.WriteID(ctx)
	if err != nil || len(id) != 32 {
		t.Fatalf("new checkpoint: id %q, %v", id, err)
	}
	if again, err := fresh.WriteID(ctx); again != id || err != nil {
		t.Fatalf("second call: %q, %v, want %q", again, err, id)
	}
	if other, _ := (&Checkpoint{Store: st, Prefix: "b/"}).WriteID(ctx); other == id || other == "" {
		t.Fatalf("another stream's id %q (first %q)", other, id)
	}
	for _, key := range []string{"old/offsets/0", "older/workers/0/commits/3"} {
		if err := st.Put(ctx, key, bytes.NewReader([]byte("{}")), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, prefix := range []string{"old/", "older/"} {
		if id, err := (&Checkpoint{Store: st, Prefix: prefix}).WriteID(ctx); id != "" || err != nil {
			t.Fatalf("checkpoint %s of a previous version: id %q, %v, want none", prefix, id, err)
		}
	}
}
