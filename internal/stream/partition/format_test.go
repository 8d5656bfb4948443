package partition

import (
	"bytes"
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"sluice/internal/storage"
	"sluice/internal/stream"
)

// TestKeyedFormatRefusal: keyed/meta.json and a partition's state in a
// format version newer than this binary reads are refused, naming the
// file, its version and the binary that reads it.
func TestKeyedFormatRefusal(t *testing.T) {
	ctx := context.Background()
	const newer = `{"format_version": 2, "format_reader": "0.x (commit f00dfee or later)", "partitions": 16, "state_fingerprint": "abc"}`
	wants := []string{"format version 2", "needs sluice 0.x (commit f00dfee or later)"}
	cp := &stream.Checkpoint{Store: storage.NewMemStore("cp"), Prefix: "s/"}
	if err := cp.Store.Put(ctx, "s/keyed/meta.json", strings.NewReader(newer), false); err != nil {
		t.Fatal(err)
	}
	err := CheckMeta(ctx, cp, 16, "abc")
	for _, want := range append(wants, "s/keyed/meta.json") {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckMeta: %v, want it to name %q", err, want)
		}
	}

	js := []byte(`{"format_version": 2, "format_reader": "0.x (commit f00dfee or later)", "files": {}}`)
	var state bytes.Buffer
	_ = binary.Write(&state, binary.LittleEndian, int64(len(js)))
	state.Write(js)
	part := &ownedPart{files: map[int64]map[int64]uint64{}, agg: tumbleCount(t)}
	err = part.decodeState(state.Bytes(), "keyed/p0/state/3/partition")
	for _, want := range append(wants, "keyed/p0/state/3/partition") {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decodeState: %v, want it to name %q", err, want)
		}
	}
}
